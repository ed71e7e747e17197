// Continuation of the impact oscillator's (1,1) orbit in omega against its closed form (Shaw and Holmes
// 1983): with default settings both methods report the period doubling (a multiplier through -1 of the
// closed-form impact map) and the grazing (the harmonic amplitude reaches the stop) within 1e-8 of the
// closed form, the orbits between them unstable; and a step forced over both events never changes the
// orbit type silently.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_character.hpp"
#include "analysis/branch_switching.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/model_registry.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"
#include "support/model_fixture.hpp"
#include "impact_oscillator/impact_oscillator_values.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

struct Case {
  double zeta, sigma, r, from, to;
};

// The frequency where the harmonic amplitude 1 / sqrt((1 - w^2)^2 + (2 zeta w)^2) equals the stop
// position (above resonance, where it falls with omega).
double closed_form_grazing(const Case& c) {
  double lo = c.from, hi = c.to;
  const auto amplitude = [&](double w) { return ShawHolmes{c.zeta, w, c.sigma, c.r}.amplitude(); };
  REQUIRE(amplitude(lo) > c.sigma);
  REQUIRE(amplitude(hi) < c.sigma);
  while (hi - lo > 1e-13) (amplitude(0.5 * (lo + hi)) > c.sigma ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}

// The frequency where the closed-form impact map's Jacobian at the (1,1) orbit has a multiplier -1:
// 1 + tr J + det J = 0, bisected between the start and the grazing.
double closed_form_period_doubling(const Case& c, double grazing) {
  const auto margin = [&](double w) {
    const ShawHolmes orbit{c.zeta, w, c.sigma, c.r};
    const auto orbits = orbit.single_impact_orbits();
    REQUIRE(orbits.size() == 1);
    const Eigen::Matrix2d J = orbit.impact_map_jacobian(orbits.front());
    return 1 + J.trace() + J.determinant();
  };
  double stable = c.from, unstable = grazing - 0.03;  // nearer the grazing the closed form's difference Jacobian fails
  REQUIRE(margin(stable) > 0);
  REQUIRE(margin(unstable) < 0);
  while (unstable - stable > 1e-13) (margin(0.5 * (stable + unstable)) > 0 ? stable : unstable) = 0.5 * (stable + unstable);
  return 0.5 * (stable + unstable);
}

ParameterSet values_of(const Case& c) { return impact_oscillator_values(c.zeta, c.from, c.sigma, c.r); }

// The state the orbit from rest settles on at the start frequency (as `vibro continue` starts).
StrobeSample settled_state(const ParameterSet& values) {
  auto simulation = model().start(values);
  Recorder recorder(400);
  simulation->run(recorder);
  return recorder.samples.back();
}

using Follow = Branch (*)(const Model&, ParameterSet, const std::string&, double, double, const StrobeSample&, int,
                          const ContinuationSettings&);

std::string listed(const Branch& branch) {
  std::ostringstream text;
  text << std::setprecision(12) << branch.end << ", " << branch.points.size() << " points; events:";
  for (const auto& e : branch.events) text << " " << e.kind << " at " << e.parameter << " (" << e.detail << ");";
  return text.str();
}

// Every change of orbit type between consecutive points is one event located between them.
void require_no_silent_change(const Branch& branch) {
  for (std::size_t i = 1; i < branch.points.size(); ++i) {
    const auto &a = branch.points[i - 1], &b = branch.points[i];
    if (branch_character(a.orbit) == branch_character(b.orbit)) continue;
    const auto between = std::count_if(branch.events.begin(), branch.events.end(), [&](const BranchEvent& e) {
      return e.parameter >= std::min(a.parameter, b.parameter) && e.parameter <= std::max(a.parameter, b.parameter);
    });
    INFO("type changes from " << describe_orbit_type(a.orbit) << " at " << a.parameter << " to "
                              << describe_orbit_type(b.orbit) << " at " << b.parameter);
    CHECK(between == 1);
  }
}

}  // namespace

