// Floquet multipliers of steady orbits from the sweep (output.floquet): variational equations with
// saltation matrices at impacts, contact onsets/offsets and damping switches, against the
// multipliers of a shooting reference (Newton shooting with finite-difference Jacobians, made before vibro).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

std::vector<std::complex<double>> multipliers(const std::string& ini, const std::vector<std::string>& overrides) {
  const SweepSpec spec = parse_sweep(ini + "[output]\nfloquet = true\n", "floquet.ini", overrides);
  const SweepRun run = run_sweep(spec);
  for (const auto& c : run.cases)
    if (c.class_code == "(1,1)") {
      auto mu = c.floquet;
      std::sort(mu.begin(), mu.end(), [](auto a, auto b) { return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag(); });
      return mu;
    }
  return {};
}

// Each expected pair a +- bi must be matched by a computed pair within tol.
void check_pairs(const std::vector<std::complex<double>>& mu, const std::vector<std::complex<double>>& expected, double tol) {
  REQUIRE(mu.size() == 4);
  for (const auto& e : expected) {
    const bool found = std::any_of(mu.begin(), mu.end(), [&](auto m) {
      return std::abs(m.real() - e.real()) < tol && std::abs(std::abs(m.imag()) - std::abs(e.imag())) < tol;
    });
    INFO("expected " << e.real() << " +- " << std::abs(e.imag()) << "i");
    CHECK(found);
  }
}

const std::string kModelA =
    "model = gap_oscillator\n[parameters]\nlambda = 1\n[run]\nmax_periods = 600\nwindow_periods = 20\n";
const std::string kModelB =
    "model = vibro_platform\n[axes]\nphase = 0, 0.8, 1.6, 2.4, 3.2, 4.0, 4.8, 5.6\n[run]\nmax_periods = 1500\n"
    "window_periods = 24\n";

}  // namespace

TEST_CASE("Model A multipliers at lambda = 1 (shooting reference)", "[two_body][floquet]") {
  check_pairs(multipliers(kModelA, {"--parameters.law=restitution", "--parameters.e=1"}), {{0.7563, 0.0505}, {-0.3152, 0.1530}}, 2e-3);
  check_pairs(multipliers(kModelA, {"--parameters.law=hertz"}), {{0.7563, 0.0513}, {-0.3144, 0.1546}}, 2e-3);
  check_pairs(multipliers(kModelA, {"--parameters.law=restitution", "--parameters.e=0.5"}), {{0.6539, 0.0380}, {-0.1681, 0.1133}}, 2e-3);
}

TEST_CASE("Model B (1,1) multipliers, damping switches included (shooting reference)", "[two_body][floquet]") {
  check_pairs(multipliers(kModelB, {"--parameters.law=linear"}), {{0.8550, 0.2449}, {-0.8883, 0.1762}}, 1e-2);
  check_pairs(multipliers(kModelB, {"--parameters.law=hertz", "--parameters.R=5"}), {{0.8541, 0.2431}, {-0.5996, 0.6225}}, 1e-2);
  check_pairs(multipliers(kModelB, {"--parameters.law=hertz", "--parameters.E1=12e8"}), {{0.8550, 0.2450}, {-0.8668, 0.2399}}, 1e-2);
}

TEST_CASE("Lyapunov exponents of a stable orbit: ln|mu| / T, their sum ln|det M| / T", "[two_body][floquet]") {
  const SweepSpec spec = parse_sweep(kModelA + "[output]\nfloquet = true\nlyapunov_periods = 300\n", "lyapunov.ini",
                                     {"--parameters.law=restitution"});
  const SweepRun run = run_sweep(spec);
  const auto& c = run.cases[0];
  REQUIRE(c.class_code == "(1,1)");
  REQUIRE(c.lyapunov.size() == 4);
  REQUIRE(c.floquet.size() == 4);
  const double T = 2 * M_PI / 6;
  std::vector<double> from_floquet;
  for (const auto& mu : c.floquet) from_floquet.push_back(std::log(std::abs(mu)) / T);
  std::sort(from_floquet.rbegin(), from_floquet.rend());
  double sum = 0, expected_sum = 0;
  for (int i = 0; i < 4; ++i) {
    sum += c.lyapunov[static_cast<std::size_t>(i)];
    expected_sum += from_floquet[static_cast<std::size_t>(i)];
    // A complex pair shares one exponent; 300 periods of Benettin's method split it by O(1/300).
    CHECK(c.lyapunov[static_cast<std::size_t>(i)] == Approx(from_floquet[static_cast<std::size_t>(i)]).margin(2e-2));
  }
  CHECK(sum == Approx(expected_sum).margin(1e-6));  // the volume contraction is exact
  CHECK(c.lyapunov[0] < 0);
}

TEST_CASE("the largest Lyapunov exponent of a periodic orbit is ln|mu_max| / T within 1e-3 (3000 periods)",
          "[two_body][floquet]") {
  // Benettin's method splits a complex pair by O(1/N): measured 7e-3 at 300 periods, 1.6e-3 at 1000,
  // 8e-4 at 3000, 1.5e-4 at 10000 on this orbit, whose largest multipliers are 0.7563 +- 0.0505i.
  const SweepSpec spec = parse_sweep(kModelA + "[output]\nfloquet = true\nlyapunov_periods = 3000\n", "lyapunov.ini",
                                     {"--parameters.law=restitution"});
  const SweepRun run = run_sweep(spec);
  const auto& c = run.cases[0];
  REQUIRE(c.class_code == "(1,1)");
  REQUIRE(c.lyapunov.size() == 4);
  double largest = 0;
  for (const auto& mu : c.floquet) largest = std::max(largest, std::abs(mu));
  const double T = 2 * M_PI / 6;
  CHECK(c.lyapunov[0] == Approx(std::log(largest) / T).margin(1e-3));
  // No resets on this orbit: the exponent between resets is the largest exponent.
  CHECK(c.stretch_resets == 0);
  CHECK(c.stretch_exponent == Approx(std::log(largest) / T).margin(1e-3));
}
