#pragma once
// A two-body model as a batch kernel (engine/batch/cpu_batch.hpp states the concept), for any System
// whose integrator-facing members (rhs, guards, on_events, observe) are host-and-device code: one
// case is the system, its integrator and state, the running sample; one period is one step_period
// (two_body_period.hpp), the function the CPU simulation takes its periods through. The CPU batch
// and the CUDA back end both step cases through advance() below.
#include <cstdint>
#include <string>

#include "engine/core/host_device.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/two_body_extremes.hpp"
#include "models/two_body/two_body_period.hpp"
#include "engine/core/model.hpp"

namespace vibro::two_body {

// What a sample of a two-body model carries beyond (x1, v1, u2, v2): at most this many counters and
// period extremes (Models A and B use 6 to 8 counters, 8 extremes).
inline constexpr int kBatchCounters = 8;
inline constexpr int kBatchAux = 8;

template <class System>
struct TwoBodyBatchKernel {
  struct Case {
    typename System::Constants c;
    System system;
    HybridIntegrator<6> integrator;
    TwoBodyState x;
    std::int64_t periods = 0;
    double rest2 = 0;
    int rejected_counter = 0;
    StrobeSample running;  // counters and this period's extremes (what the CPU simulation's sample holds)
    PeriodOutcome stop{PeriodStop::None, {HybridStatus::Reached, 0}, 0};
  };
  // One stroboscopic sample (what a batched run leaves in its buffer): a compact StrobeSample.
  struct Sample {
    double time;
    std::int64_t period;
    int mode;
    double state[4];
    std::int64_t counters[kBatchCounters];
    double aux[kBatchAux];
  };

  VIBRO_HD static bool advance(Case& k, Sample& out) {
    k.system.sample = &k.running;  // the case may have moved (a copy to the device, a vector growing)
    k.stop = step_period(k.integrator, k.system, k.system, k.x, k.periods, k.c.period, k.rest2, k.rejected_counter,
                         k.running);
    if (k.stop.stop != PeriodStop::None) return false;
    out.time = k.running.time;
    out.period = k.running.period;
    out.mode = k.running.mode;
    for (int i = 0; i < 4; ++i) out.state[i] = k.running.state[static_cast<std::size_t>(i)];
    for (int i = 0; i < kBatchCounters; ++i) out.counters[i] = k.running.counters[static_cast<std::size_t>(i)];
    for (int i = 0; i < kBatchAux; ++i) out.aux[i] = k.running.aux[static_cast<std::size_t>(i)];
    reset_period_extremes(k.running.aux);  // as the CPU simulation does after each sample
    return true;
  }

  // Host only: as TwoBodySimulation's constructor, restart_from and failures.
  static Case make(const ParameterSet& values) {
    Case k;
    k.c = System::Constants::from(values);
    k.system = System(k.c);
    k.integrator = HybridIntegrator<6>(k.c.control);
    k.x = k.system.start();  // throws InfeasibleCase
    const StrobeFrame frame = System::strobe_frame(k.c);
    k.rest2 = frame.rest2;
    k.rejected_counter = frame.rejected_counter;
    reset_period_extremes(k.running.aux);
    return k;
  }
  static StrobeLayout layout(const Case& k) { return System::strobe_frame(k.c).layout; }
  static void to_strobe(const Case&, const Sample& s, StrobeSample& out) {
    out = StrobeSample{};
    out.time = s.time;
    out.period = s.period;
    out.mode = s.mode;
    for (int i = 0; i < 4; ++i) out.state[static_cast<std::size_t>(i)] = s.state[i];
    for (int i = 0; i < kBatchCounters; ++i) out.counters[static_cast<std::size_t>(i)] = s.counters[i];
    for (int i = 0; i < kBatchAux; ++i) out.aux[static_cast<std::size_t>(i)] = s.aux[i];
  }
  // The batch stepped up to a launch past the sample; the one-case path restarts right at it, where
  // its integrator's count of rejected steps is the sample's (the restored counters hold the rest).
  static bool restart(Case& k, const StrobeSample& sample) {
    k.system.sample = &k.running;
    if (!restart_two_body(k.system, k.integrator, k.x, k.periods, k.running, sample)) return false;
    k.integrator.rewind_rejected(static_cast<long>(sample.counters[static_cast<std::size_t>(k.rejected_counter)]));
    return true;
  }
  [[noreturn]] static void throw_failure(const Case& k) {
    if (k.stop.stop == PeriodStop::StepFailed) throw CaseFailure(hybrid_failure_message(k.stop.step));
    throw CaseFailure("non-finite state at t = " + std::to_string(k.stop.t));
  }
};

}  // namespace vibro::two_body
