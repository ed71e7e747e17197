// The `means` steady-state test (Krack et al. 2017): a case ends at the first whole-window
// boundary where each declared window mean has changed by less than its tolerance over
// means_checks consecutive windows; a mean that keeps moving runs the case to its budget.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "analysis/steady_state.hpp"

using vibro::SettledMean;
using vibro::SteadyMode;
using vibro::SteadyState;
using vibro::SteadyStateDetector;
using vibro::SteadyStateSettings;
using vibro::StrobeLayout;
using vibro::StrobeSample;

namespace {

constexpr double kPeriod = 0.01;  // s

// One watched quantity whose value over period k (k = 1, 2, ...) is value(k); aux[0] is its running
// time integral, as a model keeps it.
struct Watched {
  std::function<double(int)> value;
  SettledMean mean{0, 0.0, false};
};

SteadyStateSettings means_settings(int max_periods) {
  SteadyStateSettings s;
  s.mode = SteadyMode::Means;
  s.max_periods = max_periods;
  s.window_periods = 150;
  s.means_window = 100;
  s.means_checks = 3;
  return s;
}

SteadyState run(const Watched& watched, const SteadyStateSettings& settings, int& periods_run) {
  StrobeLayout layout;
  layout.state_names = {"a"};
  layout.state_scales = {1.0};
  layout.period = kPeriod;
  layout.settled_means = {watched.mean};
  SteadyStateDetector detector(layout, settings);
  double integral = 0;
  for (int k = 1; k <= settings.max_periods; ++k) {
    integral += watched.value(k) * kPeriod;
    StrobeSample sample;
    sample.period = k;
    sample.time = k * kPeriod;
    sample.state[0] = watched.value(k);
    sample.aux[0] = integral;
    if (!detector.on_sample(sample)) break;
  }
  periods_run = detector.samples_seen();
  return detector.finish();
}

// Deterministic, bounded, irregular: a chaotic-looking signal of zero mean and amplitude 1.
double rattle(int k) { return std::sin(1.7 * k) * std::cos(0.31 * k * k); }

}  // namespace

TEST_CASE("means: a steady mean with rattling ends at the first possible window boundary") {
  Watched w{[](int k) { return 0.7 + 1e-3 * rattle(k); }, {0, 5e-4, false}};
  int periods = 0;
  const SteadyState s = run(w, means_settings(2000), periods);
  // (checks + 1) windows of 100 periods after the first sample (t = T), compared pairwise.
  CHECK(periods == 401);
  CHECK(s.stopped_early);
  CHECK(s.window_periods() == 150);  // window_periods, within [one window, the span found settled]
}

TEST_CASE("means: a mean drifting faster than the tolerance per window never settles") {
  // 2e-4 per period = 0.02 per 100-period window, against a tolerance of 0.01.
  Watched w{[](int k) { return 0.5 + 2e-4 * k + 1e-4 * rattle(k); }, {0, 0.01, false}};
  int periods = 0;
  const SteadyState s = run(w, means_settings(1500), periods);
  CHECK(periods == 1500);
  CHECK_FALSE(s.stopped_early);
  CHECK(s.window_periods() == 150);
  // Slower than the tolerance (0.005 per window) counts as settled: the test bounds the change per
  // window, not the drift itself.
  Watched slow{[](int k) { return 0.5 + 5e-5 * k; }, {0, 0.01, false}};
  CHECK(run(slow, means_settings(1500), periods).stopped_early);
  CHECK(periods == 401);
}

TEST_CASE("means: a decaying transient ends where the oldest checked change first passes") {
  // value(k) = rho^k: the mean over the window of periods s+1..s+W is rho^(s+1) (1 - rho^W) / (W (1 - rho)),
  // and consecutive window means differ by that times (1 - rho^W). Windows start at the first sample, so
  // the test runs after b = 4W + 1, 5W + 1, ... periods and passes when the oldest of the three
  // checked changes (windows starting at s = b - 4W and b - 3W) is within tol.
  const double rho = 0.995, tol = 1e-3;
  const int W = 100;
  auto window_mean = [&](int start) { return std::pow(rho, start + 1) * (1 - std::pow(rho, W)) / (W * (1 - rho)); };
  int expected = 4 * W + 1;
  while (window_mean(expected - 4 * W) - window_mean(expected - 3 * W) > tol) expected += W;
  REQUIRE(expected > 4 * W + 1);  // the transient matters

  Watched w{[&](int k) { return std::pow(rho, k); }, {0, tol, false}};
  int periods = 0;
  CHECK(run(w, means_settings(5000), periods).stopped_early);
  CHECK(periods == expected);
}

TEST_CASE("means: a relative tolerance does not depend on the quantity's unit") {
  // A 3 % wobble between windows (every other window high) fails a 2 % test, passes a 5 % one, at any scale.
  for (const double scale : {1e-6, 1.0, 1e6}) {
    auto wobble = [scale](int k) { return scale * (((k - 2) / 100) % 2 == 0 ? 1.0 : 1.03); };
    int periods = 0;
    CHECK_FALSE(run({wobble, {0, 0.02, true}}, means_settings(1000), periods).stopped_early);
    CHECK(run({wobble, {0, 0.05, true}}, means_settings(1000), periods).stopped_early);
    CHECK(periods == 401);
  }
}

TEST_CASE("means to budget: a creep within the per-window tolerance runs on until it cannot matter") {
  // 0.005 per 100-period window passes a 0.01 window test at once; carried over the windows left in a
  // 1500-period budget it would move 0.055, so the case runs on until at most 2 windows are left.
  Watched slow{[](int k) { return 0.5 + 5e-5 * k; }, {0, 0.01, false}};
  SteadyStateSettings settings = means_settings(1500);
  settings.means_to_budget = true;
  int periods = 0;
  CHECK(run(slow, settings, periods).stopped_early);
  CHECK(periods == 1301);  // (1500 - 1301) / 100 = 1.99 windows left: 0.00995 <= 0.01
  // A mean that does not trend still stops at the first possible boundary.
  Watched steady{[](int k) { return 0.7 + 1e-4 * rattle(k); }, {0, 5e-4, false}};
  CHECK(run(steady, settings, periods).stopped_early);
  CHECK(periods == 401);
}
