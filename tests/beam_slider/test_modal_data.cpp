// Modal beam data of Krack et al. 2017 (table) and the bonded-slider Rayleigh curve R1.
#include <catch2/catch.hpp>
#include <cmath>

#include "beam_slider/beam_slider_fixture.hpp"
#include "models/beam_slider/beam_axis.hpp"

using namespace vibro::beam_slider;

namespace {
// Gauss-Legendre quadrature of f over [0, 1] on `panels` panels of 5 points: independent of the
// closed-form integrals.
template <class F>
double integrate(F f, int panels = 200) {
  const double x[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640};
  const double w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                       0.2369268850561891};
  double sum = 0;
  for (int p = 0; p < panels; ++p) {
    const double a = static_cast<double>(p) / panels, h = 1.0 / panels;
    for (int k = 0; k < 5; ++k) sum += 0.5 * h * w[k] * f(a + 0.5 * h * (x[k] + 1));
  }
  return sum;
}
}  // namespace

TEST_CASE("clamped-clamped lambda_n, sigma_n and phi_n(0.5) match the reference table to its printed digits",
          "[beam_slider]") {
  const ClampedClampedModes modes(5);
  const double lambda[5] = {4.730041, 7.853205, 10.995608, 14.137165, 17.278760};
  const double sigma[5] = {0.98250221, 1.00077731, 0.99996645, 1.00000145, 0.99999994};
  const double centre[5] = {1.58815, 0.0, -1.40600, 0.0, 1.41457};
  for (int n = 0; n < 5; ++n) {
    INFO("mode " << n + 1);
    CHECK(std::abs(modes.lambda(n) - lambda[n]) / lambda[n] < 1e-6);
    CHECK(std::abs(std::cos(modes.lambda(n)) - 1.0 / std::cosh(modes.lambda(n))) < 1e-14);  // cos cosh = 1
    CHECK(std::abs(modes.sigma(n) - sigma[n]) < 1e-8);
    CHECK(modes.value(n, 0.5).phi == Approx(centre[n]).margin(6e-6));
  }
}

TEST_CASE("mode integrals: closed form = quadrature to 1e-10, table to 1e-5, orthonormal to 1e-8", "[beam_slider]") {
  const ClampedClampedModes modes(5);
  const double integral[5] = {0.83086, 0.0, 0.36377, 0.0, 0.23150};
  for (int n = 0; n < 5; ++n) {
    INFO("mode " << n + 1);
    const double quad = integrate([&](double xi) { return modes.value(n, xi).phi; });
    CHECK(modes.integral(n) == Approx(quad).margin(1e-10));
    CHECK(modes.integral(n) == Approx(integral[n]).margin(6e-6));
    // Clamped ends: phi = phi' = 0 at both ends.
    CHECK(std::abs(modes.value(n, 0.0).phi) < 1e-12);
    CHECK(std::abs(modes.value(n, 0.0).dphi) < 1e-10);
    CHECK(std::abs(modes.value(n, 1.0).phi) < 1e-7);
    CHECK(std::abs(modes.value(n, 1.0).dphi) < 1e-6);
    for (int m = 0; m < 5; ++m) {
      const double mass = integrate([&](double xi) { return modes.value(n, xi).phi * modes.value(m, xi).phi; });
      const double stiff =
          integrate([&](double xi) { return modes.value(n, xi).ddphi * modes.value(m, xi).ddphi; });
      const double L4 = std::pow(modes.lambda(n), 4);
      CHECK(std::abs(mass - (n == m ? 1.0 : 0.0)) < 1e-8);
      CHECK(std::abs(stiff / L4 - (n == m ? 1.0 : 0.0)) < 1e-8);
    }
  }
}

TEST_CASE("beam frequencies and gamma_n with the recommended and the literal EI (reference table)", "[beam_slider]") {
  using testing::constants;
  const double rec[5] = {226.42, 624.15, 1223.57, 2022.63, 3021.46};
  const double lit[5] = {452.85, 1248.29, 2447.15, 4045.26, 6042.92};
  const double gamma[5] = {1.4391e-2, 0.0, 6.3007e-3, 0.0, 4.0097e-3};
  const BeamSliderConstants c_rec = constants({});
  const BeamSliderConstants c_lit = constants({{"h_b", "4e-4"}});
  CHECK(c_rec.EI == Approx(2.620e-4).epsilon(1e-4));  // the reference's rounded values
  CHECK(c_lit.EI == Approx(1.048e-3).epsilon(1e-4));
  const BeamAxis a_rec(5, c_rec.length, c_rec.beam_mass, c_rec.EI);
  const BeamAxis a_lit(5, c_lit.length, c_lit.beam_mass, c_lit.EI);
  for (int n = 0; n < 5; ++n) {
    INFO("mode " << n + 1);
    // omega = lambda^2 sqrt(EI / (rho A l^4)) exactly; the table's 5 digits to half a unit.
    const double exact = std::pow(a_rec.shapes().lambda(n), 2) *
                         std::sqrt(c_rec.EI / (c_rec.beam_mass / c_rec.length * std::pow(c_rec.length, 4)));
    CHECK(a_rec.omega(n) == Approx(exact).epsilon(1e-14));
    CHECK(a_rec.omega(n) / (2 * M_PI) == Approx(rec[n]).margin(0.005));
    CHECK(a_lit.omega(n) / (2 * M_PI) == Approx(lit[n]).margin(0.005));
    CHECK(a_rec.gamma(n) == Approx(gamma[n]).margin(5e-8));
  }
}

TEST_CASE("R1: bonded-slider Rayleigh curve within 0.1 % of the reference table, symmetric about l/2", "[beam_slider]") {
  const BeamSliderConstants c = testing::constants({});
  const BeamAxis axis(5, c.length, c.beam_mass, c.EI);
  const double x[] = {0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.9167};
  const double f[] = {226.42, 199.79, 146.22, 123.51, 106.56, 87.11, 81.46,
                      87.11,  106.56, 123.51, 146.22, 173.33, 199.79, 207.27};
  for (int i = 0; i < 14; ++i) {
    INFO("x / l = " << x[i]);
    const double value = axis.bonded_frequency(x[i] * c.length, c.mass, c.inertia);
    CHECK(std::abs(value - f[i]) / f[i] < 1e-3);
    CHECK(value == Approx(axis.bonded_frequency((1 - x[i]) * c.length, c.mass, c.inertia)).epsilon(1e-9));
  }
  // Without the rotary term (J = 0).
  CHECK(axis.bonded_frequency(0.5 * c.length, c.mass, 0.0) == Approx(81.46).epsilon(1e-3));
  CHECK(axis.bonded_frequency(0.8 * c.length, c.mass, 0.0) == Approx(159.19).epsilon(1e-3));
}
