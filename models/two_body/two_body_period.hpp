#pragma once
// One forcing period of a two-body model (Models A and B, state (x1, v1, x2, v2, cos wt, sin wt)):
// the hybrid integrator's steps to t = (k + 1) T, then the stroboscopic sample. Host-and-device code
// (engine/core/host_device.hpp): the CPU simulation (two_body_steps.hpp) and the batched and GPU
// kernels (two_body_batch_kernel.hpp) take their periods through step_period; there is no second copy.
#include <cmath>
#include <cstdint>

#include "engine/core/host_device.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/two_body_state.hpp"

namespace vibro::two_body {

// How a two-body model's samples are read and taken: the layout, body 2's rest coordinate (the
// sampled u2 = x2 - rest2) and the counter of rejected steps.
struct StrobeFrame {
  StrobeLayout layout;
  double rest2;
  int rejected_counter;
};

// How a period ended: sampled, the integrator failed (step.t: where), or the state went non-finite.
enum class PeriodStop { None, StepFailed, NonFinite };
struct PeriodOutcome {
  PeriodStop stop;
  HybridOutcome step;  // the integrator's outcome (its failure when stop == StepFailed)
  double t;            // the sample's time
};

// Steps period `periods` to its end and writes the sample (x1, v1, u2, v2, mode, counters; the
// extremes the system tracked are already in it). `stepped` is what the integrator advances: the
// system itself, or a wrapper around it (a trace); `system` provides the mode.
template <class Stepped, class System>
VIBRO_HD PeriodOutcome step_period(HybridIntegrator<6>& integrator, Stepped& stepped, const System& system,
                                   TwoBodyState& x, std::int64_t& periods, double period, double rest2,
                                   int rejected_counter, StrobeSample& sample) {
  double t = static_cast<double>(periods) * period;
  const double t_next = static_cast<double>(periods + 1) * period;
  const HybridOutcome outcome = integrator.step_to(stepped, t, x, t_next);
  if (outcome.status == HybridStatus::Underflow || outcome.status == HybridStatus::Stalled)
    return {PeriodStop::StepFailed, outcome, t};
  // Re-anchor the forcing oscillator exactly at phase 0 (no drift of cos^2 + sin^2 over a run).
  x[4] = 1.0;
  x[5] = 0.0;
  t = t_next;
  ++periods;
  sample.period = periods;
  sample.time = t;
  sample.mode = system.mode;
  sample.drift_position = 0;  // no transport in these models
  sample.state[0] = x[0];
  sample.state[1] = x[1];
  sample.state[2] = x[2] - rest2;
  sample.state[3] = x[3];
  sample.counters[static_cast<std::size_t>(rejected_counter)] = integrator.stats().rejected;
  bool finite = true;
  for (int i = 0; i < 6; ++i) finite = finite && std::isfinite(x[i]);
  return {finite ? PeriodStop::None : PeriodStop::NonFinite, outcome, t};
}

// Resumes a two-body system from a sample (Simulation::restart_from): state and mode, the period
// count and counters, and a fresh first step. False when the system refuses the sample. Host only.
template <class System>
bool restart_two_body(System& system, HybridIntegrator<6>& integrator, TwoBodyState& x, std::int64_t& periods,
                      StrobeSample& sample, const StrobeSample& from) {
  if (!system.restart(from, x)) return false;
  periods = from.period;
  sample.counters = from.counters;
  integrator.reset_step();
  return true;
}

}  // namespace vibro::two_body
