// Steady-state studies of Chapter IX (our protocol, robust items S4, S7, S8, S10, S11, S16,
// S17, S20, S21, S23): each case run from scratch like a sweep case (at most 400 s, statistics over
// the last 40 s, adaptive stop once a locked state has converged).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "analysis/steady_state.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "models/ball_balancer/ball_balancer_observables.hpp"
#include "tests/ball_balancer/ball_balancer_fixture.hpp"

using namespace bb_test;

namespace {
std::vector<double> steady(std::initializer_list<std::pair<std::string, double>> values) {
  const ParameterSet p = parameters(values);
  const Model& model = ModelRegistry::instance().get("ball_balancer");
  const double period = constants_from(p).period;
  SteadyStateSettings settings;
  settings.max_periods = static_cast<int>(std::lround(400 / period));
  settings.window_periods = static_cast<int>(std::lround(40 / period));
  const CaseResult result = run_case(model, p, settings, StrobePoints::None);
  REQUIRE(result.reason.empty());
  return result.observables;
}

// x_max/R at each ratio; returns the index of the smallest.
std::size_t minimum(const std::vector<double>& x) {
  return static_cast<std::size_t>(std::min_element(x.begin(), x.end()) - x.begin());
}
}  // namespace

TEST_CASE("S7/S8: one ball locks between 0.42 and 0.54 (1.5 omega_n, thesis 0.48) and 0.20 and 0.32 (2.0, thesis 0.26)",
          "[ball_balancer]") {
  const double spin[] = {1.5, 2.0}, below[] = {0.42, 0.20}, above[] = {0.54, 0.32};
  for (int k = 0; k < 2; ++k) {
    const auto drifting = steady({{"spin_ratio", spin[k]}, {"me_ratio", below[k]}});
    const auto locked = steady({{"spin_ratio", spin[k]}, {"me_ratio", above[k]}});
    INFO(spin[k] << " omega_n: mean relative speed " << drifting[kMeanRelativeSpeed] << " rad/s at " << below[k] << ", "
                 << locked[kMeanRelativeSpeed] << " at " << above[k] << "; x_max/R " << drifting[kXMax] << " -> "
                 << locked[kXMax]);
    CHECK(drifting[kMeanRelativeSpeed] < -0.03);  // the ball lags the rotor
    CHECK(drifting[kLocked] == 0);
    CHECK(std::fabs(locked[kMeanRelativeSpeed]) < 0.01);
    CHECK(locked[kXMax] < drifting[kXMax]);  // the critical transition lowers the motion
  }
}

TEST_CASE("S10/S11: one-ball saturation 1.12 / 0.0079 at 1.5 omega_n (+-0.10 / 10 %), 0.0032 at 2.0 (15 %)", "[ball_balancer]") {
  std::vector<double> x;
  const std::vector<double> ratios{1.02, 1.07, 1.12, 1.17, 1.22};
  for (const double r : ratios) x.push_back(steady({{"spin_ratio", 1.5}, {"me_ratio", r}})[kXMax]);
  const std::size_t best = minimum(x);
  INFO("1.5 omega_n: minimum x_max/R " << x[best] << " at ratio " << ratios[best]);
  CHECK(best > 0);
  CHECK(best < ratios.size() - 1);
  CHECK(std::fabs(x[best] / 0.0079 - 1) < 0.10);
  std::vector<double> x2;
  for (const double r : {0.9, 1.0, 1.1}) x2.push_back(steady({{"spin_ratio", 2.0}, {"me_ratio", r}})[kXMax]);
  const double low = *std::min_element(x2.begin(), x2.end());
  INFO("2.0 omega_n: minimum x_max/R " << low << " over ratios 0.9, 1.0, 1.1");
  CHECK(std::fabs(low / 0.0032 - 1) < 0.15);
}

TEST_CASE("S16/S17: two-ball saturation 2.20 / 0.0087 at 1.5 omega_n (+-0.15 / 10 %), 0.0035 at 2.0 (10 %)", "[ball_balancer]") {
  std::vector<double> x;
  const std::vector<double> ratios{2.05, 2.10, 2.15, 2.20, 2.25, 2.30, 2.35};
  for (const double r : ratios) x.push_back(steady({{"spin_ratio", 1.5}, {"n_balls", 2}, {"me_ratio", r}})[kXMax]);
  const std::size_t best = minimum(x);
  INFO("1.5 omega_n: minimum x_max/R " << x[best] << " at ratio " << ratios[best]);
  CHECK(best > 0);
  CHECK(best < ratios.size() - 1);
  CHECK(std::fabs(x[best] / 0.0087 - 1) < 0.10);
  std::vector<double> x2;
  for (const double r : {1.9, 2.0, 2.1}) x2.push_back(steady({{"spin_ratio", 2.0}, {"n_balls", 2}, {"me_ratio", r}})[kXMax]);
  const double low = *std::min_element(x2.begin(), x2.end());
  INFO("2.0 omega_n: minimum x_max/R " << low << " over ratios 1.9, 2.0, 2.1");
  CHECK(std::fabs(low / 0.0035 - 1) < 0.10);
}

