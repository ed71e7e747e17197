#pragma once
// One forcing period of a described system (described_system.hpp): the integrator's steps to
// t = (k + 1) T, then the stroboscopic sample. Host-and-device code: the CPU simulation
// (hybrid_simulation.hpp) and the batched kernel (described_batch_kernel.hpp) take their periods
// through step_described_period; there is no second copy.
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/core/host_device.hpp"
#include "engine/core/model.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid_model/hybrid_description.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"

namespace vibro {

// Which state components a sample holds: the section's (all but the drift coordinate), in order, and
// the drift coordinate (-1: none); and how many components have tracked extremes in the aux slots.
struct DescribedSection {
  int components[kMaxStrobeDims] = {};
  int count = 0;
  int drift = -1;
  int tracked = 0;
};

inline DescribedSection described_section(const HybridFrame& frame) {
  DescribedSection s;
  for (const int c : frame.strobe_components()) s.components[s.count++] = c;
  s.drift = frame.drift_component;
  s.tracked = static_cast<int>(frame.tracked.size());
  return s;
}

// How a period ended: sampled; the integrator failed (step: where and why); the system stopped it
// (device code: DescribedSystem::failure says why); the state went non-finite at t.
enum class DescribedStop { None, StepFailed, SystemFailed, NonFinite };
struct DescribedPeriod {
  DescribedStop stop;
  HybridOutcome step;
  double t;
};

// The per-period aux slots, reset after every sample: no impact yet (NaN), extremes (-inf, inf).
VIBRO_HD inline void reset_described_aux(StrobeSample& sample, int tracked) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kMaxAux; ++i) sample.aux[static_cast<std::size_t>(i)] = nan;
  for (int k = 0; k < tracked; ++k) {
    sample.aux[static_cast<std::size_t>(kAuxFirstExtreme + 2 * k)] = -inf;
    sample.aux[static_cast<std::size_t>(kAuxFirstExtreme + 2 * k + 1)] = inf;
  }
}

// Writes the state's section components and drift coordinate into a sample.
template <class State>
VIBRO_HD void write_described_sample(const State& y, const DescribedSection& section, StrobeSample& s) {
  for (int i = 0; i < section.count; ++i) s.state[static_cast<std::size_t>(i)] = y[section.components[i]];
  s.drift_position = section.drift >= 0 ? y[section.drift] : 0.0;
}

// The state a sample stands for (a restart): its section components and drift coordinate, the other
// components 0, the forcing at phase 0; false when a component is not finite.
template <class State>
VIBRO_HD bool read_described_sample(const StrobeSample& s, const DescribedSection& section, State& y) {
  y.setZero();
  for (int i = 0; i < section.count; ++i) y[section.components[i]] = s.state[static_cast<std::size_t>(i)];
  if (section.drift >= 0) y[section.drift] = s.drift_position;
  y[y.size() - 2] = 1;
  y[y.size() - 1] = 0;
  bool finite = true;
  for (int i = 0; i < y.size(); ++i) finite = finite && std::isfinite(y[i]);
  return finite;
}

// Puts a described system at its description's initial state and mode, the forcing at phase 0.
// Throws InfeasibleCase when that state lies beyond a stop. Host only.
template <int N, class System, class State>
void start_described(const HybridDescription<N>& description, System& system, State& y) {
  y.template head<N>() = description.initial;
  y[N] = 1;
  y[N + 1] = 0;
  if (!system.enter(description.initial_mode, y)) throw InfeasibleCase("the initial state lies beyond a stop");
}

// Resumes a described system from a sample (Simulation::restart_from): state and mode, the period
// count and counters, and a fresh first step. False when the system refuses the sample. Host only.
template <int M, class System>
bool restart_described(System& system, HybridIntegrator<M>& integrator, Eigen::Matrix<double, M, 1>& y,
                       std::int64_t& periods, StrobeSample& sample, const DescribedSection& section,
                       const StrobeSample& from) {
  Eigen::Matrix<double, M, 1> read;
  if (!read_described_sample(from, section, read) || !system.enter(from.mode, read)) return false;
  y = read;
  periods = from.period;
  sample.counters = from.counters;
  integrator.reset_step();
  return true;
}

// Steps period `periods` of `system` (whose counters and extremes go to `sample`) to its end and
// writes the sample (state, time, period, mode, rejected steps).
template <int M, class System>
VIBRO_HD DescribedPeriod step_described_period(HybridIntegrator<M>& integrator, System& system,
                                               Eigen::Matrix<double, M, 1>& y, std::int64_t& periods, double period,
                                               const DescribedSection& section, StrobeSample& sample) {
  double t = static_cast<double>(periods) * period;
  const double t_next = static_cast<double>(periods + 1) * period;
  const HybridOutcome outcome = integrator.step_to(system, t, y, t_next);
  if (outcome.status == HybridStatus::Underflow || outcome.status == HybridStatus::Stalled)
    return {DescribedStop::StepFailed, outcome, t};
  if (outcome.status == HybridStatus::Stopped) return {DescribedStop::SystemFailed, outcome, t};
#if !VIBRO_DEVICE_PASS
  // The last step ends at t_next only up to rounding: the sample's grid time gets the sample.
  if (system.trace) system.trace->fill_to(t_next, system.mode, [&](double, double* out) { system.trace_state(y, out); });
#endif
  y[M - 2] = 1;  // exactly phase 0 at a sample: no drift of cos^2 + sin^2
  y[M - 1] = 0;
  t = t_next;
  ++periods;
  write_described_sample(y, section, sample);
  sample.period = periods;
  sample.time = t;
  sample.mode = system.mode;
  sample.counters[kHybridRejectedSteps] = integrator.stats().rejected;
  bool finite = true;
  for (int i = 0; i < M; ++i) finite = finite && std::isfinite(y[i]);
  return {finite ? DescribedStop::None : DescribedStop::NonFinite, outcome, t};
}

}  // namespace vibro
