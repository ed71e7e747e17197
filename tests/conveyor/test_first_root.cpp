// The first root is never missed, grazing and close roots included.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/plate_gap.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;

namespace {

// A part tangent to the plate at its top (theta_g = pi/2) at a_hat = 80: the flight starts at
// theta_a = pi/2 - 1 with gap h_a + delta and relative velocity u_a.
struct Tangency {
  ConveyorConstants c = ConveyorConstants::from(conveyor_values({{"a_hat", "80"}}));
  double theta_a = M_PI / 2 - 1;
  PlateGap gap(double delta) const {
    return {2.777337e-5 + delta, -1.332487e-2 / c.omega, c.G, c.A * std::sin(theta_a), c.A * std::cos(theta_a)};
  }
  RootResult first_root(double delta) const {
    return certified_first_root(gap(delta), 0.0, 20.0, RootBounds{c.A, c.G + c.A, c.A - c.G});
  }
};

}  // namespace

TEST_CASE("the construction is tangent: the printed state touches the plate at pi/2", "[conveyor][roots]") {
  const Tangency t;
  const PlateGap gap = t.gap(0);
  const Derivs at_top = gap(1.0);
  CHECK(std::fabs(at_top.g) < 1e-11);   // the printed digits of h_a and u_a limit this
  CHECK(std::fabs(at_top.g1) < 1e-9);
}

TEST_CASE("a gap that clears the tangency by delta > 0 lands later, at 4.0209362827 rad", "[conveyor][roots]") {
  const Tangency t;
  // The printed construction is exact to about 1e-11 m; clear that by a margin.
  for (const double delta : {1e-10, 1e-9}) {
    const RootResult root = t.first_root(delta);
    REQUIRE(root.outcome == RootOutcome::Root);
    const double theta = t.theta_a + root.y;
    CHECK(theta == Approx(4.0209362827).margin(2 * delta / 1.36072e-4 + 1e-6));
  }
}

TEST_CASE("a gap that dips below zero by |delta| is caught before the tangency", "[conveyor][roots]") {
  const Tangency t;
  // Find the exact tangency of the printed construction first, then dip below it by delta.
  const PlateGap gap0 = t.gap(0);
  double y_top = 1.0;  // Newton on h' for the local minimum near pi/2
  for (int i = 0; i < 50; ++i) y_top -= gap0(y_top).g1 / gap0(y_top).g2;
  const double h_min = gap0(y_top).g;
  const double curvature = gap0(y_top).g2;  // A - g/omega^2: the gap has a minimum at the top
  CHECK(curvature == Approx(6.913079e-5).epsilon(1e-3));
  for (const double delta : {1e-12, 1e-15, 1e-18}) {
    // Shift the start gap so that the minimum lies exactly delta below zero.
    const RootResult root = t.first_root(-h_min - delta);
    REQUIRE(root.outcome == RootOutcome::Root);
    const double expected = y_top - std::sqrt(2 * delta / curvature);
    CHECK(root.y == Approx(expected).margin(1e-3 * std::sqrt(2 * delta / curvature)));
    CHECK(root.y < y_top);  // the first of the two close roots
  }
}

TEST_CASE("the first of two roots 1.1e-7 rad apart is found, not the second or neither", "[conveyor][roots]") {
  const Tangency t;
  const PlateGap gap0 = t.gap(0);
  double y_top = 1.0;
  for (int i = 0; i < 50; ++i) y_top -= gap0(y_top).g1 / gap0(y_top).g2;
  // Two roots at y_top +- sqrt(2 delta / curvature) = +- 5.4e-8 rad; delta stays 30x above the
  // rounding of h (about 3e-21 m here), below which a dip cannot be told from a tangency.
  const double delta = 1e-19;
  const RootResult root = t.first_root(-gap0(y_top).g - delta);
  REQUIRE(root.outcome != RootOutcome::NoRoot);
  CHECK(root.y <= y_top + 1e-15);
  CHECK(root.y >= y_top - 6e-8);
  CHECK(root.y <= y_top - 4e-8);
}

TEST_CASE("an exact tangency is reported as grazing or as the later landing", "[conveyor][roots]") {
  const Tangency t;
  const PlateGap gap0 = t.gap(0);
  double y_top = 1.0;
  for (int i = 0; i < 50; ++i) y_top -= gap0(y_top).g1 / gap0(y_top).g2;
  const RootResult root = t.first_root(-gap0(y_top).g);
  if (root.outcome == RootOutcome::Grazing) CHECK(root.y == Approx(y_top).margin(1e-6));
  else CHECK(t.theta_a + root.y == Approx(4.0209362827).margin(1e-5));
}

TEST_CASE("random flights: the certified root is the first sign change of a dense scan", "[conveyor][roots]") {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> amplitude(30, 100), phase(0, 2 * M_PI), vel(-0.05, 0.15), height(0, 3e-4);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", std::to_string(amplitude(rng))}}));
    const double ta = phase(rng);
    const PlateGap gap{height(rng) + 1e-7, vel(rng) / c.omega, c.G, c.A * std::sin(ta), c.A * std::cos(ta)};
    const RootResult root = certified_first_root(gap, 0.0, 40.0, RootBounds{c.A, c.G + c.A, c.A - c.G});
    REQUIRE(root.outcome != RootOutcome::NoRoot);
    // Scan with a step far below any flight's features; the engine may only be earlier than
    // the scan's first sign change where the scan stepped over a genuine pair of roots.
    const double step = 1e-4;
    double first_change = -1;
    for (double y = step; y <= root.y + 2 * step; y += step)
      if (gap(y).g <= 0) { first_change = y; break; }
    REQUIRE(first_change > 0);
    CHECK(root.y <= first_change);
    if (root.y < first_change - step) {
      // Genuine: the gap really reaches zero there (a pair of roots inside one scan step).
      CHECK(gap(root.y).g <= 1e-18);
    }
    CHECK(gap(root.y).g == Approx(0).margin(1e-15));
    ++checked;
  }
  CHECK(checked == 300);
}
