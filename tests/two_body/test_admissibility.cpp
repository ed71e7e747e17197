// Admissibility of the compliant contact (issue: no tensile contact force): the smallest force the
// contact transmits over the window, elastic plus contact damping, as the observable min_contact_force.
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/branch_admissibility.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

double min_contact_force(const std::string& ini, const std::vector<std::string>& overrides) {
  const SweepSpec spec = parse_sweep(ini, "admissibility.ini", overrides);
  const SweepRun run = run_sweep(spec);
  REQUIRE(run.cases.size() == 1);
  REQUIRE(run.cases[0].status == CaseStatus::Ok);
  const auto names = spec.model->observables();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i].name == "min_contact_force") return run.cases[0].observables.at(i);
  FAIL("no min_contact_force observable");
  return 0;
}

const std::string kModelB =
    "model = vibro_platform\n[parameters]\nlaw = hertz\nE1 = 3e8\nR = 3.3333333333333335\nphase = 0\n"
    "[run]\nmax_periods = 1500\nwindow_periods = 24\n";

}  // namespace

TEST_CASE("Model B's Hertz block with viscous damping pulls on the form before it separates", "[two_body]") {
  // Model B's block damper (literal: on the form's absolute velocity; or relative) acts while
  // z > 0, so near separation the total force turns tensile: the model is not admissible there.
  const double literal = min_contact_force(kModelB, {});
  const double relative = min_contact_force(kModelB, {"--parameters.damping=relative"});
  CHECK(literal < -100);  // measured -1.10 kN against a 362 kN peak
  CHECK(relative < -1000);  // measured -12.4 kN against 358 kN
  // Without block damping the force is elastic only: never tensile.
  CHECK(min_contact_force(kModelB, {"--parameters.xi0=0"}) >= 0);
}

TEST_CASE("a rigid (restitution) contact transmits no contact force: min_contact_force is NaN", "[two_body]") {
  const std::string model_a = "model = gap_oscillator\n[parameters]\nlambda = 1\nlaw = restitution\n[run]\nmax_periods = 600\n";
  CHECK(std::isnan(min_contact_force(model_a, {})));
}

namespace {

// Model B's orbit at xi0 (R = 3.33, phase 0) continued in the block damping ratio xi0 to `to`, then
// checked for admissibility.
Branch damping_branch(double from, double to) {
  const SweepSpec spec = parse_sweep(kModelB, "branch.ini", {"--parameters.xi0=" + std::to_string(from)});
  const SweepRun run = run_sweep(spec);
  REQUIRE(run.cases[0].has_final_state);
  REQUIRE(run.cases[0].period > 0);
  ContinuationSettings settings;
  settings.step = 0.005;
  Branch branch = continue_periodic_orbit(*spec.model, spec.base, "xi0", from, to, run.cases[0].final_state,
                                          run.cases[0].period, settings);
  REQUIRE(branch.points.size() >= 2);
  check_branch_admissibility(*spec.model, spec.base, "xi0", run.cases[0].period, branch);
  return branch;
}

}  // namespace

TEST_CASE("continuation stops where a branch turns non-physical, and flags one that starts so", "[two_body][continuation]") {
  // Undamped block: elastic forces only, admissible; any block damping makes the block pull on the
  // form as it leaves (its velocity is upward there).
  const Branch up = damping_branch(0.0, 0.02);
  REQUIRE(up.points.size() == 1);
  CHECK(up.points[0].admissibility.measured);
  CHECK(up.points[0].admissibility.admissible);
  CHECK(up.points[0].admissibility.min_contact_force >= 0);
  REQUIRE(!up.events.empty());
  CHECK(up.events.back().kind == "inadmissible");
  CHECK(up.end.find("non-physical after xi0 = 0") != std::string::npos);
  CHECK(up.end.find("pulls") != std::string::npos);

  const Branch down = damping_branch(0.02, 0.0);
  CHECK(down.points.size() > 2);
  CHECK(down.end.find("not admissible from the start") != std::string::npos);
  CHECK_FALSE(down.points.front().admissibility.admissible);
  CHECK(down.points.front().admissibility.min_contact_force < 0);
  CHECK(down.points.back().parameter == 0.0);
  CHECK(down.points.back().admissibility.admissible);
}
