// A drifting (non-synchronous) ball is a real quasi-periodic steady state: its stroboscopic points lie
// on an invariant circle (psi_dot_1 a smooth function of psi_1, rotation number about -0.1898 per
// revolution). The detector labels it QuasiPeriodic because psi_1, stored modulo 2 pi, is marked
// angular in the layout and enters the Birkhoff test through its cos and sin.
#include <catch2/catch.hpp>
#include <string>

#include "analysis/weighted_birkhoff.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

TEST_CASE("a drifting ball (1 ball, 0.5 omega_n) is quasi-periodic over a 1000-period window",
          "[ball_balancer][analysis]") {
  const std::string ini =
      "model = ball_balancer\n[parameters]\nn_balls = 1\nme_ratio = 1\nballs = point_mass\nspin_ratio = 0.5\n"
      "[run]\nmax_periods = 2000\nwindow_periods = 1000\n";
  const SweepSpec spec = parse_sweep(ini, "drifting_ball.ini", {});
  const SweepRun run = run_sweep(spec);
  const CaseResult& r = run.cases.at(0);
  REQUIRE(r.status == CaseStatus::Ok);
  CHECK(r.class_code == "drifting");
  CHECK(r.periodicity == Periodicity::QuasiPeriodic);
  CHECK(r.period == 0);
  StrobeLayout layout = spec.model->start(spec.case_parameters(0))->layout();
  REQUIRE(layout.is_angle(2));  // psi_1
  CHECK(birkhoff_discrepancy(strobe_window(r), layout) < spec.steady.quasi_tol);
  // Read as a plain number, psi_1 jumps by 2 pi once per turn and hides the torus.
  layout.angular.clear();
  CHECK(birkhoff_discrepancy(strobe_window(r), layout) > 1e-4);
}
