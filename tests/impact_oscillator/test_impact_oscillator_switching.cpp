// Branch switching on the impact oscillator (zeta = 0.05, sigma = 0.25, r = 0.8) at a grazing: the
// impact-free orbit continued down in omega grazes where the harmonic amplitude reaches the stop, and
// the (1,1) branch born there is the closed form's (Shaw and Holmes 1983).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <iomanip>
#include <sstream>
#include <string>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_switching.hpp"
#include "analysis/grazing_switching.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/model_registry.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"
#include "support/model_fixture.hpp"
#include "impact_oscillator/impact_oscillator_values.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const Model& model() { return ModelRegistry::instance().get("impact_oscillator"); }

constexpr double kZeta = 0.05, kSigma = 0.25, kR = 0.8;

ParameterSet values_at(double omega) { return impact_oscillator_values(kZeta, omega, kSigma, kR); }

// The impact-free orbit's point on the section t = k T: the harmonic response at t = 0.
StrobeSample impact_free_state(double omega) {
  const ShawHolmes form{kZeta, omega, kSigma, kR};
  StrobeSample s{};
  const Eigen::Vector2d y = form.harmonic(0);
  s.state[0] = y[0];
  s.state[1] = y[1];
  return s;
}

// The (2,1) orbit in closed form: one impact per two forcing periods, at phase tau with approach
// speed V, back at the stop with speed V after 2 T (the (1,1) construction with the flow over 2 T; the
// harmonic response is T-periodic). Its interior maximum, half-way round, touches the stop at the
// (2,1) orbit's grazing.
struct TwoOne {
  ShawHolmes form;
  double speed_for(double tau) const {
    const Eigen::Matrix2d E = form.flow(2 * form.period());
    const Eigen::Vector2d yp = form.harmonic(tau);
    return ((1 - E(0, 0)) * (kSigma - yp[0]) + E(0, 1) * yp[1]) / (-kR * E(0, 1));
  }
  double mismatch(double tau) const {
    const double V = speed_for(tau);
    return form.after_impact(tau, V, tau + 2 * form.period())[1] - V;
  }
  // The orbit whose impact phase lies nearest `near` (a root of the mismatch, bisected to 1e-15 T).
  std::optional<double> impact_phase(double near) const {
    const double T = form.period();
    std::optional<double> best;
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
      double a = T * i / n, b = T * (i + 1) / n, fa = mismatch(a);
      if ((fa > 0) == (mismatch(b) > 0)) continue;
      for (int k = 0; k < 200 && b - a > 1e-15 * T; ++k) {
        const double m = 0.5 * (a + b), fm = mismatch(m);
        if ((fm > 0) == (fa > 0)) a = m, fa = fm; else b = m;
      }
      const double tau = 0.5 * (a + b);
      if (speed_for(tau) > 0 && (!best || std::fabs(tau - near) < std::fabs(*best - near))) best = tau;
    }
    return best;
  }
  // The largest x between the impacts less the stop: its local maximum nearest half-way (v = 0 there,
  // bisected on v after a grid).
  double interior_gap(double tau) const {
    const double V = speed_for(tau), T = form.period();
    const auto x = [&](double t) { return form.after_impact(tau, V, t); };
    double best_t = tau + 0.5 * T, best_x = -1e9;
    const int n = 4000;
    for (int i = 1; i < n; ++i) {
      const double t = tau + 2 * T * i / n;
      if (x(t)[0] > best_x && std::fabs(t - tau - T) < 0.75 * T) best_x = x(t)[0], best_t = t;
    }
    double a = best_t - 2 * T / n, b = best_t + 2 * T / n;
    for (int k = 0; k < 100; ++k) {
      const double m = 0.5 * (a + b);
      (x(m)[1] > 0 ? a : b) = m;
    }
    return x(0.5 * (a + b))[0] - kSigma;
  }
};

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

