// Continuation of Model A's (1,1) orbit in lambda (analysis/orbit_continuation): the branch from
// 0.6 to 3 agrees with the sweep's loading curve (Bazhenov et al. 2013). Downwards the impacting orbit
// persists below the impact-free orbit's grazing (lambda* = 0.5670028, hysteresis), loses stability at
// a Neimark-Sacker point and folds at lambda = 0.56438, where natural continuation stops and says so
// (it used to jump onto the impact-free orbit there and report lambda* as this branch's grazing;
// arclength follows the fold, tests/two_body/test_arclength.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/orbit_continuation.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/two_body_steps.hpp"
#include "support/two_body_amplitude.hpp"

using namespace vibro;

namespace {

const std::string kModelA = "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n";

// Body 1's semi-amplitude (|max| + |min|) / 2 along one period of the orbit through `state`.
double semi_amplitude(const Model& model, const ParameterSet& values, double lambda, const StrobeSample& state) {
  return test_support::semi_amplitude(model, values, "lambda", lambda, state);
}

// The branch's orbit at exactly `lambda`: shot from the interpolated neighbours.
PeriodicOrbit orbit_at(const Model& model, ParameterSet values, const Branch& branch, double lambda) {
  for (std::size_t i = 1; i < branch.points.size(); ++i) {
    const auto &a = branch.points[i - 1], &b = branch.points[i];
    if ((lambda - a.parameter) * (lambda - b.parameter) > 0) continue;
    const double w = (lambda - a.parameter) / (b.parameter - a.parameter);
    StrobeSample guess = a.orbit.state;
    for (std::size_t k = 0; k < guess.state.size(); ++k) guess.state[k] += w * (b.orbit.state.state[k] - a.orbit.state.state[k]);
    values.set("lambda", lambda);
    auto simulation = model.start(values);
    return shoot_periodic_orbit(*simulation, guess, 1);
  }
  FAIL("lambda " << lambda << " is not on the branch");
  return {};
}

}  // namespace

TEST_CASE("Model A (1,1) branch from lambda = 1 up to 3 and down to its fold: loading curve to 1e-4, no jump at the fold",
          "[two_body][continuation]") {
  const std::vector<double> lambdas = {0.6, 0.8, 1.0, 1.5, 2.0, 3.0};
  std::string axis;
  for (double l : lambdas) axis += (axis.empty() ? "" : ", ") + std::to_string(l);
  const SweepSpec sweep = parse_sweep(kModelA + "[axes]\nlambda = " + axis + "\n[run]\nmax_periods = 2000\n", "a.ini", {});
  const SweepRun loading = run_sweep(sweep);  // the loading curve by simulation, from rest
  REQUIRE(loading.cases[2].class_code == "(1,1)");
  const Model& model = *sweep.model;
  const ParameterSet values = sweep.case_parameters(2);

  const Branch up = continue_periodic_orbit(model, values, "lambda", 1.0, 3.0, loading.cases[2].final_state, 1);
  const Branch down = continue_periodic_orbit(model, values, "lambda", 1.0, 0.55, loading.cases[2].final_state, 1);
  INFO(up.end << " / " << down.end);
  REQUIRE(up.end == "reached the end of the range");
  CHECK_THAT(down.end, Catch::StartsWith("the branch turns back at a fold at lambda = 0.56438"));
  CHECK(up.events.empty());  // (1,1) and stable all the way (independent check: all states for 0.57 <= lambda <= 3 are (1,1))

  for (std::size_t i = 0; i < lambdas.size(); ++i) {
    const double lambda = lambdas[i];
    const Branch& branch = lambda >= 1 ? up : down;
    const PeriodicOrbit orbit = orbit_at(model, values, branch, lambda);
    REQUIRE(orbit.converged);
    CHECK(orbit.stable());
    CHECK(orbit.events == 1);
    const double a1 = semi_amplitude(model, values, lambda, orbit.state);
    const double simulated = loading.cases[i].observables[0];  // A1
    INFO("lambda " << lambda << ": continuation A1 " << a1 << ", sweep A1 " << simulated);
    CHECK(std::fabs(a1 - simulated) <= 1e-4 * simulated);
  }
  // Going down: a Neimark-Sacker point, then the fold, where the branch stops rather than jump (the
  // fold as arclength locates it from lambda = 1 down: docs/validation.md).
  REQUIRE(down.events.size() == 2);
  CHECK(down.events[0].kind == "neimark_sacker");
  CHECK(down.events[0].parameter == Approx(0.5656252).margin(1e-6));
  CHECK(down.events[1].kind == "fold");
  CHECK(std::fabs(down.events[1].parameter - 0.5643801251) < 1e-8);
  CHECK(down.points.back().orbit.events == 1);
  CHECK(down.points.back().parameter == Approx(0.5643802).margin(1e-6));
}
