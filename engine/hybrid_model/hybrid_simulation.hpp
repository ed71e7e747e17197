#pragma once
// The Simulation of a HybridDescription: period after period of event-driven DOPRI5 integration
// (HybridIntegrator: certified event location, grazing included), a stroboscopic sample at every
// t = k T with the adapter's counters and aux (hybrid_frame.hpp), restarts from a sample (continuation,
// transient jumps), and the stroboscopic map's Jacobian from the variational equations with the
// automatic-differentiation Jacobian and the saltation matrix of every event (Floquet multipliers,
// Lyapunov exponents, shooting), and over half a period for a case with a declared half-period symmetry
// (engine/core/half_period_symmetry.hpp: symmetric shooting).
#include "engine/hybrid_model/described_layout.hpp"
#include <Eigen/Eigenvalues>
#include <complex>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/case_budget.hpp"
#include "engine/core/half_period_symmetry.hpp"
#include "engine/core/model.hpp"
#include "engine/hybrid/variational_system.hpp"
#include "engine/hybrid_model/described_period.hpp"
#include "engine/hybrid_model/described_system.hpp"

namespace vibro {

template <int N>
class HybridSimulation final : public Simulation, public HalfPeriodMap {
 public:
  using System = DescribedSystem<N>;
  static constexpr int M = System::M;
  using State = typename System::State;

  HybridSimulation(std::shared_ptr<const HybridDescription<N>> description, const HybridFrame& frame)
      : frame_(frame), section_(described_section(frame)), period_(description->period),
        system_(description, frame),
        integrator_(frame.numerics.control) {
    layout_ = described_layout(*description, frame);
    start_described(*description, system_, y_);
    system_.sample = &sample_;
    reset_period_aux();
  }
  HybridSimulation(const HybridSimulation& other)
      : layout_(other.layout_), frame_(other.frame_), section_(other.section_), period_(other.period_),
        system_(other.system_), integrator_(other.integrator_), y_(other.y_), periods_(other.periods_),
        sample_(other.sample_), mirror_(other.mirror_) {
    system_.sample = &sample_;
    system_.trace = nullptr;  // a copy's excursions are not the original's history
  }
  HybridSimulation& operator=(const HybridSimulation&) = delete;

  const StrobeLayout& layout() const override { return layout_; }

  // The section's components, then the drift coordinate; units from the description.
  TraceLayout trace_layout() const override {
    TraceLayout out;
    for (const int c : trace_order()) {
      out.components.push_back(frame_.names[static_cast<std::size_t>(c)]);
      out.units.push_back(c < static_cast<int>(frame_.units.size()) ? frame_.units[static_cast<std::size_t>(c)] : "");
    }
    return out;
  }
  void attach_trace(TraceSink* sink) override {
    system_.trace = sink;
    system_.set_trace_order(trace_order());
    if (sink) sink->skip_to(static_cast<double>(periods_) * period_);
  }

  void run(StrobeObserver& observer) override {
    while (true) {
      const DescribedPeriod period = step_described_period(integrator_, system_, y_, periods_, period_, section_, sample_);
      if (period.stop == DescribedStop::StepFailed) throw CaseFailure(hybrid_failure_message(period.step));
      if (period.stop == DescribedStop::SystemFailed) throw CaseFailure(system_.failure_message());
      if (period.stop == DescribedStop::NonFinite) throw CaseFailure("non-finite state at t = " + std::to_string(period.t));
      const bool go_on = observer.on_sample(sample_);
      reset_period_aux();
      if (!go_on) return;
    }
  }

  bool restart_from(const StrobeSample& from) override {
    return restart_described(system_, integrator_, y_, periods_, sample_, section_, from);
  }

  bool stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) override {
    const double t = static_cast<double>(from.period) * period_;
    return map_from(from, periods, t, t + periods * period_, 1, step);
  }

  // The case's symmetry, resolved against the layout (HybridModel::start); none by default.
  void set_half_period_mirror(StateMirror mirror) { mirror_ = std::move(mirror); }
  const StateMirror* half_period_mirror() const override { return mirror_ ? &*mirror_ : nullptr; }
  bool half_period_map(const StrobeSample& from, int periods, MapStep& step) override {
    const double t = static_cast<double>(from.period) * period_;
    return map_from(from, 0, t, t + periods * (0.5 * period_), periods % 2 == 0 ? 1 : -1, step);
  }

