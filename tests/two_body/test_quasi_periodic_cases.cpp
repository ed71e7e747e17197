// The detector's quasi-periodic test on real two-body cases that are not tori: a chaotic Model B case
// and a locked long-period orbit of Model A below its grazing point (both stay X, not Q).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "analysis/weighted_birkhoff.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

// The Birkhoff discrepancy of case i's stored window.
double discrepancy(const SweepSpec& spec, const SweepRun& run, long long i) {
  const StrobeLayout layout = spec.model->start(spec.case_parameters(i))->layout();
  return birkhoff_discrepancy(strobe_window(run.cases[static_cast<std::size_t>(i)]), layout);
}

}  // namespace

TEST_CASE("a chaotic Model B case (m2 = 3000 kg, Lyapunov exponent > 1/s) is X, not Q, over 400 periods",
          "[two_body][analysis]") {
  const std::string ini =
      "model = vibro_platform\n[parameters]\nlaw = hertz\nR = 5\nm2 = 3000\n[run]\nmax_periods = 600\nwindow_periods = "
      "400\n"
      "[output]\nlyapunov_periods = 300\n";
  const SweepSpec spec = parse_sweep(ini, "model_b_chaos.ini", {});
  const SweepRun run = run_sweep(spec);
  const auto& r = run.cases.at(0);
  REQUIRE(r.status == CaseStatus::Ok);
  REQUIRE(r.strobe.size() == 401);
  REQUIRE(r.lyapunov.size() == 4);
  CHECK(r.lyapunov[0] > 1.0);  // independent evidence of chaos
  CHECK(r.periodicity == Periodicity::NotConverged);
  CHECK(r.class_code == "X");
  CHECK(discrepancy(spec, run, 0) > 1e-4);  // 100 times the threshold
}

TEST_CASE("Model A's locked period-21 orbit below grazing passes the Birkhoff test but is not Q",
          "[two_body][analysis]") {
  // Continued down from the (1,1) orbit at lambda = 0.6 (hysteresis found by the shooting reference): at 0.565 the run
  // settles on a period-21 orbit with 18 impacts, on the invariant circle of the irregular band.
  const std::string ini =
      "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n[axes]\nlambda = 0.6, 0.57, 0.566, 0.565\n"
      "[run]\ncontinuation = lambda\nmax_periods = 1600\nwindow_periods = 1000\n";
  SweepSpec spec = parse_sweep(ini, "model_a_locked.ini", {});
  SweepRun run = run_sweep(spec);
  REQUIRE(run.cases.at(3).status == CaseStatus::Ok);
  CHECK(discrepancy(spec, run, 3) < spec.steady.quasi_tol);
  CHECK(run.cases[3].periodicity == Periodicity::NotConverged);
  CHECK(run.cases[3].class_code == "X");
  spec.steady.max_period = 30;
  run = run_sweep(spec);
  CHECK(run.cases.at(3).class_code == "(21,18)");
}
