// Model A's grazing curve in (omega, lambda) (analysis/codim1_curve): the impact-free orbit grazes where
// its relative amplitude |X1 - X2| reaches the gap D, lambda*(omega) = D / |X1 - X2| per unit force
// (models/two_body/linear_response). The curve is traced from the grazing that arclength continuation
// locates in omega at lambda = 1 (omega = 7.249052, where the branch turns back) down to the threshold
// lambda* = 0.5670028 at omega = 6 that the model's continuation tests check, and back from there.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <string>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_character.hpp"
#include "analysis/codim1_curve.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/linear_response.hpp"

using namespace vibro;

namespace {

const std::string kModelA = "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n";

double grazing_lambda(ParameterSet values, double omega) {
  values.set("omega", omega);
  return two_body::linear_response(two_body::GapOscillatorConstants::from(values)).grazing_lambda;
}

// The branch's grazing, located by arclength continuation from the (1,1) orbit a sweep settles on.
struct Located {
  SweepSpec spec;
  Branch branch;
  BranchEvent grazing;  // the event located (a grazing, or the kind asked for)
};
Located event_on_branch(const std::string& kind, const std::string& parameters, const std::string& parameter,
                        double from, double to) {
  Located out;
  SweepSpec& spec = out.spec;
  spec = parse_sweep(kModelA + parameters + "[run]\nmax_periods = 2000\nwindow_periods = 32\n", "a.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "(1,1)");
  ContinuationSettings settings;
  settings.step = 0.01;
  settings.max_step = 0.02;
  out.branch =
      continue_by_arclength(*spec.model, spec.case_parameters(0), parameter, from, to, start.cases[0].final_state, 1, settings);
  for (const auto& e : out.branch.events)
    if (e.kind == kind) {
      out.grazing = e;
      return out;
    }
  FAIL("no " << kind << " on the branch: " << out.branch.end);
  return out;
}

Located grazing_on_branch(const std::string& parameters, const std::string& parameter, double from, double to) {
  return event_on_branch("grazing", parameters, parameter, from, to);
}

double worst_error(const Curve& curve, const ParameterSet& values, bool omega_first) {
  double worst = 0;
  for (const auto& q : curve.points) {
    const double omega = omega_first ? q.parameter_1 : q.parameter_2, lambda = omega_first ? q.parameter_2 : q.parameter_1;
    worst = std::max(worst, std::fabs(lambda - grazing_lambda(values, omega)));
    CHECK(q.orbit.events == 0);
  }
  return worst;
}

}  // namespace

TEST_CASE("Model A grazing curve in (omega, lambda) from the grazing at omega = 7.249052, lambda = 1 (located in omega) "
          "down to lambda = 0.5670028: every point within 1e-6 of lambda*(omega)",
          "[two_body][curve]") {
  const Located in_omega = grazing_on_branch("omega = 7\n", "omega", 7.0, 7.6);
  const SweepSpec& spec = in_omega.spec;
  const BranchEvent& grazing = in_omega.grazing;
  CHECK(grazing.parameter == Approx(7.249052).margin(1e-6));
  const ParameterSet values = spec.case_parameters(0);
  const double threshold = grazing_lambda(values, 6.0);
  REQUIRE(threshold == Approx(0.5670028).margin(1e-7));
  const auto started = std::chrono::steady_clock::now();
  const Curve curve = continue_codim1_curve(*spec.model, values, "omega", "lambda", grazing, threshold, {},
                                            meeting_guesses(in_omega.branch, grazing));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(curve.end << ", " << curve.points.size() << " points");
  REQUIRE(curve.end == "reached the end of the range");
  const double worst = worst_error(curve, values, true);
  WARN(std::setprecision(3) << "Model A grazing curve in (omega, lambda), lambda 1 -> " << threshold << ": "
                            << curve.points.size() << " points, largest |lambda - lambda*(omega)| = " << worst
                            << ", first omega - 7.249052273 = " << curve.points.front().parameter_1 - 7.249052273
                            << ", last omega = " << curve.points.back().parameter_1 << ", " << seconds << " s");
  CHECK(worst < 1e-6);
  CHECK(curve.points.front().parameter_1 == Approx(7.249052273).margin(1e-6));
  CHECK(curve.points.front().parameter_2 == 1.0);
  // lambda*(omega) has its minimum between omega = 6 and 7: coming down from omega = 7.249, the curve meets
  // lambda = 0.5670028 again above omega = 6.
  CHECK(curve.points.back().parameter_1 > 6.5);
  CHECK(curve.points.back().parameter_1 < 7.0);
}

TEST_CASE("Model A grazing curve in (lambda, omega) from the threshold lambda* = 0.5670028 at omega = 6 (located in "
          "lambda) up to omega = 6.4: every point within 1e-6 of lambda*(omega)",
          "[two_body][curve]") {
  // The whole way up to omega = 7.249052, where the curve reaches lambda = 1 (30 points, 35 s), is the
  // example examples/gap_oscillator_grazing_curve.ini (docs/validation.md).
  const Located in_lambda = grazing_on_branch("lambda = 1\n", "lambda", 1.0, 0.55);
  CHECK(in_lambda.grazing.parameter == Approx(0.5670028).margin(1e-6));
  const ParameterSet values = in_lambda.spec.case_parameters(0);
  const auto started = std::chrono::steady_clock::now();
  const Curve curve = continue_codim1_curve(*in_lambda.spec.model, values, "lambda", "omega", in_lambda.grazing, 6.4, {},
                                            meeting_guesses(in_lambda.branch, in_lambda.grazing));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(curve.end << ", " << curve.points.size() << " points");
  REQUIRE(curve.end == "reached the end of the range");
  const double worst = worst_error(curve, values, false);
  WARN(std::setprecision(3) << "Model A grazing curve in (lambda, omega), omega 6 -> 6.4: " << curve.points.size()
                            << " points, largest |lambda - lambda*(omega)| = " << worst << ", first lambda - 0.5670028 = "
                            << curve.points.front().parameter_1 - 0.5670028 << ", " << seconds << " s");
  CHECK(worst < 1e-6);
  CHECK(curve.points.front().parameter_1 == Approx(0.5670028).margin(1e-6));
  CHECK(curve.points.front().parameter_2 == 6.0);
  CHECK(curve.points.back().parameter_2 == Approx(6.4).margin(1e-12));
  CHECK(curve.points.size() >= 3);
}

TEST_CASE("Model A fold curve in (omega, lambda) from the fold at omega = 7.444176, lambda = 1, up to lambda = 2: "
          "its end is the fold that continuation in omega locates at lambda = 2 (8.341090), to 1e-6",
          "[two_body][curve]") {
  const Located at_one = event_on_branch("fold", "omega = 7\n", "omega", 7.0, 7.6);
  CHECK(at_one.grazing.parameter == Approx(7.444176405).margin(1e-6));
  const auto started = std::chrono::steady_clock::now();
  const Curve curve =
      continue_codim1_curve(*at_one.spec.model, at_one.spec.case_parameters(0), "omega", "lambda", at_one.grazing, 2.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(curve.end << ", " << curve.points.size() << " points");
  REQUIRE(curve.end == "reached the end of the range");
  for (const auto& q : curve.points) {
    CHECK(q.orbit.events == 1);
    CHECK(std::abs(critical_multiplier(q.orbit) - 1.0) < 1e-6);
  }
  // Independently: the (1,1) branch in omega at lambda = 2, by arclength round its fold.
  const Located at_two = event_on_branch("fold", "omega = 7.9\nlambda = 2\n", "omega", 7.9, 8.6);
  WARN(std::setprecision(10) << "Model A fold curve to lambda = 2: " << curve.points.size() << " points, ends at omega = "
                             << curve.points.back().parameter_1 << "; the fold located in omega at lambda = 2: "
                             << at_two.grazing.parameter << ", difference "
                             << curve.points.back().parameter_1 - at_two.grazing.parameter << " (" << seconds << " s)");
  CHECK(curve.points.back().parameter_2 == Approx(2.0).margin(1e-12));
  CHECK(curve.points.back().parameter_1 == Approx(at_two.grazing.parameter).margin(1e-6));
}

TEST_CASE("Model A from the impact-free orbit up in lambda at omega = 6: natural and arclength branches end at its "
          "grazing, located within 1e-8 of lambda* = 0.5670028, where the motion jumps to the coexisting (1,1) orbit",
          "[two_body][continuation]") {
  // The impact-free orbit grazes at lambda*; the (1,1) orbit beyond it lies 0.19 state scales away, on
  // the branch that comes down to 0.552 (hysteresis). Natural continuation cannot continue the orbit past
  // its grazing: it must locate the grazing and end there with that reason, not stop short of it.
  const SweepSpec spec = parse_sweep(kModelA + "omega = 6\nlambda = 0.5\n[run]\nmax_periods = 2000\nwindow_periods = 32\n",
                                     "a.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "L");
  const ParameterSet values = spec.case_parameters(0);
  const Branch branch = continue_periodic_orbit(*spec.model, values, "lambda", 0.5, 0.6, start.cases[0].final_state, 1);
  INFO(branch.end);
  REQUIRE(branch.events.size() == 1);
  CHECK(branch.events[0].kind == "grazing");
  CHECK(std::fabs(branch.events[0].parameter - grazing_lambda(values, 6.0)) < 1e-8);
  CHECK_THAT(branch.end, Catch::Contains("grazes at lambda = 0.56700277") && Catch::Contains("another branch"));
  for (const auto& point : branch.points) CHECK(point.orbit.events == 0);
  // Arclength continuation gets there by its natural fallback and ends the same way.
  const Branch by_arclength = continue_by_arclength(*spec.model, values, "lambda", 0.5, 0.6, start.cases[0].final_state, 1);
  INFO(by_arclength.end);
  REQUIRE(by_arclength.events.size() == 1);
  CHECK(by_arclength.ends_at_grazing);
  CHECK(std::fabs(by_arclength.events[0].parameter - grazing_lambda(values, 6.0)) < 1e-8);
}

TEST_CASE("Model A fold curve in (omega, lambda) from the fold at omega = 7.444176, lambda = 1, down in lambda: it "
          "ends by name where it meets the grazing curve lambda*(omega), the grazing there within 1e-9 of it",
          "[two_body][curve]") {
  // Before, the curve ended "step below the minimum (1e-06): the corrector did not converge ..." at
  // (6.622305263, 0.510246615), 1.1e-7 below lambda*(omega), without naming the point.
  const Located at_one = event_on_branch("fold", "omega = 7\n", "omega", 7.0, 7.6);
  const ParameterSet values = at_one.spec.case_parameters(0);
  const auto started = std::chrono::steady_clock::now();
  const Curve curve = continue_codim1_curve(*at_one.spec.model, values, "omega", "lambda", at_one.grazing, 0.4);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(curve.end << ", " << curve.points.size() << " points");
  REQUIRE(curve.end_kind == "meets_grazing");
  CHECK(curve.end.rfind("fold meets grazing at (omega, lambda) = (", 0) == 0);
  for (const auto& q : curve.points) {
    CHECK(q.orbit.events == 1);
    CHECK(std::abs(critical_multiplier(q.orbit) - 1.0) < 1e-6);
  }
  const CurvePoint& last = curve.points.back();
  const double off = curve.meets.parameter_2 - grazing_lambda(values, curve.meets.parameter_1);
  WARN(std::setprecision(10) << "Model A fold curve down in lambda: " << curve.points.size() << " points, last ("
                             << last.parameter_1 << ", " << last.parameter_2 << "), lambda*(omega) - lambda there "
                             << grazing_lambda(values, last.parameter_1) - last.parameter_2 << "; meets grazing at ("
                             << curve.meets.parameter_1 << ", " << curve.meets.parameter_2 << "), lambda - lambda*(omega) "
                             << off << ", distance " << curve.meets_distance << " (" << seconds << " s)");
  CHECK(curve.meets.orbit.events == 0);
  CHECK(std::fabs(off) < 1e-9);
  CHECK(curve.meets_distance < 1e-8);
  // The meeting point lies between omega = 6.6 and 6.63 (the grazing curve's minimum is below 6.75).
  CHECK(curve.meets.parameter_1 > 6.6);
  CHECK(curve.meets.parameter_1 < 6.63);
}
