// Two-parameter curves of the impact oscillator's codimension-one points (analysis/codim1_curve) against
// the closed form (Shaw and Holmes 1983): the impact-free orbit grazes where its harmonic amplitude
// 1 / sqrt((1 - w^2)^2 + (2 zeta w)^2) equals the stop's distance sigma, so the grazing curve in
// (omega, sigma) is sigma = amplitude(omega); the (1,1) orbit doubles its period where the closed-form
// impact map has a multiplier -1.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <string>

#include "analysis/codim1_curve.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/model_registry.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"
#include "support/model_fixture.hpp"
#include "impact_oscillator/impact_oscillator_values.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

constexpr double kZeta = 0.05, kR = 0.8;

ParameterSet values_at(double omega, double sigma) { return impact_oscillator_values(kZeta, omega, sigma, kR); }

// The frequency above resonance where the harmonic amplitude equals sigma.
double grazing_omega(double sigma) {
  const auto amplitude = [&](double w) { return ShawHolmes{kZeta, w, sigma, kR}.amplitude(); };
  double lo = 1.0, hi = 10.0;
  while (hi - lo > 1e-14) (amplitude(0.5 * (lo + hi)) > sigma ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}

// The (1,1) branch in omega from 1.6 (the orbit a simulation from rest settles on there) to 2.3.
Branch one_one_branch(double sigma) {
  const ParameterSet values = values_at(1.6, sigma);
  auto simulation = model().start(values);
  Recorder recorder(400);
  simulation->run(recorder);
  return continue_periodic_orbit(model(), values, "omega", 1.6, 2.3, recorder.samples.back(), 1);
}

const BranchEvent& event_of(const Branch& branch, const std::string& kind) {
  for (const auto& e : branch.events)
    if (e.kind == kind) return e;
  FAIL("the branch has no " << kind);
  return branch.events.front();
}

}  // namespace

TEST_CASE("Impact oscillator grazing curve in (omega, sigma): every point within 1e-8 of the closed form, up and down "
          "from sigma = 0.25",
          "[impact_oscillator][curve]") {
  const Branch branch = one_one_branch(0.25);
  const BranchEvent& grazing = event_of(branch, "grazing");
  const double to = GENERATE(0.4, 0.1);
  const auto started = std::chrono::steady_clock::now();
  const Curve curve = continue_codim1_curve(model(), values_at(1.6, 0.25), "omega", "sigma", grazing, to, {},
                                            meeting_guesses(branch, grazing));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO("to sigma = " << to << ": " << curve.end << ", " << curve.points.size() << " points, " << seconds << " s");
  REQUIRE(curve.end == "reached the end of the range");
  CHECK(curve.points.size() >= 10);
  CHECK(curve.points.back().parameter_2 == Approx(to).margin(1e-12));
  CHECK(curve.meeting_impacts == 1);
  double worst = 0;
  for (const auto& q : curve.points) {
    worst = std::max(worst, std::fabs(q.parameter_1 - grazing_omega(q.parameter_2)));
    CHECK(q.orbit.events == 0);
    CHECK(q.orbit.stable());
  }
  WARN(std::setprecision(3) << "grazing curve to sigma = " << to << ": " << curve.points.size()
                            << " points, largest |omega - closed form| = " << worst << ", " << seconds << " s");
  CHECK(worst < 1e-8);
}

TEST_CASE("Impact oscillator period-doubling curve in (omega, sigma): at every point the closed-form impact map's "
          "multiplier crosses -1 within 1e-8 in omega, down and up from sigma = 0.25",
          "[impact_oscillator][curve]") {
  const Branch branch = one_one_branch(0.25);
  const BranchEvent& doubling = event_of(branch, "period_doubling");
  const double to = GENERATE(0.3, 0.15);
  const auto started = std::chrono::steady_clock::now();
  const Curve curve = continue_codim1_curve(model(), values_at(1.6, 0.25), "omega", "sigma", doubling, to);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO("to sigma = " << to << ": " << curve.end << ", " << curve.points.size() << " points, " << seconds << " s");
  REQUIRE(curve.end == "reached the end of the range");
  CHECK(curve.points.size() >= 5);
  CHECK(curve.points.back().parameter_2 == Approx(to).margin(1e-12));
  // 1 + tr J + det J of the closed-form impact map's Jacobian at the (1,1) orbit: zero where a
  // multiplier is -1, of opposite signs on either side.
  const auto margin = [](double omega, double sigma) {
    const ShawHolmes closed{kZeta, omega, sigma, kR};
    const auto orbits = closed.single_impact_orbits();
    REQUIRE(orbits.size() == 1);
    const Eigen::Matrix2d J = closed.impact_map_jacobian(orbits.front());
    return 1 + J.trace() + J.determinant();
  };
  double worst = 0;
  for (const auto& q : curve.points) {
    INFO(std::setprecision(12) << "omega " << q.parameter_1 << ", sigma " << q.parameter_2);
    CHECK(q.orbit.events == 1);
    double lo = q.parameter_1 - 1e-8, hi = q.parameter_1 + 1e-8;
    const double at_lo = margin(lo, q.parameter_2);
    REQUIRE((at_lo > 0) != (margin(hi, q.parameter_2) > 0));
    while (hi - lo > 1e-13) ((margin(0.5 * (lo + hi), q.parameter_2) > 0) == (at_lo > 0) ? lo : hi) = 0.5 * (lo + hi);
    worst = std::max(worst, std::fabs(q.parameter_1 - 0.5 * (lo + hi)));
  }
  WARN(std::setprecision(3) << "period-doubling curve to sigma = " << to << ": " << curve.points.size()
                            << " points, largest |omega - closed form| = " << worst << ", " << seconds << " s");
}

TEST_CASE("Impact oscillator grazing curve with steps forced wide (half the scale, first step 0.125 in sigma): "
          "every accepted point still lies on the closed form",
          "[impact_oscillator][curve]") {
  const Branch branch = one_one_branch(0.25);
  const BranchEvent& grazing = event_of(branch, "grazing");
  CurveSettings wide;
  wide.step = wide.max_step = 0.5;
  const Curve curve = continue_codim1_curve(model(), values_at(1.6, 0.25), "omega", "sigma", grazing, 0.4, wide,
                                            meeting_guesses(branch, grazing));
  INFO(curve.end << ", " << curve.points.size() << " points");
  REQUIRE(curve.end == "reached the end of the range");
  double worst = 0;
  for (const auto& q : curve.points) {
    worst = std::max(worst, std::fabs(q.parameter_1 - grazing_omega(q.parameter_2)));
    CHECK(q.orbit.events == 0);
  }
  WARN(std::setprecision(3) << "wide steps: " << curve.points.size() << " points, largest |omega - closed form| = " << worst);
  CHECK(worst < 1e-8);
}
