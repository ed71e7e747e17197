#pragma once
// Period detection and the steady state's statistics on a window of one case's stroboscopic samples,
// over any sample type (a Window: int size() const; double state(int i, int c) const;
// double drift(int i) const; std::int64_t counter(int i, int c) const for the counter statistics),
// on the host and on a device: the one source of SteadyState's classification (analysis/steady_state)
// and of a batch that reduces its windows itself. No allocation: the gap sequences go to a caller's
// scratch.
#include <cstdint>
#include <limits>

#include "analysis/collapsing_gap.hpp"
#include "analysis/periodicity.hpp"
#include "analysis/weighted_birkhoff.hpp"
#include "analysis/window_distance.hpp"
#include "analysis/window_rules.hpp"
#include "engine/core/host_device.hpp"

namespace vibro {

struct WindowClass {
  Periodicity periodicity = Periodicity::NotConverged;
  int period = 0;  // k; 0 when quasi-periodic or not converged
};

namespace window_tests {

// Differences at this level (in the layout's scales) are round-off: the orbit is periodic.
constexpr double kRoundOff = 1e-11;

// Every pair (i, i+k) of the window within tol, over at least max(3, k + 1) pairs (each point of a
// period-k orbit compared at least once).
template <class Window>
VIBRO_HD bool period_fits(const Window& w, int k, const WindowRules& rules, double tol) {
  // Pairs (i, i+k) need sample i+k+1 for the drift increment: i + k + 1 <= n - 1.
  const int pairs = w.size() - k - 1;
  if (pairs < (k + 1 > 3 ? k + 1 : 3)) return false;
  return pairs_within(w, k, 0, pairs - 1, rules, tol);
}

// Distances between samples i and i + h of the window, oldest first, into gap; returns their count.
template <class Window>
VIBRO_HD int gaps(const Window& w, int h, const WindowRules& rules, double* gap) {
  int count = 0;
  for (int i = 0; i + h + 1 < w.size(); ++i) gap[count++] = window_distance(w, i, i + h, rules);
  return count;
}

// A window that fits period k but still contracts towards its orbit so slowly that, carried on at its
// rate, it would move by more than 10 tol (the distance attractor labels match settled orbits at):
// samples k apart differ by d and shrink by rho every k periods, so d rho / (1 - rho) remain.
// gap[0 .. size): gaps(window, k).
VIBRO_HD inline bool far_from_limit(const double* gap, int size, int k, const WindowRules& rules) {
  const int third = size / 3 / k * k;  // whole orbits
  if (third < 3) return false;
  const double early = gap_thirds::mean(gap, size - 3 * third, third), late = gap_thirds::mean(gap, size - third, third);
  if (!(late < early) || late <= kRoundOff) return false;
  const double rho = std::pow(late / early, static_cast<double>(k) / (2.0 * static_cast<double>(third)));
  return late * rho / (1 - rho) > 10 * rules.tol;
}

// A window that fits period k = 2h but is a transient on its way to a period-h orbit with a
// multiplier near -1 (analysis/collapsing_gap): the gap between samples h apart shrinks to 0.
template <class Window>
VIBRO_HD bool halves_period(const Window& w, int k, const WindowRules& rules, double* scratch) {
  return k % 2 == 0 && collapsing_gap(scratch, gaps(w, k / 2, rules, scratch), k / 2).collapsing;
}

// Quasi-periodic: the weighted Birkhoff averages converge (analysis/weighted_birkhoff), and no period
// above max_period fits either. A locked orbit of a long period (on an invariant circle past a
// Neimark-Sacker point, say) passes the Birkhoff test too; it is not a torus.
template <class Window>
VIBRO_HD bool quasi_periodic(const Window& w, const WindowRules& rules, double* scratch) {
  const int n = w.size();
  if (n - 1 < rules.quasi_min_window || !(birkhoff_discrepancy_of(w, rules, scratch) < rules.quasi_tol)) return false;
  for (int k = rules.max_period + 1; k <= (n - 2) / 2; ++k)
    if (period_fits(w, k, rules, rules.tol)) return false;
  return true;
}

}  // namespace window_tests

// The smallest k <= max_period with all pairs (i, i+k) within tol, else a slowly converging k, else
// quasi-periodic (period 0) if the window passes the weighted Birkhoff test, else not converged.
// An even k whose samples k/2 apart close in on each other geometrically (analysis/collapsing_gap: a
// transient near a flip, multiplier close to -1) is a slow convergence to period k/2, not a period-k
// orbit. A k whose samples k apart drift further apart over the window (a slow departure from an
// unstable orbit) is no steady state: not converged (analysis/collapsing_gap's growing_gap).
// scratch: room for at least w.size() doubles.
template <class Window>
VIBRO_HD WindowClass classify_window_of(const Window& w, const WindowRules& rules, double* scratch) {
  namespace t = window_tests;
  const int n = w.size();
  WindowClass out;
  bool departing = false;
  for (int k = 1; k <= rules.max_period; ++k) {
    if (t::period_fits(w, k, rules, rules.tol)) {
      // Samples a period apart that drift further apart: a slow departure from an unstable orbit.
      const int gap_count = t::gaps(w, k, rules, scratch);  // read by both tests below
      departing = growing_gap(scratch, gap_count, k);
      if (departing) break;
      // far_from_limit before halves_period, which reuses the scratch (both only read the window).
      const bool far = t::far_from_limit(scratch, gap_count, k, rules);
      // the doubled orbit only when its two halves stay apart; else a slow approach to period k / 2
      const bool halved = t::halves_period(w, k, rules, scratch);
      out.periodicity = halved || far ? Periodicity::SlowlyConverging : Periodicity::Periodic;
      out.period = halved ? k / 2 : k;
      return out;
    }
  }
  for (int k = 1; k <= rules.max_period && !departing; ++k) {
    const int pairs = n - k - 1;
    if (pairs < 3 * k + 6) break;
    const int third = pairs / 3;
    const double early = max_pair_distance(w, k, 0, third - 1, rules);
    const double late = max_pair_distance(w, k, pairs - third, pairs - 1, rules);
    if (late < 1e-2 && late < 0.5 * early) {
      out.periodicity = Periodicity::SlowlyConverging;
      out.period = t::halves_period(w, k, rules, scratch) ? k / 2 : k;
      return out;
    }
  }
  // Not periodic: an invariant circle or torus (quasi-periodic), or chaos, a transient, a longer period.
  out.period = 0;
  out.periodicity = !departing && t::quasi_periodic(w, rules, scratch) ? Periodicity::QuasiPeriodic : Periodicity::NotConverged;
  return out;
}

// The window's periods: one fewer than its samples (0 for none).
template <class Window>
VIBRO_HD int window_periods_of(const Window& w) {
  return w.size() == 0 ? 0 : w.size() - 1;
}

// Mean drift velocity over the window's largest whole number of orbit periods (all of it when period
// is 0 or longer than the window): a period-11 orbit averaged over 50 periods depends on the window's
// phase. NaN for fewer than 2 samples.
template <class Window>
VIBRO_HD double window_drift_velocity(const Window& w, int period, double period_seconds) {
  if (w.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  const int all = window_periods_of(w);
  const int periods = period > 0 && all >= period ? all / period * period : all;
  return (w.drift(w.size() - 1) - w.drift(w.size() - 1 - periods)) / (periods * period_seconds);
}

// Mean drift velocity over the window's first (half 0) or second half; NaN for fewer than 3 samples.
template <class Window>
VIBRO_HD double window_drift_velocity_half(const Window& w, double period_seconds, int half) {
  if (w.size() < 3) return std::numeric_limits<double>::quiet_NaN();
  const int n = window_periods_of(w);
  const int mid = n / 2;
  const int a = half == 0 ? 0 : mid;
  const int b = half == 0 ? mid : w.size() - 1;
  const int periods = half == 0 ? mid : n - mid;
  return (w.drift(b) - w.drift(a)) / (periods * period_seconds);
}

// Counter c over the window (last minus first sample); 0 for an empty window.
template <class Window>
VIBRO_HD std::int64_t window_counter_in_window(const Window& w, int c) {
  if (w.size() == 0) return 0;
  return w.counter(w.size() - 1, c) - w.counter(0, c);
}

// Counter c over the largest whole number of orbit periods in the window, per orbit period; -1 if the
// value is not an integer (a sign that the orbit is not truly periodic) or there is no whole orbit.
template <class Window>
VIBRO_HD double window_counter_per_orbit(const Window& w, int period, int c) {
  const int all = window_periods_of(w);
  if (period <= 0 || all < period) return -1;
  const int orbits = all / period;
  const std::int64_t total = w.counter(orbits * period, c) - w.counter(0, c);
  if (total % orbits != 0) return -1;
  return static_cast<double>(total / orbits);
}

}  // namespace vibro
