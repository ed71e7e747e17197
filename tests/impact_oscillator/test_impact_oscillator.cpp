// The impact oscillator written against the hybrid-model API, against its closed form (Shaw and
// Holmes 1983): the (1,1) orbit's impact phase and speed, the grazing stop position, and the Floquet
// multipliers from the adapter's automatic-differentiation Jacobian and saltation matrices.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "analysis/map_lyapunov.hpp"
#include "analysis/orbit_continuation.hpp"
#include "analysis/periodic_shooting.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"
#include "support/model_fixture.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

std::string text(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// Runs `periods` periods from the given settings and returns the simulation and its samples.
struct Run {
  std::unique_ptr<Simulation> simulation;
  std::vector<StrobeSample> samples;
};
Run run(std::initializer_list<Setting> settings, int periods) {
  const ParameterSet values = parameter_values(model().parameters(), settings);
  model().validate(values);
  Run r{model().start(values), {}};
  Recorder recorder(periods);
  r.simulation->run(recorder);
  r.samples = recorder.samples;
  return r;
}

const ShawHolmes kOrbit{0.1, 0.8, 1.0, 0.8};  // a stable (1,1) orbit, reached from rest
const std::initializer_list<Setting> kSettings = {{"zeta", "0.1"}, {"omega", "0.8"}, {"sigma", "1"}, {"r", "0.8"}};

}  // namespace

TEST_CASE("Impact oscillator: the (1,1) orbit's impact phase and speed equal the closed form", "[impact_oscillator]") {
  const auto orbits = kOrbit.single_impact_orbits();
  REQUIRE(!orbits.empty());
  const Run r = run(kSettings, 200);
  const StrobeSample& last = r.samples.back();
  REQUIRE(last.counters[kHybridImpacts] - r.samples[r.samples.size() - 2].counters[kHybridImpacts] == 1);
  const double phase = last.aux[kAuxImpactPhase], speed = last.aux[kAuxImpactSpeed];
  const auto match = std::min_element(orbits.begin(), orbits.end(), [&](const auto& a, const auto& b) {
    return std::fabs(a.tau * kOrbit.omega - phase) < std::fabs(b.tau * kOrbit.omega - phase);
  });
  INFO("closed form: phase " << match->tau * kOrbit.omega << ", speed " << match->V << "; simulated: " << phase << ", " << speed);
  CHECK(std::fabs(phase - match->tau * kOrbit.omega) < 1e-8);
  CHECK(std::fabs(speed - match->V) < 1e-8);
}

TEST_CASE("Impact oscillator: Floquet multipliers (AD Jacobian + saltation) equal the closed-form impact map's",
          "[impact_oscillator]") {
  const auto orbits = kOrbit.single_impact_orbits();
  REQUIRE(!orbits.empty());
  Run r = run(kSettings, 200);
  const double phase = r.samples.back().aux[kAuxImpactPhase];
  const auto orbit = *std::min_element(orbits.begin(), orbits.end(), [&](const auto& a, const auto& b) {
    return std::fabs(a.tau * kOrbit.omega - phase) < std::fabs(b.tau * kOrbit.omega - phase);
  });
  const Eigen::EigenSolver<Eigen::Matrix2d> closed(kOrbit.impact_map_jacobian(orbit), false);
  auto mu = r.simulation->floquet_multipliers(1);
  REQUIRE(mu.size() == 2);
  for (int i = 0; i < 2; ++i) {
    const std::complex<double> expected = closed.eigenvalues()[i];
    const double distance = std::min(std::abs(mu[0] - expected), std::abs(mu[1] - expected));
    INFO("closed form " << expected << "; adapter " << mu[0] << ", " << mu[1]);
    CHECK(distance < 1e-7);
  }
  // det of the monodromy: r^2 exp(-2 zeta T) (two velocity reversals scaled by r, volume contraction).
  CHECK(std::abs(mu[0] * mu[1]) == Approx(kOrbit.r * kOrbit.r * std::exp(-2 * kOrbit.zeta * kOrbit.period())).epsilon(1e-9));

  // Lyapunov exponents along the adapter's map: their sum is ln|det M| / T = 2 ln r / T - 2 zeta.
  const MapLyapunov lyapunov = lyapunov_along_map(*r.simulation, r.samples.back(), 40, kOrbit.period());
  REQUIRE(lyapunov.spectrum.size() == 2);
  CHECK(lyapunov.spectrum[0] + lyapunov.spectrum[1] ==
        Approx(2 * std::log(kOrbit.r) / kOrbit.period() - 2 * kOrbit.zeta).epsilon(1e-9));
  CHECK(lyapunov.spectrum[0] == Approx(std::log(std::abs(mu[0])) / kOrbit.period()).margin(5e-2));

  // Newton shooting on the adapter's stroboscopic map finds the same orbit (its Jacobian is the map's).
  const PeriodicOrbit shot = shoot_periodic_orbit(*r.simulation, r.samples.back(), 1);
  REQUIRE(shot.converged);
  CHECK(shot.events == 1);
  const Eigen::Vector2d on_section = kOrbit.after_impact(orbit.tau - kOrbit.period(), orbit.V, 0.0);
  CHECK(std::fabs(shot.state.state[0] - on_section[0]) < 1e-9);
  CHECK(std::fabs(shot.state.state[1] - on_section[1]) < 1e-9);
}

