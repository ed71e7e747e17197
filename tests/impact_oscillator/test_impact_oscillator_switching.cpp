// Branch switching on the impact oscillator (zeta = 0.05, sigma = 0.25, r = 0.8) at a grazing: the
// impact-free orbit continued down in omega grazes where the harmonic amplitude reaches the stop, and
// the (1,1) branch born there is the closed form's (Shaw and Holmes 1983).
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

#include "analysis/grazing_switching.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/model_registry.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

constexpr double kZeta = 0.05, kSigma = 0.25, kR = 0.8;

ParameterSet values_at(double omega) {
  const auto text = [](double v) {
    std::ostringstream s;
    s << std::setprecision(17) << v;
    return s.str();
  };
  return parameter_values(model().parameters(),
                          {{"zeta", text(kZeta)}, {"omega", text(omega)}, {"sigma", text(kSigma)}, {"r", text(kR)}});
}

// The impact-free orbit's point on the section t = k T: the harmonic response at t = 0.
StrobeSample impact_free_state(double omega) {
  const ShawHolmes form{kZeta, omega, kSigma, kR};
  StrobeSample s{};
  const Eigen::Vector2d y = form.harmonic(0);
  s.state[0] = y[0];
  s.state[1] = y[1];
  return s;
}

std::string listed(const Branch& branch) {
  std::ostringstream text;
  text << std::setprecision(12) << branch.end << ", " << branch.points.size() << " points; events:";
  for (const auto& e : branch.events) text << " " << e.kind << " at " << e.parameter << " (" << e.detail << ");";
  return text.str();
}

}  // namespace

TEST_CASE("Impact oscillator: switching at the impact-free orbit's grazing gives the (1,1) branch of the closed form, "
          "leaving the grazing on the impacting side",
          "[impact_oscillator][continuation][switch]") {
  // Towards 2.2 Newton finds the (1,1) orbit from the grazing orbit next to the grazing; towards 2.0 (a
  // range 7 times longer, so offsets 7 times farther) it does not, and the switch steps over the
  // grazing from the impact-free side and fills in back towards it.
  const double from = 2.3, to = GENERATE(2.2, 2.0);
  const ParameterSet values = values_at(from);
  const Branch free = continue_periodic_orbit(model(), values, "omega", from, to, impact_free_state(from), 1);
  INFO("to " << to << ": " << listed(free));
  REQUIRE(!free.events.empty());
  const BranchEvent& grazing = free.events.front();
  REQUIRE(grazing.kind == "grazing");
  // Closed form: the harmonic amplitude reaches the stop.
  CHECK(std::fabs(ShawHolmes{kZeta, grazing.parameter, kSigma, kR}.amplitude() - kSigma) < 1e-9);
  const Branch born = continue_impacting_branch(model(), values, "omega", grazing, to);
  INFO("switched: " << listed(born));
  REQUIRE(born.points.size() >= 3);
  CHECK(grazing.parameter - born.points.front().parameter < 1e-3);  // it starts next to the grazing
  for (std::size_t i = 0; i < 3; ++i) {
    const BranchPoint& q = born.points[i];
    INFO("point " << i << " at omega = " << std::setprecision(12) << q.parameter);
    CHECK(q.parameter < grazing.parameter);  // the impacting side: the impact-free orbit would cross the stop
    CHECK(q.orbit.events == 1);
    const ShawHolmes form{kZeta, q.parameter, kSigma, kR};
    const auto orbits = form.single_impact_orbits();
    REQUIRE(orbits.size() == 1);
    // The closed form's orbit on the section t = T: the motion from the impact at phase tau.
    const Eigen::Vector2d y = form.after_impact(orbits[0].tau, orbits[0].V, form.period());
    INFO("closed form (" << y[0] << ", " << y[1] << "), branch (" << q.orbit.state.state[0] << ", "
                         << q.orbit.state.state[1] << ")");
    CHECK(std::fabs(q.orbit.state.state[0] - y[0]) < 1e-8);
    CHECK(std::fabs(q.orbit.state.state[1] - y[1]) < 1e-8);
  }
}
