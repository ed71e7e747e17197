// Branch switching at Model A's grazing in lambda (omega = 6), where both families lie on one side: the
// impact-free orbit exists below lambda* = 0.5670028 and grazes there; the unstable (1,1) orbits born at
// the grazing also lie below it, down to the fold at lambda = 0.5643801 where they turn back into the
// stable (1,1) branch (arclength from lambda = 1 down locates that fold and the Neimark-Sacker point at
// 0.5656252 on the stable part: docs/validation.md). Newton from the grazing orbit finds only the
// impact-free orbit on that side; the switch must still find the impacting branch there.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_events.hpp"
#include "analysis/grazing_switching.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/linear_response.hpp"

using namespace vibro;

TEST_CASE("Model A at omega = 6: switching at the impact-free orbit's grazing finds the unstable (1,1) branch born "
          "on the same side and follows it by arclength through its fold and Neimark-Sacker point",
          "[two_body][continuation][switch]") {
  const SweepSpec spec = parse_sweep(
      "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\nomega = 6\nlambda = 0.5\n"
      "[run]\nmax_periods = 2000\nwindow_periods = 32\n",
      "a.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "L");
  const ParameterSet values = spec.case_parameters(0);
  const double lambda_star =
      two_body::linear_response(two_body::GapOscillatorConstants::from(values)).grazing_lambda;
  const Branch free = continue_periodic_orbit(*spec.model, values, "lambda", 0.5, 0.6, start.cases[0].final_state, 1);
  REQUIRE(free.events.size() == 1);
  const BranchEvent& grazing = free.events.front();
  REQUIRE(grazing.kind == "grazing");
  REQUIRE(std::fabs(grazing.parameter - lambda_star) < 1e-8);

  // Towards lower lambda: the impacting branch starts next to the grazing and meets the fold.
  const Branch born =
      continue_impacting_branch(*spec.model, values, "lambda", grazing, 0.5, {}, continue_by_arclength);
  INFO(born.end);
  REQUIRE(born.points.size() >= 3);
  CHECK(lambda_star - born.points.front().parameter < 1e-3);
  CHECK(born.points.front().orbit.events == 1);
  CHECK(!born.points.front().orbit.stable());
  const std::vector<double> scales = spec.model->start(values)->layout().state_scales;
  CHECK(scaled_distance(born.points.front().orbit.state, grazing.orbit.state, scales) < 0.05);
  const auto located = [&](const std::string& kind) -> double {
    for (const auto& e : born.events)
      if (e.kind == kind) return e.parameter;
    return std::numeric_limits<double>::quiet_NaN();
  };
  // Numbers of the independent route (arclength from the stable (1,1) orbit at lambda = 1 down).
  CHECK(std::fabs(located("fold") - 0.5643801251) < 1e-8);
  CHECK(std::fabs(located("neimark_sacker") - 0.5656252263) < 1e-8);
  for (const auto& q : born.points) CHECK(q.orbit.events == 1);

  // Towards higher lambda there is no impacting orbit next to the grazing: the switch says on which side it is.
  const Branch up = continue_impacting_branch(*spec.model, values, "lambda", grazing, 0.7);
  CHECK(up.points.empty());
  CHECK_THAT(up.end, Catch::Contains("born on the other side of the grazing at lambda = 0.5670027784"));
}