  std::vector<std::complex<double>> floquet_multipliers(int periods) override {
    Scratch copy(system_, sample_);
    State y = y_;
    const double t = static_cast<double>(periods_) * period_;
    const Eigen::MatrixXd monodromy = tangent_map(copy.system, y, t, t + periods * period_, 1);
    const Eigen::EigenSolver<Eigen::MatrixXd> solver(monodromy, false);
    std::vector<std::complex<double>> mu;
    for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) mu.push_back(solver.eigenvalues()[i]);
    return mu;
  }

 private:
  // The map from `from` at time t to t_end (the forcing there at phase cos = anchor_cos, sin = 0), its
  // image's period `periods` on from's.
  bool map_from(const StrobeSample& from, int periods, double t, double t_end, double anchor_cos, MapStep& step) {
    Scratch copy(system_, sample_);
    State y;
    if (!read_sample(from, y) || !copy.system.enter(from.mode, y)) return false;
    const auto before = copy.sample.counters;
    const long long passed_before = copy.system.passed_through;
    step.jacobian = tangent_map(copy.system, y, t, t_end, anchor_cos);
    const auto counted = [&](int k) { return copy.sample.counters[k] - before[k]; };
    step.events = counted(kHybridImpacts);
    step.switches = counted(kHybridSwitches) - (copy.system.passed_through - passed_before) + counted(kHybridStickings) +
                    counted(kHybridReleases);
    // Coming to rest on a stop forgets the state's start (MapStep::resets).
    step.resets = static_cast<int>(counted(kHybridStickings));
    step.image = from;
    write_sample(y, step.image);
    step.image.mode = copy.system.mode;
    step.image.period = from.period + periods;
    return y.allFinite() && step.jacobian.allFinite();
  }

  // A copy of the system that books into its own sample, so the map and the multipliers leave the
  // run where it stopped.
  struct Scratch {
    Scratch(const System& s, const StrobeSample& at) : system(s), sample(at) {
      system.sample = &sample;
      system.trace = nullptr;  // the map's excursions are not the case's history
    }
    Scratch(const Scratch&) = delete;
    System system;
    StrobeSample sample;
  };
  std::vector<int> trace_order() const {
    std::vector<int> order(section_.components, section_.components + section_.count);
    if (frame_.drift_component >= 0) order.push_back(frame_.drift_component);
    return order;
  }
  // Exactly phase 0 (anchor_cos = 1) at a sample, or pi (-1) half a period on: no drift of cos^2 + sin^2.
  static void anchor_forcing(State& y, double anchor_cos) {
    y[N] = anchor_cos;
    y[N + 1] = 0;
  }
  void write_sample(const State& y, StrobeSample& s) const { write_described_sample(y, section_, s); }
  bool read_sample(const StrobeSample& s, State& y) const { return read_described_sample(s, section_, y); }
  void reset_period_aux() { reset_described_aux(sample_, section_.tracked); }

  // Integrates the state and the variational equations from (t, y) to t_end, moving y along; returns
  // d y(end) / d y(start) on the section's components (the forcing phase is fixed there, and anchored
  // at the end: anchor_forcing).
  Eigen::MatrixXd tangent_map(System& system, State& y, double t, double t_end, double anchor_cos) const {
    using Variational = VariationalSystem<M, System>;
    Variational variational(system);
    auto augmented = Variational::pack(y, Eigen::Matrix<double, M, M>::Identity());
    HybridIntegrator<Variational::kSize> integrator(frame_.numerics.control);
    try {
      integrator.advance(variational, t, augmented, t_end);
    } catch (const BudgetExceeded&) {
      throw;
    } catch (const std::exception& failure) {
      throw CaseFailure(failure.what());
    }
    y = Variational::state(augmented);
    anchor_forcing(y, anchor_cos);
    const auto phi = Variational::phi(augmented);
    const auto n = static_cast<Eigen::Index>(section_.count);
    const int* strobe = section_.components;
    Eigen::MatrixXd jacobian(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) jacobian(i, j) = phi(strobe[i], strobe[j]);
    return jacobian;
  }

  StrobeLayout layout_;
  HybridFrame frame_;
  DescribedSection section_;  // the section's components and the drift coordinate
  double period_;
  System system_;
  HybridIntegrator<M> integrator_;
  State y_;
  std::int64_t periods_ = 0;
  StrobeSample sample_{};
  std::optional<StateMirror> mirror_;
};

}  // namespace vibro
