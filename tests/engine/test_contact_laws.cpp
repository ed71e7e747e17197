// Newton restitution and the Coulomb impulse with its stick clamp (the conveyor paper).
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

TEST_CASE("Coulomb impulse law with the stick clamp: the reference four cases", "[engine][contact]") {
  const double w_T = 0.1, S = 0.2, mu = 0.15;  // mu S = 0.03
  CHECK(coulomb_impulse(0.05, w_T, mu, S) == Approx(0.08));  // (a) accelerated, no clamp
  CHECK(coulomb_impulse(0.09, w_T, mu, S) == 0.10);          // (b) clamped at the plate
  CHECK(coulomb_impulse(0.15, w_T, mu, S) == Approx(0.12));  // (c) decelerated, no clamp
  CHECK(coulomb_impulse(0.11, w_T, mu, S) == 0.10);          // (d) clamped from above
  CHECK(coulomb_impulse(0.10, w_T, mu, S) == 0.10);          // no relative motion
  CHECK(coulomb_impulse(0.03, w_T, mu, 0.0) == 0.03);        // grazing: zero impulse, unchanged
}

#include "engine/contact/penalty_laws.hpp"
#include "engine/contact/two_body_restitution.hpp"

TEST_CASE("two-body restitution conserves momentum and scales the relative velocity by -e", "[engine][contact]") {
  const double m1 = 1000, m2 = 100, chi = m2 / m1;
  for (const double e : {0.0, 0.5, 1.0}) {
    const TwoBodyVelocities after = two_body_restitution(0.7, -0.3, chi, e);
    CHECK(m1 * after.v1 + m2 * after.v2 == Approx(m1 * 0.7 + m2 * -0.3).epsilon(1e-14));
    CHECK(after.v1 - after.v2 == Approx(-e * (0.7 - -0.3)).margin(1e-14));
  }
  // e = 1: kinetic energy conserved.
  const TwoBodyVelocities elastic = two_body_restitution(0.7, -0.3, chi, 1.0);
  CHECK(m1 * elastic.v1 * elastic.v1 + m2 * elastic.v2 * elastic.v2 == Approx(m1 * 0.49 + m2 * 0.09).epsilon(1e-13));
}

TEST_CASE("penalty laws and the Hertz constant of the two-body spec", "[engine][contact]") {
  CHECK(linear_penalty(-1e-3, 3e8) == 0.0);
  CHECK(linear_penalty(2e-3, 3e8) == Approx(6e5));
  CHECK(hertz(-1e-3, 1e9) == 0.0);
  CHECK(hertz(4e-6, 1e9) == Approx(1e9 * 8e-9));
  // Bazhenov et al. 2013, Eq. 9: Model A spheres R1 = R2 = 2 m (A = B = 0.5), Model B R = 5 m.
  CHECK(hertz_constant(2.1e11, 0.3, 2.1e11, 0.3, 0.5) == Approx(1.53696e11).epsilon(1e-5));
  CHECK(hertz_constant(3e8, 0.4, 2e12, 0.3, 0.1) == Approx(1.063585e9).epsilon(1e-6));
  CHECK(hertz_constant(1.2e9, 0.4, 2e12, 0.3, 0.1) == Approx(4.252267e9).epsilon(1e-6));
}
