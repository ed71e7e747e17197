// Newton shooting on the stroboscopic map (analysis/periodic_shooting) for the two-body models:
// stable orbits are refined to the simulation's, and unstable ones, which no simulation settles on,
// are found from a nearby stable orbit (the paper and a shooting reference: Model B Hertz R = 500).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "analysis/periodic_shooting.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

// The final stroboscopic state of the first (1,1) case of a sweep, and that case's index.
StrobeSample settled_orbit(const SweepSpec& spec, long long* index = nullptr) {
  const SweepRun run = run_sweep(spec);
  for (std::size_t i = 0; i < run.cases.size(); ++i)
    if (run.cases[i].class_code == "(1,1)" && run.cases[i].has_final_state) {
      if (index) *index = static_cast<long long>(i);
      return run.cases[i].final_state;
    }
  FAIL("no (1,1) case");
  return {};
}

bool has_multiplier(const PeriodicOrbit& orbit, std::complex<double> expected, double tol) {
  return std::any_of(orbit.multipliers.begin(), orbit.multipliers.end(), [&](auto m) {
    return std::abs(m.real() - expected.real()) < tol && std::abs(std::abs(m.imag()) - std::abs(expected.imag())) < tol;
  });
}

}  // namespace

TEST_CASE("shooting refines Model A's settled (1,1) orbit, multipliers as a shooting reference found", "[two_body][shooting]") {
  const SweepSpec spec = parse_sweep(
      "model = gap_oscillator\n[parameters]\nlambda = 1\nlaw = restitution\n[run]\nmax_periods = 300\nwindow_periods = 20\n",
      "a.ini", {});
  StrobeSample guess = settled_orbit(spec);
  guess.state[0] *= 1.02;  // start off the orbit: Newton must bring it back
  guess.state[3] += 0.01;
  auto simulation = spec.model->start(spec.case_parameters(0));
  const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, guess, 1);
  INFO(orbit.reason);
  REQUIRE(orbit.converged);
  CHECK(orbit.iterations <= 8);
  CHECK(orbit.events == 1);
  CHECK(orbit.stable());
  CHECK(has_multiplier(orbit, {0.7563, 0.0505}, 1e-3));
  CHECK(has_multiplier(orbit, {-0.3152, 0.1530}, 1e-3));
}

TEST_CASE("Model B Hertz R = 500: the (1,1) orbit found by shooting is flip-unstable, mu = -1.2416 (shooting reference)",
          "[two_body][shooting]") {
  const std::string ini =
      "model = vibro_platform\n[parameters]\nlaw = hertz\n[axes]\nphase = 0, 0.8, 1.6, 2.4, 3.2, 4.0, 4.8, 5.6\n"
      "[run]\nmax_periods = 1500\nwindow_periods = 24\n";
  // From the stable (1,1) orbit at R = 50 (the first forcing phase that settles on it), shoot at
  // R = 500 with the same phase, where simulations leave the orbit.
  long long which = 0;
  const StrobeSample guess = settled_orbit(parse_sweep(ini, "b.ini", {"--parameters.R=50"}), &which);
  const SweepSpec at500 = parse_sweep(ini, "b.ini", {"--parameters.R=500"});
  auto simulation = at500.model->start(at500.case_parameters(which));
  const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, guess, 1);
  INFO(orbit.reason);
  REQUIRE(orbit.converged);
  CHECK_FALSE(orbit.stable());
  REQUIRE(orbit.multipliers.size() == 4);
  INFO("largest multiplier " << orbit.multipliers[0]);
  CHECK(orbit.multipliers[0].imag() == Approx(0).margin(1e-9));
  CHECK(orbit.multipliers[0].real() == Approx(-1.2416).margin(1e-2));
  CHECK(has_multiplier(orbit, {0.8554, 0.2459}, 1e-2));
  CHECK(has_multiplier(orbit, {-0.6684, 0}, 1e-2));
}

TEST_CASE("output.shooting refines every periodic case of a sweep, multipliers are the shot orbit's", "[two_body][shooting]") {
  const SweepSpec spec = parse_sweep(
      "model = gap_oscillator\n[parameters]\nlaw = restitution\n[axes]\nlambda = 0.8, 1.0, 1.5\n"
      "[run]\nmax_periods = 200\nwindow_periods = 20\n[output]\nshooting = true\n", "s.ini", {});
  REQUIRE(spec.floquet);  // implied
  const SweepRun run = run_sweep(spec);
  for (const auto& c : run.cases) {
    REQUIRE(c.class_code.rfind("(1,1)", 0) == 0);
    CHECK(c.shooting == 1);
    CHECK(c.shooting_residual < 1e-11);
    REQUIRE(c.floquet.size() == 4);
    // The shot point is the orbit the case converges to: within the detector's tolerance of its last sample.
    for (int i = 0; i < 4; ++i)
      CHECK(c.shot_state.state[static_cast<std::size_t>(i)] ==
            Approx(c.final_state.state[static_cast<std::size_t>(i)]).margin(1e-4));
  }
  PeriodicOrbit reference;
  reference.converged = true;
  reference.periods = 1;
  reference.multipliers = run.cases[1].floquet;
  CHECK(has_multiplier(reference, {0.7563, 0.0505}, 1e-3));
  CHECK(has_multiplier(reference, {-0.3152, 0.1530}, 1e-3));
}