TEST_CASE("Impact oscillator: impacts begin where the harmonic amplitude reaches the stop", "[impact_oscillator]") {
  // Started on the impact-free harmonic response, the motion touches a stop at sigma exactly when
  // sigma <= the amplitude; bisect on sigma with the certified event locator's verdict.
  const ShawHolmes linear{0.1, 0.8, 0, 0.8};
  const Eigen::Vector2d start = linear.harmonic(0);
  auto touches = [&](double sigma) {
    const Run r = run({{"zeta", "0.1"}, {"omega", "0.8"}, {"sigma", text(sigma)}, {"x0", text(start[0])}, {"v0", text(start[1])}}, 2);
    const auto& c = r.samples.back().counters;
    return c[kHybridImpacts] + c[kHybridGrazings] > 0;
  };
  double below = linear.amplitude() - 1e-3, above = linear.amplitude() + 1e-3;
  REQUIRE(touches(below));
  REQUIRE(!touches(above));
  for (int k = 0; k < 40; ++k) {
    const double mid = 0.5 * (below + above);
    (touches(mid) ? below : above) = mid;
  }
  INFO("grazing sigma " << below << ", closed form " << linear.amplitude());
  CHECK(std::fabs(below - linear.amplitude()) < 1e-6);
}

TEST_CASE("Impact oscillator: an initial state beyond the stop is refused before the run", "[impact_oscillator]") {
  const ParameterSet values = parameter_values(model().parameters(), {{"sigma", "0.5"}, {"x0", "0.6"}});
  CHECK_THROWS_AS(model().validate(values), InputError);
}

TEST_CASE("Impact oscillator: a sweep's cross-parameter check runs on each case's own values", "[impact_oscillator]") {
  // The default x0 = 0 lies beyond a stop at sigma = -0.5; an axis whose values all lie below it is
  // accepted, one where every case lies beyond it is refused naming a case, and one that reaches beyond
  // it runs, its cases beyond the stop recorded as infeasible starts (a basin map reaching into the
  // contact), the others run.
  const std::string head = "model = impact_oscillator\n[parameters]\nsigma = -0.5\n[run]\nmax_periods = 40\nwindow_periods = 10\n[axes]\n";
  CHECK_NOTHROW(parse_sweep(head + "x0 = linspace(-1, -0.6, 3)\n", "x0.ini", {}));
  CHECK_THROWS_WITH(parse_sweep(head + "x0 = linspace(-0.4, 0, 3)\n", "x0.ini", {}),
                    Catch::Contains("x0 lies beyond the stop") && Catch::Contains("in every case") && Catch::Contains("x0 = -0.4"));
  CHECK_THROWS_WITH(parse_sweep(head + "omega = linspace(0.5, 1, 3)\n", "x0.ini", {}), Catch::Contains("x0 lies beyond the stop"));
  const SweepRun partly = run_sweep(parse_sweep(head + "x0 = -1, 0\n", "x0.ini", {}));
  REQUIRE(partly.cases.size() == 2);
  CHECK(partly.cases[0].status == CaseStatus::Ok);
  CHECK(partly.cases[1].status == CaseStatus::Infeasible);
}