TEST_CASE("Impact oscillator (1,1) branch in omega, default settings: period doubling and grazing within 1e-8 of the "
          "closed form, the orbits between them unstable, by both methods",
          "[impact_oscillator][continuation]") {
  const auto [c, name] = GENERATE(table<Case, std::string>({
      {{0.05, 0.25, 0.8, 1.6, 2.3}, "zeta 0.05, sigma 0.25, r 0.8"},
      {{0.1, 0.2, 0.6, 1.9, 2.6}, "zeta 0.1, sigma 0.2, r 0.6"},
      {{0.05, 0.15, 0.8, 2.0, 3.0}, "zeta 0.05, sigma 0.15, r 0.8"},
  }));
  const auto [follow, method] = GENERATE(table<Follow, std::string>({
      {&continue_periodic_orbit, "natural"},
      {&continue_by_arclength, "arclength"},
  }));
  const double grazing = closed_form_grazing(c), doubling = closed_form_period_doubling(c, grazing);
  const ParameterSet values = values_of(c);
  const Branch branch = follow(model(), values, "omega", c.from, c.to, settled_state(values), 1, ContinuationSettings{});
  INFO(name << ", " << method << ": " << listed(branch));
  INFO(std::setprecision(13) << "closed form: period doubling " << doubling << ", grazing " << grazing);
  REQUIRE(branch.end == "reached the end of the range");
  REQUIRE(branch.events.size() == 2);
  const BranchEvent &pd = branch.events[0], &graze = branch.events[1];
  REQUIRE(pd.kind == "period_doubling");
  REQUIRE(graze.kind == "grazing");
  CHECK(std::fabs(pd.parameter - doubling) < 1e-8);
  CHECK(std::fabs(graze.parameter - grazing) < 1e-8);
  CHECK(std::abs(pd.multiplier + 1.0) < 1e-6);
  REQUIRE(pd.orbit.converged);
  CHECK(pd.orbit.multipliers.size() == 2);
  require_no_silent_change(branch);
  // Stable (1,1) up to the doubling, unstable (1,1) from it to the grazing, stable impact-free after.
  int unstable = 0;
  for (const auto& q : branch.points) {
    INFO("omega " << q.parameter << ": " << describe_orbit_type(q.orbit));
    if (q.parameter < pd.parameter) {
      CHECK(q.orbit.events == 1);
      CHECK(q.orbit.stable());
    } else if (q.parameter < graze.parameter) {
      CHECK(q.orbit.events == 1);
      CHECK_FALSE(q.orbit.stable());
      ++unstable;
    } else {
      CHECK(q.orbit.events == 0);
      CHECK(q.orbit.stable());
    }
  }
  CHECK(unstable >= 1);
}

TEST_CASE("Impact oscillator (1,1) branch: a step forced over the unstable window never changes the orbit type "
          "silently: it is resolved, or the branch stops saying where and why",
          "[impact_oscillator][continuation]") {
  const Case c{0.05, 0.25, 0.8, 2.1, 2.3};  // period doubling at 2.1695, grazing at 2.2347
  const ParameterSet values = values_of(c);
  const StrobeSample start = settled_state(values);
  const auto [follow, method] = GENERATE(table<Follow, std::string>({
      {&continue_periodic_orbit, "natural"},
      {&continue_by_arclength, "arclength"},
  }));
  ContinuationSettings wide;
  wide.step = wide.max_step = 0.15;  // the first step, 2.1 -> 2.25, lands on the impact-free orbit
  SECTION("resolved by halving the step") {
    const Branch branch = follow(model(), values, "omega", c.from, c.to, start, 1, wide);
    INFO(method << ": " << listed(branch));
    REQUIRE(branch.end == "reached the end of the range");
    REQUIRE(branch.events.size() == 2);
    CHECK(branch.events[0].kind == "period_doubling");
    CHECK(branch.events[1].kind == "grazing");
    require_no_silent_change(branch);
  }
  SECTION("stopped where the step cannot shrink") {
    wide.min_step = 0.1;
    const Branch branch = follow(model(), values, "omega", c.from, c.to, start, 1, wide);
    INFO(method << ": " << listed(branch));
    // Arclength says it after its natural step (it takes one where no arclength step converges).
    CHECK_THAT(branch.end,
               Catch::Contains("step below the minimum (0.1) at omega = 2.1: the orbit changes from (1,1) stable to "));
    CHECK(branch.points.size() == 1);
    CHECK(branch.events.empty());
    require_no_silent_change(branch);
  }
}

