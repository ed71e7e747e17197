#pragma once
// Model-independent steady-state detection on the stroboscopic map.
//
// Fixed mode runs every case for max_periods and classifies the last window_periods samples.
// Adaptive mode ends a case as soon as its stroboscopic map has converged to a period-k orbit at a
// strict tolerance over a short window of whole orbit periods (the mean drift over any whole number
// of periods of a periodic orbit is the same); cases that do not converge run to the same budget as
// fixed mode and are classified the same way, so both modes give the same answers.
// Means mode is for motions that settle in the mean but not on the map (chaotic rattling around a
// slowly reached location): a case ends once the model's declared window
// means (StrobeLayout::settled_means) have changed by less than their tolerances over means_checks
// consecutive windows of means_window periods; it is averaged over its last window_periods (at least
// one window, at most the span found settled).
#include <cstdint>
#include <vector>

#include "analysis/periodicity.hpp"
#include "analysis/strobe_history.hpp"
#include "analysis/window_rules.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

enum class SteadyMode { Fixed, Adaptive, Means };  // the order of steady_mode_name's names
inline const char* steady_mode_name(SteadyMode m) {
  return m == SteadyMode::Fixed ? "fixed" : m == SteadyMode::Adaptive ? "adaptive" : "means";
}

struct SteadyStateSettings {
  SteadyMode mode = SteadyMode::Adaptive;
  int max_periods = 100;       // budget
  int window_periods = 50;     // averaging window when the case runs to its budget
  int max_period = 16;         // largest period k searched
  double tol = 1e-4;           // period test, in units of the layout's scales
  double adaptive_tol = 1e-6;  // stricter test that ends a case early
  // adaptive: shortest averaging window, periods (rounded up to whole orbits, at least 3 of them). 4, not
  // more: on the Fig. 6 study a 4-period window gives the same answers as 10 against a 1000-period
  // reference (894 of 901 regular velocities within 1e-6 m/s either way) with 13 % fewer impacts.
  int min_window = 4;
  int min_periods = 5;         // adaptive: never stop before this
  // adaptive: when the map approaches its fixed point linearly (consecutive differences follow one
  // linear map on the few directions they span: one real multiplier, a complex pair, several modes),
  // jump to the extrapolated limit (analysis/linear_transient) and keep simulating from there; the
  // answer still comes from a simulated window that passes the convergence test. At most max_jumps
  // per case; 0 disables.
  int max_jumps = 3;
  // Quasi-periodic test on a window that is neither period-k (k <= max_period) nor slowly converging:
  // the weighted Birkhoff averages over its two halves agree within quasi_tol of the orbit's extent
  // (analysis/weighted_birkhoff), and no longer period (up to half the window) fits at tol. Only on
  // windows of at least quasi_min_window periods (so not with the default window_periods = 50): on
  // shorter ones the average converges too little to tell a torus from chaos
  // (docs/analysis/quasi_periodic.md has the numbers).
  double quasi_tol = 1e-6;
  int quasi_min_window = 100;
  // means: window length, periods, and how many consecutive window-to-window changes must pass.
  int means_window = 100;
  int means_checks = 3;
  // means: also require that the trend of the checked windows (least-squares slope of their means),
  // carried on to the end of the budget, stays within the tolerance: a slow creep then runs on.
  bool means_to_budget = false;
};

struct SteadyState {
  Periodicity periodicity = Periodicity::NotConverged;
  int period = 0;                     // k; 0 when quasi-periodic or not converged
  bool stopped_early = false;         // adaptive or means stop before the budget
  std::vector<StrobeSample> window;   // the averaging window's samples, first to last
  int window_periods() const { return window.empty() ? 0 : static_cast<int>(window.size()) - 1; }
  // Mean drift velocity over the window, and over its two halves.
  double drift_velocity(double period_seconds) const;
  double drift_velocity_half(double period_seconds, int half) const;
  // Counter c over the window (last minus first sample).
  std::int64_t counter_in_window(int c) const;
  // Counter c over the largest whole number of orbit periods in the window, per orbit period;
  // -1 if the value is not an integer (a sign that the orbit is not truly periodic).
  double counter_per_orbit(int c) const;
};

