// The detector's quasi-periodic class (weighted Birkhoff test, analysis/weighted_birkhoff) on
// synthetic stroboscopic sequences: invariant circles are QuasiPeriodic, chaos is not, and the
// periodic and slowly converging classes keep precedence.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/steady_state.hpp"
#include "analysis/weighted_birkhoff.hpp"
#include "support/synthetic_strobe.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

constexpr double kPi = 3.14159265358979323846;
const double kGolden = (std::sqrt(5.0) - 1) / 2;

// A window long enough for the test (at least quasi_min_window = 100 periods).
SteadyStateSettings long_window(SteadyMode mode) {
  SteadyStateSettings s;
  s.mode = mode;
  s.max_periods = 500;
  s.window_periods = 400;
  return s;
}

// Rigid rotation by rho turns on the unit circle; the drift increment is a smooth function of the angle.
Synthetic rotation(double rho) {
  return Synthetic{[rho](int k) {
    const double theta = 2 * kPi * (0.3 + rho * k);
    return std::array<double, 4>{std::cos(theta), std::sin(theta), 0.01 + 0.002 * std::cos(theta), 1};
  }};
}

// The same rotation seen through a smooth non-circular embedding (an invariant curve as a
// Neimark-Sacker bifurcation leaves it: harmonics, a phase distortion, unequal axes).
Synthetic distorted_curve(double rho) {
  return Synthetic{[rho](int k) {
    const double theta = 2 * kPi * (0.1 + rho * k);
    const double r = 1 + 0.3 * std::cos(theta) + 0.1 * std::sin(2 * theta);
    return std::array<double, 4>{r * std::cos(theta + 0.2 * std::sin(theta)), 0.5 * r * std::sin(theta),
                                 0.01 + 0.003 * std::sin(theta) * std::sin(theta), 1};
  }};
}

// A precomputed orbit of a two-dimensional map, k = 1, 2, ...
Synthetic orbit(std::vector<std::array<double, 2>> points) {
  return Synthetic{[points](int k) {
    const auto& p = points[static_cast<std::size_t>(k - 1)];
    return std::array<double, 4>{p[0], p[1], 0.01, 1};
  }};
}

// Logistic map x -> 4 x (1 - x) from x0 = 0.3, as the pairs (x_k, x_{k+1}).
Synthetic logistic(int n) {
  std::vector<std::array<double, 2>> points;
  double x = 0.3;
  for (int k = 0; k < n; ++k) {
    const double next = 4 * x * (1 - x);
    points.push_back({x, next});
    x = next;
  }
  return orbit(points);
}

// Henon map (a = 1.4, b = 0.3) from (0.1, 0.1), after 1000 steps on to the attractor.
Synthetic henon(int n) {
  std::vector<std::array<double, 2>> points;
  double x = 0.1, y = 0.1;
  for (int k = 0; k < 1000 + n; ++k) {
    const double next = 1 - 1.4 * x * x + y;
    y = 0.3 * x;
    x = next;
    if (k >= 1000) points.push_back({x, y});
  }
  return orbit(points);
}

double discrepancy(const Synthetic& sequence, int first, int last) {
  const auto all = sequence.samples(last);
  return birkhoff_discrepancy({all.begin() + (first - 1), all.end()}, unit_layout());
}

}  // namespace

TEST_CASE("weighted Birkhoff average: exact for a constant, 1e-12 for a golden rotation over 200 points",
          "[analysis]") {
  CHECK(weighted_birkhoff_average(std::vector<double>(37, 2.5)) == Approx(2.5).epsilon(1e-15));
  std::vector<double> c;
  for (int k = 0; k < 200; ++k) c.push_back(std::cos(2 * kPi * kGolden * k));
  // The mean of cos over the circle is 0: super-polynomial convergence reaches it to round-off here,
  // where the plain average is off by O(1/N) (about 1e-3).
  CHECK(std::fabs(weighted_birkhoff_average(c)) < 1e-12);
  double plain = 0;
  for (const double v : c) plain += v / 200;
  CHECK(std::fabs(plain) > 1e-4);
}