TEST_CASE("Impact oscillator: chatter ends in rest on the stop, released where the pressing force vanishes",
          "[impact_oscillator]") {
  // Stop at sigma = 0.2, r = 0.5, slow forcing: the body chatters to rest (Zeno), is pressed on the
  // stop while cos(w t) > sigma and leaves at w t = arccos(sigma), then flies down and back.
  const double sigma = 0.2, omega = 0.3;
  Run r = run({{"zeta", "0.1"}, {"omega", "0.3"}, {"sigma", "0.2"}, {"r", "0.5"}}, 60);
  const StrobeSample& last = r.samples.back();
  const StrobeSample& before = r.samples[r.samples.size() - 2];
  REQUIRE(last.mode == 1);  // "resting on stop" at phase 0, where cos = 1 > sigma
  CHECK(last.state[0] == sigma);
  CHECK(last.state[1] == 0.0);
  CHECK(last.counters[kHybridStickings] - before.counters[kHybridStickings] == 1);
  CHECK(last.counters[kHybridReleases] - before.counters[kHybridReleases] == 1);
  // The lowest point of the flight after the release, from the closed form: v returns to 0.
  const ShawHolmes flight{0.1, omega, sigma, 0.5};
  const double release = std::acos(sigma) / omega;
  double a = release + 1e-6, b = a;
  while (flight.after_impact(release, 0, b)[1] < 0 || b == a) b += 1e-3;
  for (int k = 0; k < 200; ++k) {
    const double m = 0.5 * (a + b);
    (flight.after_impact(release, 0, m)[1] < 0 ? a : b) = m;
  }
  const double lowest = flight.after_impact(release, 0, a)[0];
  INFO("closed-form lowest point " << lowest << ", simulated " << last.aux[kAuxFirstExtreme + 1]);
  CHECK(std::fabs(last.aux[kAuxFirstExtreme + 1] - lowest) < 1e-8);
  // Resting forgets the state: the monodromy matrix of the sticking orbit vanishes.
  for (const auto& mu : r.simulation->floquet_multipliers(1)) CHECK(std::abs(mu) < 1e-12);
}

TEST_CASE("Impact oscillator: continuation finds the (1,1) orbit's period doubling where the closed form puts it",
          "[impact_oscillator]") {
  // Closed form: along sigma, follow the (1,1) orbit by its impact phase and bisect on
  // (1 + mu1)(1 + mu2) = 1 + tr J + det J of the closed-form impact map's Jacobian.
  double phase = 0;
  auto doubling_margin = [&](double sigma) {
    const ShawHolmes orbit{0.1, 0.8, sigma, 0.8};
    const auto orbits = orbit.single_impact_orbits();
    REQUIRE(!orbits.empty());
    const auto near = *std::min_element(orbits.begin(), orbits.end(), [&](const auto& a, const auto& b) {
      return std::fabs(a.tau * 0.8 - phase) < std::fabs(b.tau * 0.8 - phase);
    });
    phase = near.tau * 0.8;
    const Eigen::Matrix2d J = orbit.impact_map_jacobian(near);
    return 1 + J.trace() + J.determinant();
  };
  phase = 0.13;  // the (1,1) orbit at sigma = 1.8 (impact phase 0.1309)
  double stable = 1.8, unstable = 2.0;
  REQUIRE(doubling_margin(stable) > 0);
  REQUIRE(doubling_margin(unstable) < 0);
  for (int k = 0; k < 40; ++k) {
    const double mid = 0.5 * (stable + unstable);
    (doubling_margin(mid) > 0 ? stable : unstable) = mid;
  }

  Run r = run(kSettings, 200);
  const ParameterSet values = parameter_values(model().parameters(), kSettings);
  const Branch branch = continue_periodic_orbit(model(), values, "sigma", 1.0, 2.2, r.samples.back(), 1);
  const auto doubling = std::find_if(branch.events.begin(), branch.events.end(), [](const BranchEvent& e) { return e.kind == "period_doubling"; });
  REQUIRE(doubling != branch.events.end());
  INFO("continuation " << doubling->parameter << ", closed form " << stable);
  CHECK(std::fabs(doubling->parameter - stable) < 1e-5);
}