// Distance between samples i and j of the same case: the largest scaled difference of any
// state component and of the drift increments over the following period.
double strobe_distance(const StrobeSample& a_first, const StrobeSample& a_next, const StrobeSample& b_first,
                       const StrobeSample& b_next, const StrobeLayout& layout);

// Period detection on a window of samples: the smallest k with all pairs (i, i+k) within
// tol, else a slowly converging k, else quasi-periodic (period 0) if the window passes the weighted
// Birkhoff test, else not converged. An even k whose samples k/2 apart close in on each other
// geometrically (analysis/collapsing_gap: a transient near a flip, multiplier close to -1) is a slow
// convergence to period k/2, not a period-k orbit. analysis/window_classification's
// classify_window_of over the window's samples: the one source the device's batches use too.
void classify_window(SteadyState& state, const StrobeLayout& layout, const SteadyStateSettings& settings);

// Periods at the start of a run whose samples a detector with these settings never reads: in fixed
// mode all before its window's first sample (it tests nothing, and its window is the newest
// window_periods + 1 samples); none in the other modes. A runner may step them without sampling them
// and tell the detector (SteadyStateDetector::skip): the result is the same.
int unread_leading_periods(const SteadyStateSettings& settings);

// The newest samples a detector with these settings holds at most (its history's capacity): in
// fixed mode its window's, so that a runner holding a whole run's samples reads the same window.
int held_history_samples(const SteadyStateSettings& settings);

class SteadyStateDetector : public StrobeObserver {
 public:
  // arena: where its history's memory comes from (null: the heap); see StrobeHistory.
  SteadyStateDetector(const StrobeLayout& layout, const SteadyStateSettings& settings, HistoryArena* arena = nullptr);
  bool on_sample(const StrobeSample& sample) override;
  // The run stepped `periods` periods without feeding their samples: counted as seen. Only the
  // leading periods unread_leading_periods allows, before any sample (std::logic_error otherwise).
  void skip(int periods);
  // After the simulation stopped: a state to restart from (an accelerated transient), if any.
  const StrobeSample* jump_target() const { return jump_pending_ ? &jump_target_ : nullptr; }
  // The simulation accepted (true) or refused the jump; either way the run goes on.
  void jump_done(bool accepted);
  // Classifies and returns the result; call once the simulation has stopped for good.
  SteadyState finish();
  int samples_seen() const { return samples_seen_; }
  int jumps() const { return jumps_; }
  // Samples held now: at most history_span(), whatever run.max_periods is.
  std::size_t stored_samples() const { return static_cast<std::size_t>(history_.size()); }
  // The newest samples this mode's tests and the averaging window can look at (the window; in
  // adaptive mode the longest adaptive window and the extrapolation's differences; in means mode
  // the means span), plus one.
  int history_span() const { return span_; }
  // Words its history's first allocation takes at least (for sizing a HistoryArena).
  std::size_t history_words() const { return history_.words_at_least(); }

 private:
  bool converged_adaptively();
  bool means_settled();
  bool extrapolation_jump();
  const StrobeLayout& layout_;
  SteadyStateSettings settings_;
  WindowRules rules_;  // the layout's and settings' numbers the window tests read
  int span_;
  // The newest span_ samples since the start or the last jump, packed: memory is O(span_), not
  // O(max_periods), and a few words a sample.
  StrobeHistory history_;
  std::size_t since_start_ = 0;  // samples pushed since the start or the last jump
  int samples_seen_ = 0;
  int early_window_ = 0;  // > 0 once the case stopped early (adaptive or means): its window, periods
  int jumps_ = 0;
  int refused_ = 0;
  int last_jump_rank_ = 0;  // dimension of the subspace the last jump extrapolated along
  bool jump_pending_ = false;
  StrobeSample jump_target_{};
};

}  // namespace vibro
