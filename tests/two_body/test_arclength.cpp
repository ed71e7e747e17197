// Pseudo-arclength continuation (analysis/arclength_continuation) of Model A's (1,1) orbit in the forcing
// frequency omega (restitution e = 1, lambda = 1). Sweeps with continuation show hysteresis at the top of
// the impacting range: going up, the (1,1) orbit persists to omega ~ 7.44, going down the impact-free
// (linear) orbit persists to ~ 7.3. The (1,1) branch folds at its upper end (a real multiplier through
// +1, away from grazing: the impact velocity there is finite), turns back as an unstable impacting
// orbit, and ends where that orbit grazes, at the frequency where the linear orbit's relative amplitude
// is the gap D (closed form, spec two_body_impact.md 1.6); beyond it the branch is the linear orbit.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/orbit_continuation.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/linear_response.hpp"
#include "models/two_body/two_body_steps.hpp"

using namespace vibro;

namespace {

const std::string kModelA = "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n";

SweepSpec sweep_in_omega(const std::string& omegas, const std::string& direction) {
  return parse_sweep(kModelA + "[axes]\nomega = " + omegas + "\n[run]\ncontinuation = omega\ndirection = " + direction +
                         "\nmax_periods = 2000\nwindow_periods = 32\n",
                     "a.ini", {});
}

class Extremes : public StrobeObserver {
 public:
  bool on_sample(const StrobeSample& s) override {
    max = s.aux[two_body::kMaxX1];
    min = s.aux[two_body::kMinX1];
    return false;
  }
  double max = 0, min = 0;
};

// Body 1's semi-amplitude over one period of the orbit through `state` at `omega`.
double semi_amplitude(const Model& model, ParameterSet values, double omega, const StrobeSample& state) {
  values.set("omega", omega);
  auto simulation = model.start(values);
  REQUIRE(simulation->restart_from(state));
  Extremes extremes;
  simulation->run(extremes);
  return 0.5 * (std::fabs(extremes.max) + std::fabs(extremes.min));
}

// The orbit at exactly `omega` on the part of the branch with `impacts` per period and the given
// stability: shot from the state interpolated between the two branch points around omega.
PeriodicOrbit orbit_on_branch(const Model& model, ParameterSet values, const Branch& branch, double omega,
                              long long impacts, bool stable) {
  for (std::size_t i = 1; i < branch.points.size(); ++i) {
    const auto &a = branch.points[i - 1], &b = branch.points[i];
    if ((omega - a.parameter) * (omega - b.parameter) > 0) continue;
    if (a.orbit.events != impacts || b.orbit.events != impacts || a.orbit.stable() != stable || b.orbit.stable() != stable)
      continue;
    const double w = (omega - a.parameter) / (b.parameter - a.parameter);
    StrobeSample guess = a.orbit.state;
    for (std::size_t k = 0; k < 4; ++k) guess.state[k] += w * (b.orbit.state.state[k] - a.orbit.state.state[k]);
    values.set("omega", omega);
    auto simulation = model.start(values);
    return shoot_periodic_orbit(*simulation, guess, 1);
  }
  FAIL("omega " << omega << " is not on the branch with " << impacts << " impacts and stable = " << stable);
  return {};
}

// The frequency above 7 rad/s at which the impact-free orbit's relative amplitude is the gap D.
double linear_grazing_omega(ParameterSet values) {
  double lo = 7.0, hi = 7.6;
  auto grazing_lambda = [&](double omega) {
    values.set("omega", omega);
    return two_body::linear_response(two_body::GapOscillatorConstants::from(values)).grazing_lambda;
  };
  REQUIRE(grazing_lambda(lo) < 1);
  REQUIRE(grazing_lambda(hi) > 1);
  while (hi - lo > 1e-12) (grazing_lambda(0.5 * (lo + hi)) < 1 ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_CASE("Model A (1,1) branch in omega by arclength: round the fold at the top of the impacting range, "
          "unstable back to grazing, agreeing with both sweeps",
          "[two_body][continuation][arclength]") {
  const SweepSpec up_spec = sweep_in_omega("7.0, 7.1, 7.2, 7.3, 7.4", "up");        // the impacting (1,1) orbit
  const SweepSpec down_spec = sweep_in_omega("7.3, 7.35, 7.4, 7.5, 7.6", "down");  // the impact-free orbit
  const SweepRun up = run_sweep(up_spec), down = run_sweep(down_spec);
  for (const auto& c : up.cases) REQUIRE(c.class_code == "(1,1)");
  for (const auto& c : down.cases) REQUIRE(c.class_code == "L");
  const Model& model = *up_spec.model;
  const ParameterSet values = up_spec.case_parameters(0);

  ContinuationSettings settings;
  settings.step = 0.01;
  settings.max_step = 0.02;
  const Branch branch = continue_by_arclength(model, values, "omega", 7.0, 7.6, up.cases[0].final_state, 1, settings);
  INFO(branch.end << ", " << branch.points.size() << " points");
  for (const auto& q : branch.points) std::printf("DBG %.8f %lld %d %.6f %.6f | %.8f %.8f %.8f %.8f\n", q.parameter, q.orbit.events, (int)q.orbit.stable(), q.orbit.multipliers[0].real(), std::abs(q.orbit.multipliers[0]), q.orbit.state.state[0], q.orbit.state.state[1], q.orbit.state.state[2], q.orbit.state.state[3]);
  for (const auto& e : branch.events) std::printf("EV %s %.8f %s\n", e.kind.c_str(), e.parameter, e.detail.c_str());
  std::printf("grazing omega %.8f\n", linear_grazing_omega(values));
  for (const auto& e : branch.events) INFO(e.kind << " at " << e.parameter << " (" << e.detail << ")");
  REQUIRE(branch.end == "reached the end of the range");

  // The natural method stops at the fold (its last point is below it) and never reaches the linear orbit.
  const Branch natural = continue_periodic_orbit(model, values, "omega", 7.0, 7.6, up.cases[0].final_state, 1, settings);
  INFO("natural: " << natural.end);
  CHECK(natural.end != "reached the end of the range");
}