TEST_CASE("Impact oscillator: the (2,2) branch born at the period doubling, followed by arclength round its fold, "
          "meets the (2,1) orbit at that orbit's grazing, where the closed form puts it",
          "[impact_oscillator][continuation][switch]") {
  const double from = 1.6, to = 2.3;
  const ParameterSet values = values_at(from);
  auto simulation = model().start(values);
  Recorder recorder(400);
  simulation->run(recorder);
  const Branch one = continue_periodic_orbit(model(), values, "omega", from, to, recorder.samples.back(), 1);
  REQUIRE(!one.events.empty());
  REQUIRE(one.events.front().kind == "period_doubling");
  const Branch two = continue_doubled_branch(model(), values, "omega", one.events.front(), 3.5, {}, continue_by_arclength);
  INFO(listed(two));
  const auto grazing = std::find_if(two.events.begin(), two.events.end(), [](const BranchEvent& e) {
    return e.kind == "grazing" && e.detail.find("2 -> 1") != std::string::npos;
  });
  REQUIRE(grazing != two.events.end());
  REQUIRE(grazing->orbit.converged);
  // Closed form: bisect omega on the (2,1) orbit's interior gap, the orbit followed by its impact phase.
  const double located = grazing->parameter;
  double lo = located - 1e-3, hi = located + 1e-3, tau = 0;
  {
    // The located orbit's impact phase: the (2,1) orbit at the located omega nearest the event's state.
    const TwoOne at{ShawHolmes{kZeta, located, kSigma, kR}};
    double nearest = 1e9;
    for (int i = 0; i < 64; ++i) {
      const auto phase = at.impact_phase(at.form.period() * i / 64);
      if (!phase) continue;
      const double V = at.speed_for(*phase), T = at.form.period();
      for (const double section : {T, 2 * T}) {
        const Eigen::Vector2d y = at.form.after_impact(*phase, V, section);  // phase in [0, T): sections T and 2 T
        const double apart = std::max(std::fabs(y[0] - grazing->orbit.state.state[0]),
                                      std::fabs(y[1] - grazing->orbit.state.state[1]));
        if (apart < nearest) nearest = apart, tau = *phase;
      }
    }
    INFO("the closed-form (2,1) orbit nearest the event's orbit lies " << nearest << " from it");
    REQUIRE(nearest < 1e-6);
  }
  const auto gap = [&](double omega) {
    const TwoOne orbit{ShawHolmes{kZeta, omega, kSigma, kR}};
    const auto phase = orbit.impact_phase(tau);
    REQUIRE(phase);
    tau = *phase;
    return orbit.interior_gap(tau);
  };
  const double gap_lo = gap(lo), gap_hi = gap(hi);
  INFO("interior gaps " << gap_lo << " at " << lo << ", " << gap_hi << " at " << hi);
  REQUIRE((gap_lo > 0) != (gap_hi > 0));
  while (hi - lo > 1e-13) ((gap(0.5 * (lo + hi)) > 0) == (gap_lo > 0) ? lo : hi) = 0.5 * (lo + hi);
  INFO(std::setprecision(13) << "located " << located << ", closed form " << 0.5 * (lo + hi));
  CHECK(std::fabs(located - 0.5 * (lo + hi)) < 1e-8);
  // Brute force on both sides: simulated for two periods from the closed-form (2,1) orbit's state on the
  // section, the oscillator 1e-3 above the grazing returns to it with one impact; 1e-3 below, where that
  // orbit would cross the stop half-way round, it meets the stop there: two impacts.
  for (const double side : {1.0, -1.0}) {
    const double omega = 0.5 * (lo + hi) + side * 1e-3;
    const TwoOne orbit{ShawHolmes{kZeta, omega, kSigma, kR}};
    const auto phase = orbit.impact_phase(tau);
    REQUIRE(phase);
    const Eigen::Vector2d y = orbit.form.after_impact(*phase, orbit.speed_for(*phase), orbit.form.period());
    ParameterSet at = values_at(omega);
    at.set("x0", y[0]);
    at.set("v0", y[1]);
    auto run = model().start(at);
    Recorder two_periods(3);
    run->run(two_periods);
    const auto& samples = two_periods.samples;
    const auto first = std::find_if(samples.begin(), samples.end(), [](const StrobeSample& q) { return q.period == 0; });
    const auto second = std::find_if(samples.begin(), samples.end(), [](const StrobeSample& q) { return q.period == 2; });
    REQUIRE(second != samples.end());
    const long long impacts = second->counters[0] - (first != samples.end() ? first->counters[0] : 0);
    INFO("omega " << omega << ": " << impacts << " impacts over two periods, back at (" << second->state[0] << ", "
                  << second->state[1] << ") from (" << y[0] << ", " << y[1] << ")");
    CHECK(impacts == (side > 0 ? 1 : 2));
    if (side > 0) CHECK(std::max(std::fabs(second->state[0] - y[0]), std::fabs(second->state[1] - y[1])) < 1e-8);
  }
  // The branch's (2,1) orbits next to it keep clear of the stop in the closed form too.
  for (const auto& q : two.points)
    if (q.orbit.events == 1 && std::fabs(q.parameter - located) < 0.05) CHECK(gap(q.parameter) < 0);
}
