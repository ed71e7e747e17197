#pragma once
// The conveyor's class and observables of a classified window, over any window of samples (the
// Window concept of analysis/window_classification.hpp, with mode(i) and aux(i, a) besides): one
// source for the model's summary of a detector's window (host) and for the batch kernel's reduction
// of a held row (host or GPU).
#include <cstdint>
#include <limits>

#include "analysis/window_classification.hpp"
#include "engine/batch/held_summary.hpp"
#include "engine/core/class_text.hpp"
#include "engine/core/host_device.hpp"
#include "models/conveyor/conveyor_kernel.hpp"

namespace vibro::conveyor {

// The class code (conveyor_classes.hpp names them) of a window classified as `found`.
template <class Window>
VIBRO_HD ClassText conveyor_class_of(const Window& w, WindowClass found) {
  ClassText code;
  if (found.periodicity == Periodicity::NotConverged) return code.append("X"), code;
  if (found.periodicity == Periodicity::QuasiPeriodic) return code.append("Q"), code;
  const char* slow = found.periodicity == Periodicity::SlowlyConverging ? "~" : "";
  bool any_coupled = false, all_coupled = true;
  for (int i = 0; i < w.size(); ++i) {
    any_coupled = any_coupled || w.mode(i) == kCoupled;
    all_coupled = all_coupled && w.mode(i) == kCoupled;
  }
  const std::int64_t impacts = window_counter_in_window(w, kImpacts);
  if (impacts == 0 && all_coupled) return code.append("S").append(slow), code;
  if (window_counter_in_window(w, kCoupledPhases) > 0 || any_coupled) return code.append("M").append(found.period).append(slow), code;
  // Impacts per orbit over whole orbits only; a non-integer count means the orbit is not periodic.
  const double per_orbit = window_counter_per_orbit(w, found.period, kImpacts);
  if (per_orbit < 0) return code.append("X"), code;
  return code.append(per_orbit == 1 ? "H" : "P").append(found.period).append(slow), code;
}

// The model's observables (ConveyorModel::observables, in that order) of a window classified with
// period `period` (0: none); T the forcing period, s.
inline constexpr int kConveyorObservables = 5;
template <class Window>
VIBRO_HD void conveyor_observables_of(const Window& w, int period, double T, double (&out)[kConveyorObservables]) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int periods = w.size() > 0 ? w.size() - 1 : 0;
  out[0] = window_drift_velocity(w, period, T);
  out[1] = window_drift_velocity_half(w, T, 0);
  out[2] = window_drift_velocity_half(w, T, 1);
  out[3] = periods > 0 ? static_cast<double>(window_counter_in_window(w, kImpacts)) / periods : nan;
  out[4] = w.size() == 0 ? nan : w.aux(w.size() - 1, kLastImpactPhase);
}

// A held row's window of the batch kernel's samples, as the Window concept reads it.
struct ConveyorRowWindow {
  const ConveyorSample* samples;
  int count;
  VIBRO_HD int size() const { return count; }
  VIBRO_HD double state(int i, int c) const { return c == 0 ? samples[i].h : c == 1 ? samples[i].u : samples[i].vT; }
  VIBRO_HD double drift(int i) const { return samples[i].x; }
  VIBRO_HD std::int64_t counter(int i, int c) const { return samples[i].counters[c]; }
  VIBRO_HD int mode(int i) const { return samples[i].mode; }
  VIBRO_HD double aux(int i, int a) const { return samples[i].aux[a]; }
};

// A held window reduced: classified by the detector's tests, then summarised as the model does.
VIBRO_HD inline void reduce_conveyor_window(const ConveyorSample* window, int samples, double T,
                                            const WindowRules& rules, HeldSummary& out) {
  double scratch[max_held_samples<ConveyorSample>()];
  const ConveyorRowWindow w{window, samples};
  const WindowClass found = classify_window_of(w, rules, scratch);
  out.periodicity = static_cast<int>(found.periodicity);
  out.period = found.period;
  out.class_code = conveyor_class_of(w, found);
  double observables[kConveyorObservables];
  conveyor_observables_of(w, found.period, T, observables);
  out.observable_count = kConveyorObservables;
  for (int i = 0; i < kConveyorObservables; ++i) out.observables[i] = observables[i];
}

}  // namespace vibro::conveyor