TEST_CASE("Impact oscillator: switching at the (1,1) orbit's period doubling gives the (2,2) branch and its own "
          "period doubling, where a simulation from rest stops settling on it",
          "[impact_oscillator][continuation]") {
  const Case c{0.05, 0.25, 0.8, 1.6, 2.3};
  const ParameterSet values = values_of(c);
  const Branch one = continue_periodic_orbit(model(), values, "omega", c.from, c.to, settled_state(values), 1);
  REQUIRE(!one.events.empty());
  REQUIRE(one.events[0].kind == "period_doubling");
  const Branch two = continue_doubled_branch(model(), values, "omega", one.events[0], c.to);
  INFO(listed(two));
  REQUIRE(two.end == "reached the end of the range");
  REQUIRE(two.events.size() == 1);
  const BranchEvent& doubling = two.events[0];
  CHECK(doubling.kind == "period_doubling");
  CHECK(std::abs(doubling.multiplier + 1.0) < 1e-6);
  require_no_silent_change(two);
  for (const auto& q : two.points) {
    CHECK(q.orbit.periods == 2);
    CHECK(q.orbit.events == 2);
    CHECK(q.orbit.stable() == (q.parameter < doubling.parameter));
  }
  // Brute force: from rest, the simulation settles on the (2,2) orbit of the branch before its period
  // doubling (both of its points), and on no period-2 orbit after it.
  const auto settled = [&](double omega) {
    ParameterSet at = values;
    at.set("omega", omega);
    auto simulation = model().start(at);
    Recorder recorder(1500);
    simulation->run(recorder);
    return recorder.samples;
  };
  const auto on_branch = [&](double omega) {
    for (std::size_t i = 1; i < two.points.size(); ++i) {
      const auto &a = two.points[i - 1], &b = two.points[i];
      if (omega < a.parameter || omega > b.parameter) continue;
      StrobeSample guess = a.orbit.state;
      const double w = (omega - a.parameter) / (b.parameter - a.parameter);
      for (std::size_t k = 0; k < 2; ++k) guess.state[k] += w * (b.orbit.state.state[k] - a.orbit.state.state[k]);
      ParameterSet at = values;
      at.set("omega", omega);
      return shoot_periodic_orbit(*model().start(at), guess, 2);
    }
    FAIL("omega " << omega << " is not on the (2,2) branch");
    return PeriodicOrbit{};
  };
  const auto apart = [](const StrobeSample& x, const StrobeSample& y) {
    return std::max(std::fabs(x.state[0] - y.state[0]), std::fabs(x.state[1] - y.state[1]));
  };
  for (const double omega : {doubling.parameter - 3e-3, doubling.parameter - 1e-3}) {
    const auto samples = settled(omega);
    const PeriodicOrbit orbit = on_branch(omega);
    REQUIRE(orbit.converged);
    const double to_branch = std::min(apart(samples.back(), orbit.state), apart(samples[samples.size() - 2], orbit.state));
    INFO("omega " << omega << ": simulation's last sample " << to_branch << " from the branch's orbit");
    CHECK(to_branch < 1e-6);
    CHECK(apart(samples.back(), samples[samples.size() - 3]) < 1e-6);
  }
  for (const double omega : {doubling.parameter + 1e-3, doubling.parameter + 3e-3}) {
    const auto samples = settled(omega);
    INFO("omega " << omega << ": the simulation's samples two periods apart differ by "
                  << apart(samples.back(), samples[samples.size() - 3]));
    CHECK(apart(samples.back(), samples[samples.size() - 3]) > 1e-3);
  }
}
