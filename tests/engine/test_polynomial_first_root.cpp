// The first root of a step's guard polynomial: never missed, tangencies reported, direction filters.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/events/polynomial_first_root.hpp"

using namespace vibro;

namespace {
// (x - r1)(x - r2) + shift in power basis, as a quartic with zero top coefficients.
void quadratic(double r1, double r2, double shift, double c[5]) {
  c[0] = r1 * r2 + shift;
  c[1] = -(r1 + r2);
  c[2] = 1;
  c[3] = 0;
  c[4] = 0;
}
}  // namespace

TEST_CASE("direction filters pick the falling or the rising root", "[engine][events]") {
  double c[5];
  quadratic(0.3, 0.7, 0, c);  // + before 0.3, - between, + after 0.7
  const auto falling = polynomial_first_root(c, 4, Crossing::Falling);
  REQUIRE(falling.found);
  CHECK(falling.theta == Approx(0.3).margin(1e-14));
  const auto rising = polynomial_first_root(c, 4, Crossing::Rising);
  REQUIRE(rising.found);
  CHECK(rising.theta == Approx(0.7).margin(1e-14));
  const auto either = polynomial_first_root(c, 4, Crossing::Either);
  CHECK(either.theta == Approx(0.3).margin(1e-14));
}

TEST_CASE("a tangency inside the interval is reported as grazing, not stepped over", "[engine][events]") {
  double c[5];
  quadratic(0.4, 0.4, 0, c);  // touches zero at 0.4, positive at both ends
  const auto hit = polynomial_first_root(c, 4, Crossing::Falling, 1e-12, 1e-15);
  REQUIRE(hit.found);
  CHECK(hit.grazing);
  CHECK(hit.theta == Approx(0.4).margin(1e-6));
  // Cleared by a margin: provably no root.
  quadratic(0.4, 0.4, 1e-10, c);
  CHECK_FALSE(polynomial_first_root(c, 4, Crossing::Falling, 1e-12, 1e-15).found);
}

TEST_CASE("the first of two roots 2e-8 apart is found", "[engine][events]") {
  double c[5];
  quadratic(0.4, 0.4, -1e-16, c);  // roots at 0.4 -+ 1e-8
  const auto hit = polynomial_first_root(c, 4, Crossing::Falling);
  REQUIRE(hit.found);
  CHECK_FALSE(hit.grazing);
  CHECK(hit.theta == Approx(0.4 - 1e-8).margin(1e-13));
}

TEST_CASE("quartics with roots near both ends and none at all", "[engine][events]") {
  // x (x - 1e-9)... shifted: roots at 1e-9 and at 1 - 1e-9.
  const double r1 = 1e-9, r2 = 1 - 1e-9;
  double c[5] = {r1 * r2, -(r1 + r2), 1, 0, 0};
  const auto hit = polynomial_first_root(c, 4, Crossing::Falling);
  REQUIRE(hit.found);
  CHECK(hit.theta == Approx(r1).margin(1e-15));
  double none[5] = {1, -1, 1, -1, 1};  // 1 - x + x^2 - x^3 + x^4 > 0 on [0, 1]
  CHECK_FALSE(polynomial_first_root(none, 4, Crossing::Either).found);
}

TEST_CASE("a resolution finer than 2^-50 is clamped: tangencies near either end still end, on a small stack",
          "[engine][events]") {
  // (x - r)^2 next to 1, where a 1e-20-wide piece would be below the doubles' spacing (a split's
  // midpoint would round onto an end), next to 0, and inside. The search ends there: a tangency, or the
  // pair of roots 2^-50 can separate where the rounded coefficients dip below zero (near both ends).
  for (const double r : {1.0 - 0x1p-40, 0x1p-40, 1.0 / 3.0}) {
    double c[5];
    quadratic(r, r, 0, c);
    const auto hit = polynomial_first_root(c, 4, Crossing::Falling, 1e-20, 1e-15);
    INFO("double root at " << r);
    REQUIRE(hit.found);
    CHECK(hit.theta == Approx(r).margin(1e-6));
  }
  double touching[5];
  quadratic(1.0 / 3.0, 1.0 / 3.0, 0, touching);
  CHECK(polynomial_first_root(touching, 4, Crossing::Falling, 1e-20, 1e-15).grazing);
  // Two roots 2e-8 apart at the finest resolution: the first one, polished.
  double c[5];
  quadratic(0.4, 0.4, -1e-16, c);
  const auto hit = polynomial_first_root(c, 4, Crossing::Falling, 0.0);
  REQUIRE(hit.found);
  CHECK_FALSE(hit.grazing);
  CHECK(hit.theta == Approx(0.4 - 1e-8).margin(1e-13));
}
