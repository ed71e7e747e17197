#include "analysis/steady_state.hpp"

#include "analysis/collapsing_gap.hpp"
#include "analysis/linear_transient.hpp"
#include "analysis/weighted_birkhoff.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vibro {

double SteadyState::drift_velocity(double period_seconds) const {
  if (window.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  // Over whole orbits only: a period-11 orbit averaged over 50 periods depends on the window's phase.
  const int periods = period > 0 && window_periods() >= period ? window_periods() / period * period : window_periods();
  const auto& first = window[window.size() - 1 - static_cast<std::size_t>(periods)];
  return (window.back().drift_position - first.drift_position) / (periods * period_seconds);
}

double SteadyState::drift_velocity_half(double period_seconds, int half) const {
  if (window.size() < 3) return std::numeric_limits<double>::quiet_NaN();
  const int n = window_periods();
  const int mid = n / 2;
  const auto& a = half == 0 ? window.front() : window[static_cast<std::size_t>(mid)];
  const auto& b = half == 0 ? window[static_cast<std::size_t>(mid)] : window.back();
  const int periods = half == 0 ? mid : n - mid;
  return (b.drift_position - a.drift_position) / (periods * period_seconds);
}

std::int64_t SteadyState::counter_in_window(int c) const {
  if (window.empty()) return 0;
  return window.back().counters[static_cast<std::size_t>(c)] - window.front().counters[static_cast<std::size_t>(c)];
}

double SteadyState::counter_per_orbit(int c) const {
  if (period <= 0 || window_periods() < period) return -1;
  const int orbits = window_periods() / period;
  const auto& first = window.front();
  const auto& last = window[static_cast<std::size_t>(orbits * period)];
  const auto total = last.counters[static_cast<std::size_t>(c)] - first.counters[static_cast<std::size_t>(c)];
  if (total % orbits != 0) return -1;
  return static_cast<double>(total / orbits);
}

namespace {

// What strobe_distance compares of a sample, from a whole sample or from the detector's packed
// history: one distance function for both, so both give the same bits.
const double* state_of(const StrobeSample& s) { return s.state.data(); }
double drift_of(const StrobeSample& s) { return s.drift_position; }
const double* state_of(StrobeHistory::View v) { return v.state(); }
double drift_of(StrobeHistory::View v) { return v.drift(); }

template <class Sample>
double distance(const Sample& a_first, const Sample& a_next, const Sample& b_first, const Sample& b_next,
                const StrobeLayout& layout) {
  double d = 0;
  for (int c = 0; c < layout.dims(); ++c) {
    const auto i = static_cast<std::size_t>(c);
    d = std::max(d, std::fabs(state_of(a_first)[i] - state_of(b_first)[i]) / layout.state_scales[i]);
  }
  const double da = drift_of(a_next) - drift_of(a_first);
  const double db = drift_of(b_next) - drift_of(b_first);
  d = std::max(d, std::fabs(da - db) / (layout.drift_scale * layout.period));
  return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
}

// Whether distance(a_first, a_next, b_first, b_next) < tol, decided at the first component that
// settles it: the same decision as comparing the whole distance (a maximum of 0 and the terms, NaN
// terms dropped, is >= tol exactly when 0 >= tol or some term is), with the same terms' bits.
// b_drift_step: drift_of(b_next) - drift_of(b_first), which a caller comparing many pairs against
// the same pair b computes once.
template <class Sample>
bool within(const Sample& a_first, const Sample& a_next, const Sample& b_first, double b_drift_step,
            const StrobeLayout& layout, double tol) {
  if (!(0 < tol)) return false;
  for (int c = 0; c < layout.dims(); ++c) {
    const auto i = static_cast<std::size_t>(c);
    if (std::fabs(state_of(a_first)[i] - state_of(b_first)[i]) / layout.state_scales[i] >= tol) return false;
  }
  const double da = drift_of(a_next) - drift_of(a_first);
  return !(std::fabs(da - b_drift_step) / (layout.drift_scale * layout.period) >= tol);
}

}  // namespace

double strobe_distance(const StrobeSample& a_first, const StrobeSample& a_next, const StrobeSample& b_first,
                       const StrobeSample& b_next, const StrobeLayout& layout) {
  return distance(a_first, a_next, b_first, b_next, layout);
}

namespace {

// Differences at this level (in the layout's scales) are round-off: the orbit is periodic.
constexpr double kRoundOff = 1e-11;

// Largest distance over the pairs (i, i+k), i in [first, last], of samples at(i) (needs at(i+k+1)).
template <class At>
double max_pair_distance(At at, int k, int first, int last, const StrobeLayout& layout) {
  double worst = 0;
  for (int i = first; i <= last; ++i) worst = std::max(worst, distance(at(i), at(i + 1), at(i + k), at(i + k + 1), layout));
  return worst;
}

// Whether every pair (i, i+k), i in [first, last], is within tol: max_pair_distance(...) < tol,
// stopping at the first pair that is not.
template <class At>
bool pairs_within(At at, int k, int first, int last, const StrobeLayout& layout, double tol) {
  for (int i = first; i <= last; ++i) {
    const auto b_first = at(i + k);
    if (!within(at(i), at(i + 1), b_first, drift_of(at(i + k + 1)) - drift_of(b_first), layout, tol)) return false;
  }
  return true;
}

// Sample i of a window, or of a history.
auto in_window(const std::vector<StrobeSample>& s) {
  return [&s](int i) -> const StrobeSample& { return s[static_cast<std::size_t>(i)]; };
}
auto in_history(const StrobeHistory& h) {
  return [&h](int i) { return h.view(i); };
}

// Every pair (i, i+k) of the window within tol, over at least max(3, k + 1) pairs (each point of a
// period-k orbit compared at least once).
bool period_fits(const std::vector<StrobeSample>& s, int k, const StrobeLayout& layout, double tol) {
  // Pairs (i, i+k) need sample i+k+1 for the drift increment: i + k + 1 <= n - 1.
  const int pairs = static_cast<int>(s.size()) - k - 1;
  if (pairs < std::max(3, k + 1)) return false;
  for (int i = 0; i < pairs; ++i) {
    const auto a = static_cast<std::size_t>(i);
    const auto b = static_cast<std::size_t>(i + k);
    if (!within(s[a], s[a + 1], s[b], s[b + 1].drift_position - s[b].drift_position, layout, tol)) return false;
  }
  return true;
}

// Quasi-periodic: the weighted Birkhoff averages converge (analysis/weighted_birkhoff), and no period
// above max_period fits either. A locked orbit of a long period (on an invariant circle past a
// Neimark-Sacker point, say) passes the Birkhoff test too; it is not a torus.
bool quasi_periodic(const std::vector<StrobeSample>& s, const StrobeLayout& layout, const SteadyStateSettings& settings) {
  const int n = static_cast<int>(s.size());
  if (n - 1 < settings.quasi_min_window || !(birkhoff_discrepancy(s, layout) < settings.quasi_tol)) return false;
  for (int k = settings.max_period + 1; k <= (n - 2) / 2; ++k)
    if (period_fits(s, k, layout, settings.tol)) return false;
  return true;
}

// Distances between samples i and i + h of a window, oldest first.
std::vector<double> gaps(const std::vector<StrobeSample>& s, int h, const StrobeLayout& layout) {
  std::vector<double> gap;
  for (int i = 0; i + h + 1 < static_cast<int>(s.size()); ++i) {
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(i + h);
    gap.push_back(distance(s[a], s[a + 1], s[b], s[b + 1], layout));
  }
  return gap;
}

// A window that fits period k but still contracts towards its orbit so slowly that, carried on at its
// rate, it would move by more than 10 tol (the distance attractor labels match settled orbits at):
// samples k apart differ by d and shrink by rho every k periods, so d rho / (1 - rho) remain.
// `gap`: gaps(window, k).
bool far_from_limit(const std::vector<double>& gap, int k, const SteadyStateSettings& settings) {
  const std::size_t third = gap.size() / 3 / static_cast<std::size_t>(k) * static_cast<std::size_t>(k);  // whole orbits
  if (third < 3) return false;
  const auto mean = [&](std::size_t first) {
    double sum = 0;
    for (std::size_t i = first; i < first + third; ++i) sum += gap[i];
    return sum / static_cast<double>(third);
  };
  const double early = mean(gap.size() - 3 * third), late = mean(gap.size() - third);
  if (!(late < early) || late <= kRoundOff) return false;
  const double rho = std::pow(late / early, static_cast<double>(k) / (2.0 * static_cast<double>(third)));
  return late * rho / (1 - rho) > 10 * settings.tol;
}

// A window that fits period k = 2h but is a transient on its way to a period-h orbit with a
// multiplier near -1 (analysis/collapsing_gap): the gap between samples h apart shrinks to 0.
bool halves_period(const std::vector<StrobeSample>& s, int k, const StrobeLayout& layout) {
  return k % 2 == 0 && collapsing_gap(gaps(s, k / 2, layout), k / 2).collapsing;
}

}  // namespace

// A k whose samples k apart drift further apart over the window (a slow departure from an unstable
// orbit) is no steady state: not converged (analysis/collapsing_gap's growing_gap).
void classify_window(SteadyState& state, const StrobeLayout& layout, const SteadyStateSettings& settings) {
  const auto& s = state.window;
  const int n = static_cast<int>(s.size());
  bool departing = false;
  for (int k = 1; k <= settings.max_period; ++k) {
    if (period_fits(s, k, layout, settings.tol)) {
      // Samples a period apart that drift further apart: a slow departure from an unstable orbit.
      const std::vector<double> gap = gaps(s, k, layout);  // read by both tests below
      departing = growing_gap(gap, k);
      if (departing) break;
      // the doubled orbit only when its two halves stay apart; else a slow approach to period k / 2
      const bool halved = halves_period(s, k, layout);
      state.periodicity = halved || far_from_limit(gap, k, settings) ? Periodicity::SlowlyConverging : Periodicity::Periodic;
      state.period = halved ? k / 2 : k;
      return;
    }
  }
  for (int k = 1; k <= settings.max_period && !departing; ++k) {
    const int pairs = n - k - 1;
    if (pairs < 3 * k + 6) break;
    const int third = pairs / 3;
    const double early = max_pair_distance(in_window(s), k, 0, third - 1, layout);
    const double late = max_pair_distance(in_window(s), k, pairs - third, pairs - 1, layout);
    if (late < 1e-2 && late < 0.5 * early) {
      state.periodicity = Periodicity::SlowlyConverging;
      state.period = halves_period(s, k, layout) ? k / 2 : k;
      return;
    }
  }
  // Not periodic: an invariant circle or torus (quasi-periodic), or chaos, a transient, a longer period.
  state.period = 0;
  state.periodicity =
      !departing && quasi_periodic(s, layout, settings) ? Periodicity::QuasiPeriodic : Periodicity::NotConverged;
}

namespace {

// See SteadyStateDetector::history_span. Fixed mode reads nothing but its window (at the end).
int needed_history(const SteadyStateSettings& s) {
  int longest = s.window_periods;
  if (s.mode == SteadyMode::Adaptive) {
    const int longest_adaptive = std::max(3 * s.max_period, s.min_window + s.max_period);
    const int extrapolation = kMaxExtrapolationColumns + 2;  // differences + 2 samples (extrapolation_jump)
    longest = std::max({longest, longest_adaptive, extrapolation});
  }
  if (s.mode == SteadyMode::Means) longest = std::max(longest, (s.means_checks + 1) * s.means_window);
  return longest + 1;
}

}  // namespace

int held_history_samples(const SteadyStateSettings& settings) {
  return std::min(settings.max_periods, needed_history(settings));
}

int unread_leading_periods(const SteadyStateSettings& settings) {
  return settings.mode == SteadyMode::Fixed ? std::max(0, settings.max_periods - needed_history(settings)) : 0;
}

SteadyStateDetector::SteadyStateDetector(const StrobeLayout& layout, const SteadyStateSettings& settings,
                                         HistoryArena* arena)
    : layout_(layout),
      settings_(settings),
      span_(needed_history(settings)),
      history_(held_history_samples(settings), layout.dims(), static_cast<int>(layout.counter_names.size()),
               arena) {}

bool SteadyStateDetector::converged_adaptively() {
  const int last = history_.size() - 1;
  // min_periods counts every period run, not those since a jump: the window itself must still be
  // simulated after the jump.
  if (samples_seen_ <= settings_.min_periods) return false;
  const auto h = in_history(history_);
  if (last < 1) return false;
  // The newest period, in every pre-check.
  const StrobeHistory::View before_newest = h(last - 1);
  const double newest_drift_step = h(last).drift() - before_newest.drift();
  for (int k = 1; k <= settings_.max_period; ++k) {
    // Window of L whole orbit periods ending at the newest sample; all its pairs (i, i+k) must agree.
    const int L = k * std::max(3, (settings_.min_window + k - 1) / k);
    const int first = last - L;
    if (first < 0) break;
    // Cheap pre-check on the newest pair (last - k - 1, last - 1) before scanning the whole window
    // (it turns away ~99 % of the k tried on the conveyor's map).
    if (!within(h(last - k - 1), h(last - k), before_newest, newest_drift_step, layout_, settings_.adaptive_tol)) continue;
    const int pairs = L - k;
    const int third = std::max(1, pairs / 3);
    const double early = max_pair_distance(h, k, first, first + third - 1, layout_);
    const double late = max_pair_distance(h, k, last - k - third, last - k - 1, layout_);
    // Every pair within the tolerance: the thirds' maxima, then the middle, pair by pair.
    if (std::max(early, late) >= settings_.adaptive_tol ||
        !pairs_within(h, k, first + third, last - k - third - 1, layout_, settings_.adaptive_tol))
      continue;
    // Small differences are not enough: a slowly contracting orbit still drifts by about
    // late / (1 - rho) in total. Estimate the contraction rate rho per period between the window's
    // first and last thirds and require the remaining drift to be below the tolerance too.
    bool settled = late <= kRoundOff;
    if (!settled && late < early) {
      const double rho = std::pow(late / early, 1.0 / (pairs - third));
      settled = late / (1.0 - rho) < settings_.adaptive_tol;
    }
    if (settled) {
      early_window_ = L;
      return true;
    }
  }
  return false;
}

bool SteadyStateDetector::means_settled() {
  const int W = settings_.means_window, checks = settings_.means_checks;
  const int span = (checks + 1) * W;
  const int last = history_.size() - 1;
  // Consecutive whole windows (the beam slider's paper judges its steady state over whole windows), not sliding ones, counted from the first
  // sample (t = T): a window's mean needs the integral at its start.
  const std::size_t since_start = since_start_ - 1;  // the newest sample's index since the start
  if (samples_seen_ <= settings_.min_periods || since_start % static_cast<std::size_t>(W) != 0 ||
      since_start < static_cast<std::size_t>(span))
    return false;
  auto mean = [&](const SettledMean& m, int first) {
    return (history_.aux(first + W, m.aux) - history_.aux(first, m.aux)) / (history_.time(first + W) - history_.time(first));
  };
  // A change is within tolerance: absolute, or relative to the mean it is measured from.
  auto within = [](const SettledMean& m, double change, double reference) {
    return std::abs(change) <= (m.relative ? m.tol * std::abs(reference) : m.tol);
  };
  const double windows_left = static_cast<double>(settings_.max_periods - samples_seen_) / W;
  for (const SettledMean& m : layout_.settled_means) {
    for (int j = 0; j < checks; ++j) {
      const int later = last - (j + 1) * W;
      const double before = mean(m, later - W);
      if (!within(m, mean(m, later) - before, before)) return false;
    }
    if (settings_.means_to_budget) {
      // Least-squares slope per window over the checks + 1 windows, oldest k = 0.
      const double centre = 0.5 * checks;
      double num = 0, den = 0;
      for (int k = 0; k <= checks; ++k) {
        num += (k - centre) * mean(m, last - span + k * W);
        den += (k - centre) * (k - centre);
      }
      if (!within(m, num / den * windows_left, mean(m, last - W))) return false;
    }
  }
  early_window_ = std::clamp(settings_.window_periods, W, span);
  return true;
}

bool SteadyStateDetector::extrapolation_jump() {
  // The first jump fits its linear model on 6 consecutive differences; a follow-up jump corrects the
  // first one's extrapolation error along the same contraction, which rank + 2 differences confirm
  // (for one real multiplier the next jump then comes 5 periods after a jump, not 8).
  const int differences = jumps_ == 0 ? 6 : std::max(3, last_jump_rank_ + 2);
  const int n = history_.size();
  if (jumps_ + refused_ >= settings_.max_jumps || n < differences + 2) return false;
  const int newest_mode = history_.mode(n - 1);
  for (int j = n - differences - 2; j < n; ++j)
    if (history_.mode(j) != newest_mode) return false;
  // Scaled difference vectors delta_j = S_j - S_{j-1} of the state and of the drift increment.
  const int dims = layout_.dims();
  if (dims + 1 > kMaxExtrapolationRows) return false;
  DifferenceMatrix delta(dims + 1, differences);
  const auto fill_column = [&](int col) {
    const int j = n - differences + col;
    const double* a = history_.state(j - 1);
    const double* b = history_.state(j);
    for (int c = 0; c < dims; ++c) {
      const auto i = static_cast<std::size_t>(c);
      delta(c, col) = (b[i] - a[i]) / layout_.state_scales[i];
    }
    const double z_drift = history_.drift(j - 2), a_drift = history_.drift(j - 1), b_drift = history_.drift(j);
    delta(dims, col) = ((b_drift - a_drift) - (a_drift - z_drift)) / (layout_.drift_scale * layout_.period);
  };
  // Only a shrinking, still-visible transient is worth a fit (a chaotic sequence fails this half the
  // time, at the cost of two norms): the oldest and newest differences first, the rest only for a fit
  // (on the conveyor's map 43 % of the calls stop here).
  fill_column(0);
  fill_column(differences - 1);
  const double last = delta.col(differences - 1).norm();
  if (!(last < delta.col(0).norm()) || last < settings_.adaptive_tol) return false;
  for (int col = 1; col < differences - 1; ++col) fill_column(col);
  const LinearTransient fit = fit_linear_transient(delta, 0.02);
  // Slow convergence only: a fast one ends by itself in a few periods.
  if (!fit.fits || !(fit.spectral_radius > 0.5 && fit.spectral_radius < 0.995)) return false;
  if (fit.remaining.norm() > 1.0) return false;  // too far to trust the linear model
  jump_target_ = history_.sample(n - 1);
  for (int c = 0; c < dims; ++c) {
    const auto i = static_cast<std::size_t>(c);
    jump_target_.state[i] += fit.remaining(c) * layout_.state_scales[i];
  }
  last_jump_rank_ = fit.degree;
  return true;
}

void SteadyStateDetector::jump_done(bool accepted) {
  jump_pending_ = false;
  if (!accepted) {
    ++refused_;
    return;
  }
  ++jumps_;
  history_.clear();  // earlier samples belong to the transient that the jump skipped
  since_start_ = 0;
}

void SteadyStateDetector::skip(int periods) {
  if (periods < 0 || history_.size() > 0 || samples_seen_ + periods > unread_leading_periods(settings_))
    throw std::logic_error("SteadyStateDetector::skip: these periods' samples would be read");
  since_start_ += static_cast<std::size_t>(periods);
  samples_seen_ += periods;
}

bool SteadyStateDetector::on_sample(const StrobeSample& sample) {
  history_.push(sample);
  ++since_start_;
  ++samples_seen_;  // samples at t = T, 2T, ...
  if (samples_seen_ >= settings_.max_periods) return false;
  if (settings_.mode == SteadyMode::Means) return !means_settled();
  if (settings_.mode != SteadyMode::Adaptive) return true;
  if (converged_adaptively()) return false;
  if (extrapolation_jump()) {
    jump_pending_ = true;
    return false;
  }
  return true;
}

SteadyState SteadyStateDetector::finish() {
  SteadyState state;
  const int n = history_.size();
  const int length = early_window_ > 0 ? early_window_ : std::min(settings_.window_periods, n - 1);
  state.stopped_early = early_window_ > 0;
  if (length > 0) history_.samples(n - 1 - length, length + 1, state.window);
  classify_window(state, layout_, settings_);
  return state;
}

}  // namespace vibro
