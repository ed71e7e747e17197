// The impact oscillator (zeta 0.05, sigma 0.15, r 0.8) next to the grazing of its (1,1) orbit
// (omega = 2.767836429): the orbit's impact is so slow (largest multiplier about 1700 at omega 2.765)
// that the stroboscopic map at fixed state has a square-root singularity within about 1e-6 of the orbit,
// in the state and in omega relative. The map's Jacobian (variational equations and saltation matrix)
// is right there; a parameter difference at the default step straddles the singularity, and arclength
// continuation must not crawl through it (docs/analysis/continuation.md, "Limits").
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/arclength_continuation.hpp"
#include "analysis/continuation_steps.hpp"
#include "analysis/periodic_shooting.hpp"
#include "engine/core/model_registry.hpp"
#include "impact_oscillator/impact_oscillator_values.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

// The map's image at `x` (one period, with the orbit's impact).
Eigen::Vector2d image(Simulation& simulation, const StrobeSample& x) {
  MapStep step;
  REQUIRE(simulation.stroboscopic_map(x, 1, step));
  REQUIRE(step.events == 1);
  return {step.image.state[0], step.image.state[1]};
}

// Central differences of the map at `x` with step h in each state component.
Eigen::Matrix2d difference_jacobian(Simulation& simulation, const StrobeSample& x, double h) {
  Eigen::Matrix2d jacobian;
  for (int j = 0; j < 2; ++j) {
    StrobeSample plus = x, minus = x;
    plus.state[static_cast<std::size_t>(j)] += h;
    minus.state[static_cast<std::size_t>(j)] -= h;
    jacobian.col(j) = (image(simulation, plus) - image(simulation, minus)) / (2 * h);
  }
  return jacobian;
}

}  // namespace

TEST_CASE("Impact oscillator 3 milli-omega below its grazing: the stroboscopic map's Jacobian equals central "
          "differences of the map (1e-5 relative at h = 1e-9), which lose the impact at h = 1e-6",
          "[impact_oscillator][continuation][saltation]") {
  const auto simulation = model().start(impact_oscillator_values(0.05, 2.765, 0.15, 0.8));
  StrobeSample guess{};
  guess.state[0] = -0.15106;  // near the branch point vibro continue finds there
  guess.state[1] = 0.017315;
  const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, guess, 1);
  REQUIRE(orbit.converged);
  REQUIRE(orbit.events == 1);
  CHECK(std::abs(orbit.multipliers[0]) > 1000);  // about 1672: the slow impact's saltation
  MapStep at;
  REQUIRE(simulation->stroboscopic_map(orbit.state, 1, at));
  const Eigen::Matrix2d analytic = at.jacobian;
  // Central differences converge to it as h^2 (about 1e-4 relative at h = 1e-8, 1e-6 at 1e-9).
  const double error_8 = (analytic - difference_jacobian(*simulation, orbit.state, 1e-8)).norm() / analytic.norm();
  const double error_9 = (analytic - difference_jacobian(*simulation, orbit.state, 1e-9)).norm() / analytic.norm();
  INFO("analytic\n" << analytic << "\nrelative error of the differences at h = 1e-8: " << error_8 << ", 1e-9: " << error_9);
  CHECK(error_8 < 1e-3);
  CHECK(error_9 < 1e-5);
  // The singularity is that close: a state 1e-6 off the orbit in x or v maps without the impact.
  int lost = 0;
  for (const std::size_t j : {0u, 1u})
    for (const double h : {-1e-6, 1e-6}) {
      StrobeSample off = orbit.state;
      off.state[j] += h;
      MapStep step;
      REQUIRE(simulation->stroboscopic_map(off, 1, step));
      lost += step.events == 0;
    }
  CHECK(lost > 0);
}

TEST_CASE("Impact oscillator omega 2 -> 3 by arclength with vibro continue's steps: no crawl before the grazing, "
          "the same events",
          "[impact_oscillator][continuation]") {
  const ParameterSet values = impact_oscillator_values(0.05, 2.0, 0.15, 0.8);
  auto settling = model().start(values);
  Recorder recorder(400);
  settling->run(recorder);
  const ContinuationSettings settings = steps_for_range({}, 2.0, 3.0, {});
  const Branch branch = continue_by_arclength(model(), values, "omega", 2.0, 3.0, recorder.samples.back(), 1, settings);
  INFO(branch.end << ", " << branch.points.size() << " points");
  REQUIRE(branch.end == "reached the end of the range");
  REQUIRE(branch.events.size() == 2);
  CHECK(branch.events[0].kind == "period_doubling");
  CHECK(branch.events[0].parameter == Approx(2.360383675).margin(1e-9));
  CHECK(branch.events[1].kind == "grazing");
  CHECK(branch.events[1].parameter == Approx(2.767836429).margin(1e-9));
  // With the parameter column one-sided at h = 1e-5 |p| (60 % off) the corrector converged linearly next
  // to omega 2.765 and the step never grew back: 214 points from this start (449 from vibro continue's),
  // the closest 1.4e-6 apart. With the refined difference 86, none closer than 9.5e-4.
  CHECK(branch.points.size() < 120);
  double closest = 1;
  for (std::size_t i = 1; i < branch.points.size(); ++i)
    closest = std::min(closest, std::fabs(branch.points[i].parameter - branch.points[i - 1].parameter));
  CHECK(closest > 1e-4);
}
