#include "models/ball_balancer/ball_balancer_observables.hpp"

#include <algorithm>
#include <cmath>

#include "models/ball_balancer/ball_balancer_simulation.hpp"

namespace vibro::ball_balancer {

namespace {
constexpr double kPi = 3.14159265358979323846;
double wrap_2pi(double a) {
  const double w = std::fmod(a, 2 * kPi);
  return w < 0 ? w + 2 * kPi : w;
}
}  // namespace

std::vector<ObservableSpec> ball_balancer_observables() {
  return {{"x_max", "R", "max |x - x_eq| / R over the window (horizontal rotor motion)"},
          {"y_max", "R", "max |y - y_eq| / R over the window (vertical rotor motion)"},
          {"psi_low", "rad", "lowest psi_1 = theta_1 - phi over the window, wrapped to [0, 2 pi)"},
          {"psi_high", "rad", "psi_low + the range of psi_1 over the window (>= psi_low + 2 pi when drifting)"},
          {"beta_split", "rad", "|theta_2 - theta_1| at the middle of its window range, wrapped to [0, pi]"},
          {"beta_range", "rad", "range of theta_2 - theta_1 over the window"},
          {"locked", "-", "1 when psi_1 (and beta) stay within 0.5 rad and psi_1 drifts less than 0.1 rad over the window"},
          {"mean_relative_speed", "rad/s", "mean theta_1' - phi' over the window (negative: the ball lags)"},
          {"impacts_per_rev", "1/rev", "ball-ball pair impacts per revolution in the window"},
          {"spin_rpm", "rpm", "spin speed"}};
}

CaseSummary summarize_window(const SteadyState& steady, const BallBalancerConstants& c) {
  CaseSummary summary;
  std::vector<double> o(kObservableCount, std::nan(""));
  o[kSpinRpm] = c.spin * 60 / (2 * kPi);
  const auto& w = steady.window;
  if (w.size() < 2) {
    summary.class_code = "X";
    summary.observables = o;
    return summary;
  }
  double x_max = 0, y_max = 0, psi_lo = 1e300, psi_hi = -1e300, beta_lo = 1e300, beta_hi = -1e300;
  for (std::size_t k = 1; k < w.size(); ++k) {  // aux of a sample covers the revolution before it
    x_max = std::max(x_max, w[k].aux[kMaxX]);
    y_max = std::max(y_max, w[k].aux[kMaxY]);
    psi_lo = std::min(psi_lo, w[k].aux[kMinPsi]);
    psi_hi = std::max(psi_hi, w[k].aux[kMaxPsi]);
    beta_lo = std::min(beta_lo, w[k].aux[kMinBeta]);
    beta_hi = std::max(beta_hi, w[k].aux[kMaxBeta]);
  }
  o[kXMax] = x_max / c.R;
  o[kYMax] = y_max / c.R;
  const double periods = static_cast<double>(w.size() - 1);
  o[kImpactsPerRevolution] = static_cast<double>(steady.counter_in_window(kImpacts)) / periods;
  if (c.n == 0) {
    summary.class_code = "no_balls";
    summary.observables = o;
    return summary;
  }
  o[kPsiLow] = wrap_2pi(psi_lo);
  o[kPsiHigh] = o[kPsiLow] + (psi_hi - psi_lo);
  const double drift = w.back().aux[kPsiAtSample] - w.front().aux[kPsiAtSample];
  bool locked = psi_hi - psi_lo < kLockedRange && std::fabs(drift) < kLockedDrift;
  if (c.n >= 2) {
    const double mid = wrap_2pi((beta_lo + beta_hi) / 2);
    o[kBetaSplit] = mid > kPi ? 2 * kPi - mid : mid;
    o[kBetaRange] = beta_hi - beta_lo;
    locked = locked && beta_hi - beta_lo < kLockedRange;
  }
  o[kLocked] = locked ? 1 : 0;
  o[kMeanRelativeSpeed] = drift / (w.back().time - w.front().time);
  summary.class_code = locked ? "locked" : "drifting";
  summary.observables = o;
  return summary;
}

std::vector<ClassCode> ball_balancer_class_legend() {
  return {{"locked", "every ball keeps its angle to the unbalance within 0.5 rad (and the ball pair's split too) "
                     "and drifts less than 0.1 rad over the window: the balancer has settled"},
          {"drifting", "a ball's angle to the unbalance wanders or drifts: the balls do not settle (e.g. they lag "
                       "the spin)"},
          {"no_balls", "a rotor without balls (n_balls = 0): the reference response"},
          {"X", "too short a steady window to read (fewer than two samples)"}};
}

}  // namespace vibro::ball_balancer
