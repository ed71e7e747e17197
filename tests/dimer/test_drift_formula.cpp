// The report's drift formula (Section 7, corrected; R21) and the mode energies of Eqs. 122-124 (R18).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "models/dimer/dimer_drift_formula.hpp"

using namespace vibro::dimer;

TEST_CASE("R21: drift-speed formula tables (the report's Section 7, corrected, Gamma = 0.9 and mu = 0.12)", "[dimer]") {
  struct Row {
    double ar, p0, p0_printed, n0, p10, n10, p6, n6;
  };
  const std::vector<Row> rows = {
      {2.1, 3.173, 5.499, -4.993, 5.104, -4.266, 6.395, -3.786},
      {3.0, 2.402, 4.162, -2.827, 3.584, -2.415, 4.375, -2.143},
      {3.9, 2.217, 3.842, -1.742, 3.054, -1.488, 3.615, -1.321},
      {5.0, 2.137, 3.703, -1.022, 2.751, -0.873, 3.163, -0.775},
      {5.7, 2.112, 3.660, -0.729, 2.637, -0.623, 2.989, -0.553},
      {8.5, 2.073, 3.591, -0.089, 2.404, -0.076, 2.627, -0.067}};
  // The table is printed to 3 decimals: compare to its rounding.
  const double tol = 0.5e-3 + 1e-9;
  for (const auto& r : rows) {
    INFO("A_r = " << r.ar);
    CHECK(std::abs(kappa_forward(r.ar, 0.9, 0.12, 0) - r.p0) <= tol);
    CHECK(std::abs(kappa_forward_printed(r.ar, 0.9, 0.12, 0) - r.p0_printed) <= tol);
    CHECK(std::abs(kappa_backward(r.ar, 0.9, 0.12, 0) - r.n0) <= tol);
    CHECK(std::abs(kappa_forward(r.ar, 0.9, 0.12, M_PI / 10) - r.p10) <= tol);
    CHECK(std::abs(kappa_backward(r.ar, 0.9, 0.12, M_PI / 10) - r.n10) <= tol);
    CHECK(std::abs(kappa_forward(r.ar, 0.9, 0.12, M_PI / 6) - r.p6) <= tol);
    CHECK(std::abs(kappa_backward(r.ar, 0.9, 0.12, M_PI / 6) - r.n6) <= tol);
  }
}

TEST_CASE("R21: forward and backward formulas equal a quadrature of the slip velocity to 1e-6", "[dimer]") {
  // The drift formula's timing, in units omega = A = 1 (so g = 1 / Gamma), plate y_p = cos(t - alpha) from the
  // impact at t = 0: the forward slip decelerates to zero at the plate minimum t_p = pi + alpha,
  // v(t) = k_p int_t^tp (g + ydd_p) = k_p (g (t_p - t) + sin(t - alpha)); the reverse slip grows from
  // rest, v(t) = k_n (g (t - t_p) + sin(t - t_p)), until the next impact; k = (a +- b) / (c +- d).
  const double ar = 3.9, Gamma = 0.9, mu = 0.12, alpha = M_PI / 10;
  const double B = 2 * (ar - 1);
  const double a = mu * (2.8 + 0.5 * B * B), b = B, c = 0.8 + B * B, d = mu * B;
  const double g = 1 / Gamma;
  const double tp = M_PI + alpha, tn = M_PI - alpha;
  auto simpson = [](auto f, double lo, double hi) {
    const int n = 20000;
    const double h = (hi - lo) / n;
    double s = f(lo) + f(hi);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * f(lo + i * h);
    return s * h / 3;
  };
  const double xp = (a + b) / (c + d) *
                    simpson([&](double t) { return g * (tp - t) + std::sin(t - alpha); }, 0, tp);
  const double xn = (a - b) / (c - d) *
                    simpson([&](double t) { return g * (t - tp) + std::sin(t - tp); }, tp, tp + tn);
  // kappa = <x> f^2 / g * 100 with f = 1 / (2 pi), A = 1.
  const double scale = 100 / (4 * M_PI * M_PI) / g;
  CHECK((xp + xn) * scale == Approx(kappa_forward(ar, Gamma, mu, alpha)).epsilon(1e-6));
  CHECK(xn * scale == Approx(kappa_backward(ar, Gamma, mu, alpha)).epsilon(1e-6));
}

TEST_CASE("R18: mode energies E_d : E_j : E_f = 1 : 2 : 8 exactly", "[dimer]") {
  const double m = 7.23e-3, g = 9.81, T = 0.04;
  const double Ed = mode_energy(EnergyMode::Drift, m, g, T);
  CHECK(Ed == m * g * g * T * T / 8);
  CHECK(mode_energy(EnergyMode::Jump, m, g, T) / Ed == 2.0);
  CHECK(mode_energy(EnergyMode::Flutter, m, g, T) / Ed == 8.0);
  // Bounce height g T^2 / 8 = 1.96 mm at 25 Hz (free bounce of one period).
  CHECK(g * T * T / 8 == Approx(1.962e-3).epsilon(1e-3));
}