TEST_CASE("an irrational rotation and a distorted invariant curve are quasi-periodic over a 400-period window",
          "[analysis]") {
  for (const auto mode : {SteadyMode::Fixed, SteadyMode::Adaptive}) {
    for (const double rho : {kGolden, std::sqrt(2.0) - 1}) {
      auto s = detect(rotation(rho), long_window(mode));
      CHECK(s.periodicity == Periodicity::QuasiPeriodic);
      CHECK(s.period == 0);
      CHECK(s.window_periods() == 400);
      s = detect(distorted_curve(rho), long_window(mode));
      CHECK(s.periodicity == Periodicity::QuasiPeriodic);
    }
  }
  // The halves' averages agree far below the 1e-6 threshold.
  CHECK(discrepancy(rotation(kGolden), 100, 500) < 1e-10);
  CHECK(discrepancy(distorted_curve(kGolden), 100, 500) < 1e-8);
}

TEST_CASE("chaos (logistic r = 4, Henon) is not quasi-periodic: discrepancy above 1e-5", "[analysis]") {
  for (const auto mode : {SteadyMode::Fixed, SteadyMode::Adaptive}) {
    auto s = detect(logistic(500), long_window(mode));
    CHECK(s.periodicity == Periodicity::NotConverged);
    s = detect(henon(500), long_window(mode));
    CHECK(s.periodicity == Periodicity::NotConverged);
  }
  CHECK(discrepancy(logistic(500), 100, 500) > 1e-5);
  CHECK(discrepancy(henon(500), 100, 500) > 1e-5);
}

TEST_CASE("periodic and slowly converging windows keep their class over a 400-period window", "[analysis]") {
  const Synthetic three{[](int k) { return std::array<double, 4>{0.1 * (k % 3), 0.0, 0.02, k % 3 == 0 ? 0.0 : 1.0}; }};
  auto s = detect(three, long_window(SteadyMode::Fixed));
  CHECK(s.periodicity == Periodicity::Periodic);
  CHECK(s.period == 3);

  // Period-k differences fall from about 2e-3 to 1e-4 over the window: slowly converging.
  const Synthetic slow{[](int k) { return std::array<double, 4>{0.5 + 0.5 * std::pow(0.99, k), 0.0, 0.01, 1}; }};
  s = detect(slow, long_window(SteadyMode::Fixed));
  CHECK(s.periodicity == Periodicity::SlowlyConverging);
  CHECK(s.period == 1);

  // Too slow even for that (the differences shrink by 0.999 per period): a monotone transient, whose
  // halves' averages differ by a good part of its extent, is not converged, not quasi-periodic.
  const Synthetic creeping{[](int k) { return std::array<double, 4>{0.5 + 0.5 * std::pow(0.999, k), 0.0, 0.01, 1}; }};
  s = detect(creeping, long_window(SteadyMode::Fixed));
  CHECK(s.periodicity == Periodicity::NotConverged);
  CHECK(discrepancy(creeping, 100, 500) > 0.1);
}

TEST_CASE("a period-21 orbit on a circle is not quasi-periodic, though its Birkhoff averages converge", "[analysis]") {
  // Rotation by 8/21: periodic with a period above max_period = 16, as the locked orbits on an
  // invariant circle that the gap oscillator shows below its grazing point.
  const Synthetic locked = rotation(8.0 / 21.0);
  CHECK(discrepancy(locked, 100, 500) < 1e-6);
  const auto s = detect(locked, long_window(SteadyMode::Fixed));
  CHECK(s.periodicity == Periodicity::NotConverged);
  SteadyStateSettings wide = long_window(SteadyMode::Fixed);
  wide.max_period = 21;
  CHECK(detect(locked, wide).period == 21);
}

TEST_CASE("the quasi-periodic test needs a window of 100 periods: not run on the default 50", "[analysis]") {
  const auto s = detect(rotation(kGolden), fixed_mode());
  CHECK(s.window_periods() == 50);
  CHECK(s.periodicity == Periodicity::NotConverged);
}
