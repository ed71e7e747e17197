#include "analysis/steady_state.hpp"

#include "analysis/linear_transient.hpp"
#include "analysis/strobe_sample_window.hpp"
#include "analysis/window_classification.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibro {

double SteadyState::drift_velocity(double period_seconds) const {
  return window_drift_velocity(window_of(window), period, period_seconds);
}

double SteadyState::drift_velocity_half(double period_seconds, int half) const {
  return window_drift_velocity_half(window_of(window), period_seconds, half);
}

std::int64_t SteadyState::counter_in_window(int c) const { return window_counter_in_window(window_of(window), c); }

double SteadyState::counter_per_orbit(int c) const { return window_counter_per_orbit(window_of(window), period, c); }

namespace {

// Samples a_first, a_next, b_first, b_next as a window of four.
struct FourSamples {
  const StrobeSample* s[4];
  int size() const { return 4; }
  double state(int i, int c) const { return s[i]->state[static_cast<std::size_t>(c)]; }
  double drift(int i) const { return s[i]->drift_position; }
};

}  // namespace

double strobe_distance(const StrobeSample& a_first, const StrobeSample& a_next, const StrobeSample& b_first,
                       const StrobeSample& b_next, const StrobeLayout& layout) {
  const FourSamples four{{&a_first, &a_next, &b_first, &b_next}};
  return window_distance(four, 0, 2, window_rules(layout, SteadyStateSettings{}));
}

void classify_window(SteadyState& state, const StrobeLayout& layout, const SteadyStateSettings& settings) {
  std::vector<double> scratch(state.window.size() + 1);
  const WindowClass c = classify_window_of(window_of(state.window), window_rules(layout, settings), scratch.data());
  state.periodicity = c.periodicity;
  state.period = c.period;
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
      rules_(window_rules(layout, settings)),
      span_(needed_history(settings)),
      history_(held_history_samples(settings), layout.dims(), static_cast<int>(layout.counter_names.size()),
               arena) {}

namespace {

// The detector's packed history read as a window of the window tests (analysis/window_distance).
struct HistoryWindow {
  const StrobeHistory& history;
  int size() const { return history.size(); }
  double state(int i, int c) const { return history.state(i)[c]; }
  double drift(int i) const { return history.drift(i); }
};

}  // namespace

bool SteadyStateDetector::converged_adaptively() {
  const int last = history_.size() - 1;
  // min_periods counts every period run, not those since a jump: the window itself must still be
  // simulated after the jump.
  if (samples_seen_ <= settings_.min_periods) return false;
  const HistoryWindow h{history_};
  if (last < 1) return false;
  // The newest period, in every pre-check.
  const double newest_drift_step = history_.drift(last) - history_.drift(last - 1);
  for (int k = 1; k <= settings_.max_period; ++k) {
    // Window of L whole orbit periods ending at the newest sample; all its pairs (i, i+k) must agree.
    const int L = k * std::max(3, (settings_.min_window + k - 1) / k);
    const int first = last - L;
    if (first < 0) break;
    // Cheap pre-check on the newest pair (last - k - 1, last - 1) before scanning the whole window
    // (it turns away ~99 % of the k tried on the conveyor's map).
    if (!window_within(h, last - k - 1, last - 1, newest_drift_step, rules_, settings_.adaptive_tol)) continue;
    const int pairs = L - k;
    const int third = std::max(1, pairs / 3);
    const double early = max_pair_distance(h, k, first, first + third - 1, rules_);
    const double late = max_pair_distance(h, k, last - k - third, last - k - 1, rules_);
    // Every pair within the tolerance: the thirds' maxima, then the middle, pair by pair.
    if (std::max(early, late) >= settings_.adaptive_tol ||
        !pairs_within(h, k, first + third, last - k - third - 1, rules_, settings_.adaptive_tol))
      continue;
    // Small differences are not enough: a slowly contracting orbit still drifts by about
    // late / (1 - rho) in total. Estimate the contraction rate rho per period between the window's
    // first and last thirds and require the remaining drift to be below the tolerance too.
    bool settled = late <= window_tests::kRoundOff;
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
