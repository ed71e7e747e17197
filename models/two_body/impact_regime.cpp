#include "models/two_body/impact_regime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/two_body/gap_oscillator_simulation.hpp"

namespace vibro::two_body {

std::vector<ObservableSpec> impact_observables() {
  return {{"A1", "m", "semi-amplitude of body 1, (|max| + |min|) / 2 over the window"},
          {"A1_pp", "m", "half peak-to-peak of body 1 over the window"},
          {"A2", "m", "semi-amplitude of body 2 (displacement from rest), (|max| + |min|) / 2"},
          {"A2_pp", "m", "half peak-to-peak of body 2 over the window"},
          {"max_contact_force", "N", "peak elastic contact force over the window (compliant laws)"},
          {"max_penetration", "m", "peak penetration over the window (compliant laws)"},
          {"contact_time", "s", "time in contact per forcing period, window mean"},
          {"impacts_per_period", "1/period", "impacts (contact onsets) per forcing period over the window"},
          {"min_contact_force", "N", "smallest force the contact transmits over the window, elastic plus contact "
                                     "damping (compliant laws; < 0: the contact pulls, not admissible); NaN: no contact"}};
}

CaseSummary summarize_impact_regime(const SteadyState& steady, int impact_counter, int free_mode) {
  CaseSummary summary;
  const auto& w = steady.window;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (w.size() < 2) {
    summary.class_code = "X";
    summary.observables.assign(impact_observables().size(), nan);
    return summary;
  }
  // Every sample after the first carries the extremes of the period that ends at it.
  double max1 = -1e300, min1 = 1e300, max2 = -1e300, min2 = 1e300, force = 0, depth = 0, contact = 0;
  double least_force = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto& a = w[i].aux;
    max1 = std::max(max1, a[kMaxX1]);
    min1 = std::min(min1, a[kMinX1]);
    max2 = std::max(max2, a[kMaxU2]);
    min2 = std::min(min2, a[kMinU2]);
    force = std::max(force, a[kMaxForce]);
    depth = std::max(depth, a[kMaxPenetration]);
    contact += a[kContactTime];
    least_force = std::min(least_force, a[kMinContactForce]);
  }
  const double periods = static_cast<double>(w.size() - 1);
  const auto impacts = steady.counter_in_window(impact_counter);
  summary.observables = {0.5 * (std::fabs(max1) + std::fabs(min1)), 0.5 * (max1 - min1),
                         0.5 * (std::fabs(max2) + std::fabs(min2)), 0.5 * (max2 - min2),
                         force, depth, contact / periods, static_cast<double>(impacts) / periods,
                         std::isinf(least_force) ? nan : least_force};
  if (!has_period(steady.periodicity)) {
    summary.class_code = steady.periodicity == Periodicity::QuasiPeriodic ? "Q" : "X";
    return summary;
  }
  const std::string slow = steady.periodicity == Periodicity::SlowlyConverging ? "~" : "";
  const bool always_free = std::all_of(w.begin(), w.end(), [&](const StrobeSample& s) { return s.mode == free_mode; });
  if (impacts == 0 && always_free) {
    summary.class_code = "L" + slow;  // impact-free (linear) response
    return summary;
  }
  const double k = steady.counter_per_orbit(impact_counter);
  summary.class_code = k < 0 ? "X" : "(" + std::to_string(steady.period) + "," + std::to_string(static_cast<long>(k)) + ")" + slow;
  return summary;
}

std::vector<ClassCode> impact_regime_class_legend() {
  return {{"(<n>,<k>)[~]", "an nT-periodic orbit (n forcing periods) with k impacts per orbit; ~: converged slowly"},
          {"L[~]", "impact-free (linear) response: the bodies never touch; ~: converged slowly"},
          {"(<n>,0)[~]", "an nT-periodic orbit without impacts in which the bodies touch: they stay in contact part or "
                         "all of the time (e.g. the form riding its block); ~: converged slowly"},
          quasi_periodic_class(),
          not_converged_class()};
}

}  // namespace vibro::two_body
