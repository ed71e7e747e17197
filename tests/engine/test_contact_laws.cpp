// Newton restitution and the Coulomb impulse with its stick clamp (spec conveyor.md 9.1 items 4, 6).
#include <catch2/catch.hpp>

#include "engine/contact/coulomb_impulse.hpp"
#include "engine/contact/newton_restitution.hpp"

using namespace vibro;

TEST_CASE("Newton restitution reverses and scales the approach velocity", "[engine][contact]") {
  const NormalImpact impact = newton_restitution(-0.122625, 0.6);
  CHECK(impact.u_after == Approx(0.073575).epsilon(1e-12));
  CHECK(impact.impulse == Approx(1.6 * 0.122625).epsilon(1e-12));
  // A positive approach velocity from rounding at a tangency is clamped: no impulse.
  const NormalImpact graze = newton_restitution(1e-17, 0.6);
  CHECK(graze.u_after == 0.0);
  CHECK(graze.impulse == 0.0);
}

TEST_CASE("Coulomb impulse law with the stick clamp: the spec's four cases", "[engine][contact]") {
  const double w_T = 0.1, S = 0.2, mu = 0.15;  // mu S = 0.03
  CHECK(coulomb_impulse(0.05, w_T, mu, S) == Approx(0.08));  // (a) accelerated, no clamp
  CHECK(coulomb_impulse(0.09, w_T, mu, S) == 0.10);          // (b) clamped at the plate
  CHECK(coulomb_impulse(0.15, w_T, mu, S) == Approx(0.12));  // (c) decelerated, no clamp
  CHECK(coulomb_impulse(0.11, w_T, mu, S) == 0.10);          // (d) clamped from above
  CHECK(coulomb_impulse(0.10, w_T, mu, S) == 0.10);          // no relative motion
  CHECK(coulomb_impulse(0.03, w_T, mu, 0.0) == 0.03);        // grazing: zero impulse, unchanged
}
