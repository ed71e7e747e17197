// Kinematics, the relative-form gap, the exact parabola.
#include <quadmath.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/plate_gap.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;

TEST_CASE("kinematics match the reference table at a_hat = 49 and 50", "[conveyor]") {
  const auto c49 = ConveyorConstants::from(conveyor_values({{"a_hat", "49"}}));
  CHECK(c49.A == Approx(1.032227e-4).epsilon(1e-6));
  CHECK(c49.B == Approx(4.856247e-4).epsilon(1e-6));
  CHECK(c49.Gamma == Approx(1.038499).epsilon(1e-6));
  CHECK(c49.theta_L * 180 / M_PI == Approx(74.3502).epsilon(1e-6));
  const auto c50 = ConveyorConstants::from(conveyor_values({{"a_hat", "50"}}));
  CHECK(c50.omega == Approx(314.159265).epsilon(2e-9));
  CHECK(c50.A == Approx(1.053293e-4).epsilon(1e-6));
  CHECK(c50.B == Approx(4.955354e-4).epsilon(1e-6));
  CHECK(c50.Gamma == Approx(1.059693).epsilon(1e-6));
  CHECK(c50.theta_L * 180 / M_PI == Approx(70.6773).epsilon(1e-6));
  CHECK(c50.sigma_plus == Approx(0.02916).epsilon(2e-4));
  CHECK(c50.sigma_minus == Approx(0.03108).epsilon(2e-4));
  const auto c30 = ConveyorConstants::from(conveyor_values({{"a_hat", "30"}}));
  CHECK_FALSE(c30.lifts_off);
}

TEST_CASE("the mass cancels out of every law", "[conveyor]") {
  const auto light = simulate(conveyor_values({{"a_hat", "55"}, {"z0", "0.001"}, {"m", "0.7e-3"}}), 20);
  const auto heavy = simulate(conveyor_values({{"a_hat", "55"}, {"z0", "0.001"}, {"m", "1"}}), 20);
  REQUIRE(light.samples.size() == heavy.samples.size());
  for (std::size_t i = 0; i < light.samples.size(); ++i) {
    CHECK(light.samples[i].drift_position == heavy.samples[i].drift_position);
    CHECK(light.samples[i].state == heavy.samples[i].state);
  }
}

namespace {
// The gap in quad precision, from the same relative form without any series: the reference.
__float128 gap_quad(double h_a, double u_phase, double G, double A, double theta_a, double y) {
  const __float128 Y = y, TA = theta_a;
  return (__float128)h_a + (__float128)u_phase * Y - (__float128)G * Y * Y / 2 +
         (__float128)A * sinq(TA) * (1 - cosq(Y)) + (__float128)A * cosq(TA) * (Y - sinq(Y));
}
}  // namespace

TEST_CASE("the relative-form gap agrees with direct differences and with quad precision", "[conveyor]") {
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", "60"}}));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> phase(0, 2 * M_PI), vel(-0.1, 0.2), height(0, 1e-3);
  for (int trial = 0; trial < 200; ++trial) {
    const double ta = phase(rng), u = vel(rng), h = height(rng);
    const PlateGap gap{h, u / c.omega, c.G, c.A * std::sin(ta), c.A * std::cos(ta)};
    // Long flights: against the direct difference of absolute positions, z_p - z_c.
    for (const double y : {0.1, 0.7, 2.0, 5.5, 10.0}) {
      const double t = y / c.omega;
      const double vN = u + c.A * c.omega * std::cos(ta);
      const double z_p = h + c.A * std::sin(ta) + vN * t - 0.5 * c.g * t * t;
      const double direct = z_p - c.A * std::sin(ta + y);
      CHECK(gap(y).g == Approx(direct).margin(1e-12 * (std::fabs(z_p) + c.A)));
    }
    // Microthrow-sized flights: within 1e-15 of the largest term, against quad precision.
    for (const double y : {1e-10, 1e-8, 1e-6, 1e-4, 1e-2}) {
      const double largest = std::max({std::fabs(h), std::fabs(u / c.omega * y), c.G * y * y, c.A * y * y});
      CHECK(std::fabs(gap(y).g - static_cast<double>(gap_quad(h, u / c.omega, c.G, c.A, ta, y))) <= 1e-15 * largest);
    }
    // Derivatives by central differences.
    const double y = 1.3, e = 1e-5;
    CHECK(gap(y).g1 == Approx((gap(y + e).g - gap(y - e).g) / (2 * e)).margin(1e-9 * c.A));
    CHECK(gap(y).g2 == Approx((gap(y + e).g1 - gap(y - e).g1) / (2 * e)).margin(1e-9 * c.A));
  }
}

TEST_CASE("on a resting plate a flight is the exact parabola, from 1e-9 to 20 rad", "[conveyor][roots]") {
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", "0"}}));
  for (const double flight : {1e-9, 1e-7, 1e-5, 1e-3, 0.1, 1.0, 20.0}) {
    const double u = flight * c.g / (2 * c.omega);  // lands at y = 2 u omega / g
    const PlateGap gap{0, u / c.omega, c.G, 0, 0};
    const RootBounds bounds{0, c.G, -c.G};
    const double start = 0.999 * 2 * (u / c.omega) / c.G;
    const RootResult root = certified_first_root(gap, start, 30.0, bounds);
    REQUIRE(root.outcome == RootOutcome::Root);
    CHECK(std::fabs(root.y - flight) <= 1e-13 * flight);
  }
}
