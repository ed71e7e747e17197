#include "models/conveyor/conveyor_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "models/conveyor/conveyor_tangent_map.hpp"
#include "models/conveyor/conveyor_kernel_host.hpp"

namespace vibro::conveyor {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;
}  // namespace

// Reads g, omega and the period alone: ConveyorBatchKernel::shares_layout relies on it.
StrobeLayout conveyor_layout(const ConveyorConstants& c) {
  StrobeLayout layout;
  const double length = c.g / (c.omega * c.omega), velocity = c.g / c.omega;
  layout.state_names = {"h", "u", "vT"};
  layout.state_units = {"m", "m/s", "m/s"};
  layout.state_scales = {length, velocity, velocity};
  layout.drift_scale = velocity;
  layout.period = c.period;
  layout.drift_unit = "m";
  layout.drift_meaning = "the part's position along the trough";
  layout.counter_names = {"impacts", "accumulations", "coupled_phases", "lift_offs",
                          "stick_arcs", "reversals", "grazings", "root_evaluations"};
  layout.counter_meanings = {"impacts of the part on the plate (Newton restitution, Coulomb impulse)",
                             "impact sequences that accumulated: the part came to rest on the plate",
                             "phases of coupled motion (part on the plate) begun",
                             "lift-offs from coupled motion (normal force reached zero)",
                             "arcs of sticking (no tangential slip) begun during coupled motion",
                             "reversals of the tangential slip direction during coupled motion",
                             "grazing contacts (zero approach speed)",
                             "evaluations of the certified event-root search (a cost measure)"};
  layout.mode_names = {"flight", "coupled"};
  layout.mode_meanings = {"the part flies above the plate", "the part moves with the plate in normal contact"};
  return layout;
}

TraceLayout ConveyorSimulation::trace_layout() const {
  return {{"h", "u", "vT", "x"}, {"m", "m/s", "m/s", "m"}};
}

ConveyorSimulation::ConveyorSimulation(const ConveyorConstants& constants, const ConveyorStart& start)
    : c_(constants), start_(start), layout_(conveyor_layout(constants)) {
  sample_.aux[kLastImpactPhase] = std::numeric_limits<double>::quiet_NaN();
  sample_.aux[kLastApproachVelocity] = std::numeric_limits<double>::quiet_NaN();
}

bool ConveyorSimulation::restart_from(const StrobeSample& sample) {
  sample_.counters = sample.counters;
  sample_.aux = sample.aux;
  if (!restart_state(c_, state_, sample)) return false;
  sample_.counters[kCoupledPhases] = state_.counters[kCoupledPhases];
  exhausted_ = false;
  return true;
}

long long structural_events(const std::vector<ConveyorEvent>& events) {
  // Continuation reports a change of this count as a grazing. A microthrow sequence counts once: how
  // many of its impacts are simulated before the accumulation depends on u_tol, not on the orbit.
  long long count = 0;
  bool absorbed = false;  // walking backwards: inside the impacts that end in an accumulation
  for (auto e = events.rbegin(); e != events.rend(); ++e) {
    if (e->kind == ConveyorEvent::Kind::Accumulation) absorbed = true;
    else if (e->kind != ConveyorEvent::Kind::Impact) absorbed = false;
    else if (absorbed) continue;
    ++count;
  }
  return count;
}

bool ConveyorSimulation::stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) {
  // The simulation itself runs the map, logging its events; the tangent map follows them.
  ConveyorSimulation copy(c_, start_);
  std::vector<ConveyorEvent> events;
  copy.record_events(&events);
  if (!copy.restart_from(from)) return false;
  struct Last : StrobeObserver {
    int left;
    StrobeSample sample{};
    bool on_sample(const StrobeSample& s) override {
      sample = s;
      return --left > 0;
    }
  } last;
  last.left = periods;
  copy.run(last);
  Eigen::Matrix3d jacobian;
  if (!stroboscopic_tangent_map(c_, events, static_cast<double>(from.period) * c_.period, from.state[2],
                                from.mode == kCoupled, periods * kTwoPi, jacobian))
    return false;
  step.image = last.sample;
  step.jacobian = jacobian;
  step.events = structural_events(events);
  // Every coupled phase (begun in this map or resumed from a coupled sample) absorbs the normal state.
  step.resets = static_cast<int>(std::count_if(events.begin(), events.end(), [](const ConveyorEvent& e) {
    return e.kind == ConveyorEvent::Kind::ArcStart;
  }));
  return true;
}

std::vector<std::complex<double>> ConveyorSimulation::floquet_multipliers(int periods) {
  MapStep step;
  if (!stroboscopic_map(sample_, periods, step)) return {};
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(step.jacobian, false);
  std::vector<std::complex<double>> mu;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) mu.push_back(solver.eigenvalues()[i]);
  return mu;
}

void ConveyorSimulation::run(StrobeObserver& observer) {
  if (exhausted_) return;
  ConveyorKernel<CpuObserver> kernel(c_, state_, CpuObserver{events_, trace_, c_.omega});
  if (trace_ && state_.next != KernelNext::Start)  // resuming: nothing before the resumed state
    trace_->skip_to((static_cast<double>(state_.periods) * kTwoPi + state_.theta) / c_.omega);
  ConveyorSample out;
  while (true) {
    if (!kernel.advance(start_, out)) throw_kernel_stop(c_, state_);
    fill_sample(c_, out, sample_);
    if (trace_) {  // the motion's own clock reaches k T only up to rounding: the sample is the state there
      const double state[] = {sample_.state[0], sample_.state[1], sample_.state[2], sample_.drift_position};
      trace_->fill_to(sample_.time, sample_.mode, [&](double, double* out) { std::copy(state, state + 4, out); });
    }
    if (!observer.on_sample(sample_)) break;
  }
  // A later run() continues from the last sample, re-based at phase 0.
  if (!restart_from(sample_)) exhausted_ = true;
}

}  // namespace vibro::conveyor
