// Two-parameter curves of the conveyor's one-periodic hopping (analysis/codim1_curve) against the
// conveyor paper's closed forms: the orbit is born in a fold at the critical amplitude (Eq. 64) and
// doubles its period at the stability limit (Eq. 40). Each curve is traced in (a_hat, c_r) from
// c_r = 0.6 up to 0.9 and down to 0.3, from the event located on the branch in a_hat. The orbit born
// in the fold impacts at the plate's phase 0: with the plate's phase 0 at t = 0 (the default) that
// impact lies on the stroboscopic section t = k T, where the map is not differentiable, so the fold is
// traced with the section at the plate's phase pi (phase = pi), half a period from every impact.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <iomanip>

#include "analysis/arclength_continuation.hpp"
#include "analysis/codim1_curve.hpp"
#include "analysis/orbit_continuation.hpp"
#include "conveyor/conveyor_fixture.hpp"
#include "engine/core/model_registry.hpp"
#include "models/conveyor/conveyor_analytic.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;

namespace {
const BranchEvent& event_of(const Branch& branch, const std::string& kind) {
  for (const auto& e : branch.events)
    if (e.kind == kind) return e;
  FAIL("the branch has no " << kind << ": " << branch.end);
  return branch.events.front();
}

// Traces the curve up to c_r = 0.9 and down to 0.3; every point against `closed_form`, with a multiplier
// at `critical` (+1 at a fold, -1 at a period doubling).
void check_curve(const BranchEvent& event, const ParameterSet& values, double (*closed_form)(double, double, double, int),
                 double critical, const char* name) {
  const Model& model = ModelRegistry::instance().get("conveyor");
  std::size_t points = 0;
  for (const double to : {0.9, 0.3}) {
    const auto started = std::chrono::steady_clock::now();
    const Curve curve = continue_codim1_curve(model, values, "a_hat", "c_r", event, to);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(name << " to c_r = " << to << ": " << curve.end << ", " << curve.points.size() << " points");
    REQUIRE(curve.end == "reached the end of the range");
    CHECK(curve.points.back().parameter_2 == Approx(to).margin(1e-12));
    double worst = 0;
    for (const auto& q : curve.points) {
      worst = std::max(worst, std::fabs(q.parameter_1 - closed_form(q.parameter_2, kPhi, 9.81, 1)));
      CHECK(q.orbit.events == 1);
      // The others are c_r^2 (the normal map's determinant over the critical one) and 0 (vT clamped).
      REQUIRE(!q.orbit.multipliers.empty());
      CHECK(std::abs(q.orbit.multipliers.front() - critical) < 1e-6);
    }
    WARN(std::setprecision(3) << name << " curve to c_r = " << to << ": " << curve.points.size()
                              << " points, largest |a_hat - closed form| = " << worst << " m/s^2, " << seconds << " s");
    CHECK(worst < 1e-6);
    points += curve.points.size();
  }
  CHECK(points >= 21);  // 20 points apart from the shared start
}
}  // namespace

TEST_CASE("Conveyor: the period-doubling curve of one-periodic hopping in (a_hat, c_r) over c_r in [0.3, 0.9] within "
          "1e-6 of the stability limit (Eq. 40)",
          "[conveyor][curve]") {
  const Hopping h = hopping(50);
  const Model& model = ModelRegistry::instance().get("conveyor");
  const Branch up = continue_periodic_orbit(model, h.values, "a_hat", 50, 64, h.sample, 1);
  check_curve(event_of(up, "period_doubling"), h.values, analytic::stability_limit, -1.0, "period-doubling");
}

TEST_CASE("Conveyor: the fold (birth) curve of one-periodic hopping in (a_hat, c_r) over c_r in [0.3, 0.9] within "
          "1e-6 of the critical amplitude (Eq. 64), the section at the plate's phase pi",
          "[conveyor][curve]") {
  const Hopping h = hopping(50, M_PI);
  const Model& model = ModelRegistry::instance().get("conveyor");
  // Down in a_hat by arclength round the fold (natural continuation cannot pass it), onto the unstable
  // orbit born with the stable one there.
  const Branch down = continue_by_arclength(model, h.values, "a_hat", 50, 30, h.sample, 1);
  const BranchEvent& fold = event_of(down, "fold");
  const double critical = analytic::critical_amplitude(0.6, kPhi, 9.81, 1);
  WARN(std::setprecision(3) << "fold located in a_hat at c_r = 0.6: " << fold.parameter - critical
                            << " m/s^2 from the critical amplitude");
  CHECK(std::fabs(fold.parameter - critical) < 1e-8);
  CHECK(std::abs(fold.multiplier - 1.0) < 1e-6);
  check_curve(fold, h.values, analytic::critical_amplitude, 1.0, "fold");
}


TEST_CASE("Conveyor at the default phase 0: continuation down in a_hat cannot map past the born orbit's impact at the "
          "section, and ends at the fold estimated from the multiplier within 1e-8 of the critical amplitude, saying so",
          "[conveyor][continuation]") {
  const Hopping h = hopping(50);
  const Model& model = ModelRegistry::instance().get("conveyor");
  const double critical = analytic::critical_amplitude(0.6, kPhi, 9.81, 1);
  ContinuationSettings settings;
  settings.max_step = 2;
  const Branch natural = continue_periodic_orbit(model, h.values, "a_hat", 50, 30, h.sample, 1, settings);
  const Branch arclength = continue_by_arclength(model, h.values, "a_hat", 50, 30, h.sample, 1, settings);
  for (const Branch* branch : {&natural, &arclength}) {
    INFO(branch->method << ": " << branch->end);
    CHECK_THAT(branch->end, Catch::StartsWith("the branch ends at a fold near a_hat = 37.057829") &&
                                Catch::Contains("not located"));
    REQUIRE(!branch->events.empty());
    const BranchEvent& fold = branch->events.back();
    CHECK(fold.kind == "fold");
    CHECK_THAT(fold.detail, Catch::StartsWith("estimated, not located"));
    CHECK(!fold.orbit.converged);
    WARN(std::setprecision(3) << branch->method << ": fold estimated " << fold.parameter - critical
                              << " m/s^2 from the critical amplitude");
    CHECK(std::fabs(fold.parameter - critical) < 1e-8);
  }
}
