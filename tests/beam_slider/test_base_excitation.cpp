// The base motion of Krack et al. 2017: velocity and acceleration are the derivatives of the
// displacement, with and without amplitude modulation; the start puts the axis mid-hole (the paper's trivial initial conditions).
#include <catch2/catch.hpp>
#include <cmath>

#include "beam_slider/beam_slider_fixture.hpp"
#include "models/beam_slider/beam_slider_system.hpp"

using namespace vibro::beam_slider;

TEST_CASE("base velocity and acceleration match central differences (alpha = 0 and 1)", "[beam_slider]") {
  for (double alpha : {0.0, 1.0}) {
    const BaseExcitation base(1e-4, 135.0, alpha, 5.0);
    for (double t : {0.0, 0.0013, 0.0371, 0.25}) {
      INFO("alpha = " << alpha << ", t = " << t);
      const double h = 1e-7;
      const double v = (base.displacement(t + h) - base.displacement(t - h)) / (2 * h);
      const double a = (base.velocity(t + h) - base.velocity(t - h)) / (2 * h);
      CHECK(base.velocity(t) == Approx(v).margin(1e-7 * 1e-4 * 2 * M_PI * 135));
      CHECK(base.acceleration(t) == Approx(a).margin(1e-6 * 1e-4 * std::pow(2 * M_PI * 135, 2)));
    }
    CHECK(base.displacement(0.0) == Approx(1e-4 * (1 + alpha)).epsilon(1e-15));
  }
}

TEST_CASE("amplitude-modulated start: z_C(0) = w0_hat (1 + alpha) - d (the paper's trivial initial conditions)", "[beam_slider]") {
  const BeamSliderSystem system(testing::constants({{"am_depth", "0.5"}, {"f", "135"}}));
  Eigen::VectorXd q, u;
  system.initial_state(q, u);
  CHECK(q(6) == Approx(1.5e-4 - system.constants().hole_offset).epsilon(1e-14));
}
