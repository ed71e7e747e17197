#pragma once
// A model of the hybrid-model API as a batch kernel (engine/batch/cpu_batch.hpp states the concept),
// for any such model, a user's plugin included: one case is its described system with the fields'
// tapes (TapeField: plain data, no callable), its integrator and state, the running sample; one period
// is one step_described_period, the function the CPU simulation takes its periods through. The tapes
// give the callables' bits (field_tape.hpp), so a batched sweep's file equals the cpu back end's.
#include <cstdint>
#include <string>

#include "engine/core/host_device.hpp"
#include "engine/core/model.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid_model/described_cuda_batch.hpp"
#include "engine/hybrid_model/described_layout.hpp"
#include "engine/hybrid_model/described_period.hpp"
#include "engine/hybrid_model/described_system.hpp"

namespace vibro {

// What the kernel makes its cases from: the model's description of a case and the adapter's frame
// for it (HybridModel implements it; its base: described_cuda_batch.hpp).
template <int N>
class DescribedCases : public DescribedCasesBase {
 public:
  int states() const final { return N; }
  virtual HybridDescription<N> describe(const ParameterSet& values) const = 0;
  virtual HybridFrame frame(const ParameterSet& values, const HybridDescription<N>& description) const = 0;
};

template <int N>
class DescribedBatchKernel {
 public:
  static constexpr int M = N + 2;
  using System = BasicDescribedSystem<N, TapeField<N>>;
  struct Case {
    System system;
    HybridIntegrator<M> integrator;
    Eigen::Matrix<double, M, 1> y = Eigen::Matrix<double, M, 1>::Zero();
    std::int64_t periods = 0;
    double period = 1;
    DescribedSection section;
    StrobeSample running{};  // counters and this period's aux (what the CPU simulation's sample holds)
    DescribedPeriod stop{DescribedStop::None, {HybridStatus::Reached, 0}, 0};
  };
  using Sample = StrobeSample;

  DescribedBatchKernel() = default;
  explicit DescribedBatchKernel(const DescribedCases<N>* cases) : cases_(cases) {}

  VIBRO_HD static bool advance(Case& k, Sample& out) {
    k.system.sample = &k.running;  // the case may have moved (a copy to the device, a vector growing)
    k.stop = step_described_period(k.integrator, k.system, k.y, k.periods, k.period, k.section, k.running);
    if (k.stop.stop != DescribedStop::None) return false;
    out = k.running;
    reset_described_aux(k.running, k.section.tracked);  // as the CPU simulation does after each sample
    return true;
  }

  // Host only: as HybridSimulation's constructor (its layout too), restart_from and failures.
  void make(const ParameterSet& values, Case& k, StrobeLayout& layout) const {
    const HybridDescription<N> description = cases_->describe(values);
    const HybridFrame frame = cases_->frame(values, description);
    k.system = System(description, frame, TapeField<N>(description));
    k.integrator = HybridIntegrator<M>(frame.numerics.control);
    k.period = description.period;
    k.section = described_section(frame);
    start_described(description, k.system, k.y);
    reset_described_aux(k.running, k.section.tracked);
    layout = described_layout(description, frame);
  }
  static void to_strobe(const Case&, const Sample& s, StrobeSample& out) { out = s; }
  // The batch stepped up to a launch past the sample; the one-case path restarts right at it, where
  // its integrator's count of rejected steps is the sample's (the restored counters hold the rest).
  static bool restart(Case& k, const StrobeSample& from) {
    k.system.sample = &k.running;
    if (!restart_described(k.system, k.integrator, k.y, k.periods, k.running, k.section, from)) return false;
    k.integrator.rewind_rejected(static_cast<long>(from.counters[kHybridRejectedSteps]));
    return true;
  }
  [[noreturn]] static void throw_failure(const Case& k) {
    if (k.stop.stop == DescribedStop::StepFailed) throw CaseFailure(hybrid_failure_message(k.stop.step));
    if (k.stop.stop == DescribedStop::SystemFailed) throw CaseFailure(k.system.failure_message());
    throw CaseFailure("non-finite state at t = " + std::to_string(k.stop.t));
  }

 private:
  const DescribedCases<N>* cases_ = nullptr;
};

}  // namespace vibro