TEST_CASE("S20: a locked ball (ratio 1) sits at psi in [2.59, 2.76] / [2.86, 2.95] / [3.03, 3.07] rad (+-0.1), moving to pi",
          "[ball_balancer]") {
  const double spin[] = {1.5, 2.0, 2.5}, low[] = {2.59, 2.86, 3.03}, high[] = {2.76, 2.95, 3.07};
  double previous = 0;
  for (int k = 0; k < 3; ++k) {
    const auto o = steady({{"spin_ratio", spin[k]}, {"me_ratio", 1}});
    INFO(spin[k] << " omega_n: psi in [" << o[kPsiLow] << ", " << o[kPsiHigh] << "]");
    CHECK(o[kLocked] == 1);
    CHECK(std::fabs(o[kPsiLow] - low[k]) <= 0.1);
    CHECK(std::fabs(o[kPsiHigh] - high[k]) <= 0.1);
    const double middle = 0.5 * (o[kPsiLow] + o[kPsiHigh]);
    CHECK(middle > previous);
    previous = middle;
  }
}

TEST_CASE("S21: two balls at 2.5 omega_n split by beta = 2 arccos(ratio / 2) (+-0.08 rad) at ratios 1.0, 1.5, 1.8, 1.9",
          "[ball_balancer]") {
  for (const double r : {1.0, 1.5, 1.8, 1.9}) {
    const auto o = steady({{"spin_ratio", 2.5}, {"n_balls", 2}, {"me_ratio", r}});
    INFO("ratio " << r << ": beta " << o[kBetaSplit] << " (range " << o[kBetaRange] << ")");
    CHECK(o[kLocked] == 1);
    CHECK(std::fabs(o[kBetaSplit] - 2 * std::acos(r / 2)) <= 0.08);
  }
}

TEST_CASE("S4: one ball (ratio 1) still drifts at 1.04 omega_n and is locked at 1.18 omega_n (thesis 1.11)", "[ball_balancer]") {
  const auto below = steady({{"spin_ratio", 1.04}, {"me_ratio", 1}});
  const auto above = steady({{"spin_ratio", 1.18}, {"me_ratio", 1}});
  INFO("x_max/R " << below[kXMax] << " at 1.04, " << above[kXMax] << " at 1.18; locked " << below[kLocked] << ", " << above[kLocked]);
  CHECK(below[kLocked] == 0);
  CHECK(above[kLocked] == 1);
}

TEST_CASE("S23: finite-radius balls (r/R = 0.167) move the rotor 0.0003 +- 0.0001 R more than point masses beyond saturation",
          "[ball_balancer]") {
  const double r_ball = 0.167 * 0.3048;
  const auto pm = steady({{"spin_ratio", 2.5}, {"n_balls", 2}, {"me_ratio", 3}, {"r_ball", r_ball}});
  const auto fr = steady({{"spin_ratio", 2.5}, {"n_balls", 2}, {"me_ratio", 3}, {"r_ball", r_ball}, {"balls", 1}});
  INFO("x_max/R PM " << pm[kXMax] << ", FR " << fr[kXMax] << ", FR beta " << fr[kBetaSplit]);
  CHECK(std::fabs(fr[kXMax] - pm[kXMax] - 0.0003) <= 0.0001);
  CHECK(fr[kBetaSplit] - 2 * std::asin(0.167) <= 0.05);  // S22: the FR pair touches
  CHECK(pm[kBetaSplit] <= 0.05);                          // S22: the PM pair coincides
}

TEST_CASE("S6: period-1 Poincare samples in zones 1 (0.2 omega_n) and 4 (1.5), none in zones 2 (0.5) and 3 (0.9)",
          "[ball_balancer]") {
  const Model& model = ModelRegistry::instance().get("ball_balancer");
  for (const double spin : {0.2, 0.5, 0.9, 1.5}) {
    const ParameterSet p = parameters({{"spin_ratio", spin}, {"me_ratio", 1}});
    SteadyStateSettings settings;
    settings.max_periods = static_cast<int>(std::lround(400 / constants_from(p).period));
    settings.window_periods = static_cast<int>(std::lround(40 / constants_from(p).period));
    const CaseResult result = run_case(model, p, settings, StrobePoints::None);
    INFO(spin << " omega_n: period " << result.period);
    CHECK(result.period == (spin < 0.34 || spin > 1.11 ? 1 : 0));
  }
}
