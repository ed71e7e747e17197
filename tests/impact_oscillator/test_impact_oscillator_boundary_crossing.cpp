// An impact within rounding after a period boundary, where every period's last step ends: the stop's
// gap is 0 within rounding at the step's start, in the middle of the mode (no event there), and
// closing. The event locator deflates a root at a step's start (the event just handled), and skipped
// this one: with the gap at t = T between 1e-14 and 1e-13 of its terms (1 to 10 times their rounding
// level) the body flew through the stop (1.09 beyond it) and the impact went uncounted; below 1e-14
// it was located as a grazing (counted as one). Checked against the closed form (Shaw and Holmes 1983).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/core/model_registry.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"
#include "impact_oscillator/shaw_holmes_closed_form.hpp"
#include "jobs/trace/case_trace.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

std::string text(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

CaseTrace trace_with_stop(double sigma, int periods) {
  const Model& model = ModelRegistry::instance().get("impact_oscillator");
  const ParameterSet values =
      parameter_values(model.parameters(), {{"zeta", "0.1"}, {"omega", "0.8"}, {"sigma", text(sigma)}, {"r", "0.8"}});
  return trace_case(model, values, {periods, 50});
}

}  // namespace

TEST_CASE("Impact oscillator: an impact within rounding after t = T, where a step starts, is located there and "
          "counted as an impact, the motion after it the closed form",
          "[impact_oscillator][hybrid]") {
  const double zeta = 0.1, omega = 0.8, r = 0.8;
  // From rest the body first reaches x_T = x(T), closing (v > 0), at the end of the first period: with
  // the stop far away, the integrator's own x(T) (its steps do not depend on the stop).
  const CaseTrace free = trace_with_stop(100, 1);
  REQUIRE(free.events.empty());
  const double x_T = free.strobe.back().state[0], v_T = free.strobe.back().state[1], T = free.period;
  REQUIRE(v_T > 1);
  // The gap sigma - x at t = T in units of the locator's rounding level (1e-14 of the guard's terms,
  // sigma + |x|): 0.5 was taken as a grazing, 2 to 9 were skipped.
  const double touch = 1e-14 * 2 * x_T;
  for (const double k : {0.5, 2.0, 5.0, 9.0}) {
    const double sigma = x_T + k * touch;
    INFO("gap at t = T: " << k << " x 1e-14 of its terms (sigma = " << text(sigma) << ")");
    const CaseTrace trace = trace_with_stop(sigma, 2);
    // Closed form: from rest to the stop, then off it with -r V.
    const ShawHolmes exact{zeta, omega, sigma, r};
    const auto from_rest = [&](double t) -> Eigen::Vector2d {
      return exact.harmonic(t) + exact.flow(t) * (Eigen::Vector2d::Zero() - exact.harmonic(0));
    };
    double t_hit = T;
    for (int i = 0; i < 20; ++i) t_hit -= (from_rest(t_hit)[0] - sigma) / from_rest(t_hit)[1];
    const double V = from_rest(t_hit)[1];
    REQUIRE(std::fabs(t_hit - T) < 1e-8);  // the closed form's impact: at T within the integration error
    const Eigen::Vector2d at_2T = exact.after_impact(t_hit, V, 2 * T);

    REQUIRE(trace.events.size() == 1);
    const TraceEvent& hit = trace.events[0];
    CHECK(hit.kind == "impact");
    // Located at T, where the gap is within the rounding level (10 touch) of 0: the crossing, at
    // T + k touch / v_T, within that.
    CHECK(std::fabs(hit.time - T) <= 10 * touch / v_T);
    CHECK(std::fabs(hit.before[0] - sigma) <= 10 * touch);
    CHECK(std::fabs(hit.after[1] + r * v_T) <= 1e-12);
    const StrobeSample& end = trace.strobe.back();
    CHECK(end.counters[kHybridImpacts] == 1);
    CHECK(end.counters[kHybridGrazings] == 0);
    INFO("x(2T) " << text(end.state[0]) << " closed form " << text(at_2T[0]) << "; v(2T) " << text(end.state[1])
                  << " closed form " << text(at_2T[1]));
    CHECK(std::fabs(end.state[0] - at_2T[0]) < 1e-7);
    CHECK(std::fabs(end.state[1] - at_2T[1]) < 1e-7);
    // Never beyond the stop (the dense trace between the samples).
    double highest = -1e300;
    for (std::size_t row = 0; row < trace.time.size(); ++row) highest = std::max(highest, trace.state(row, 0));
    CHECK(highest <= sigma);
  }
}

TEST_CASE("Impact oscillator: the stroboscopic map and a restart from a sample within rounding before an impact "
          "take that impact, as the run does",
          "[impact_oscillator][hybrid]") {
  const Model& model = ModelRegistry::instance().get("impact_oscillator");
  const double x_T = trace_with_stop(100, 1).strobe.back().state[0];
  // Gaps at T of 2, 5 and 9 x 1e-14 of the guard's terms: the run samples the state before the impact
  // at T (the impact is located at the next step's start, in period 2).
  for (const double k : {2.0, 5.0, 9.0}) {
    const double sigma = x_T + k * 1e-14 * 2 * x_T;
    INFO("gap at t = T: " << k << " x 1e-14 of its terms");
    const ParameterSet values =
        parameter_values(model.parameters(), {{"zeta", "0.1"}, {"omega", "0.8"}, {"sigma", text(sigma)}, {"r", "0.8"}});
    auto simulation = model.start(values);
    Recorder run(2);
    simulation->run(run);
    const StrobeSample &at_T = run.samples[0], &at_2T = run.samples[1];
    REQUIRE(at_T.counters[kHybridImpacts] == 0);
    REQUIRE(at_T.state[1] > 1);  // closing on the stop
    REQUIRE(at_2T.counters[kHybridImpacts] == 1);
    // The map (the variational equations' own integration, with saltation) from the sample at T.
    MapStep step;
    REQUIRE(simulation->stroboscopic_map(at_T, 1, step));
    CHECK(step.events == 1);
    CHECK(std::fabs(step.image.state[0] - at_2T.state[0]) < 1e-9);
    CHECK(std::fabs(step.image.state[1] - at_2T.state[1]) < 1e-9);
    // A restart from that sample (continuation, transient jumps).
    REQUIRE(simulation->restart_from(at_T));
    Recorder again(1);
    simulation->run(again);
    CHECK(again.samples[0].counters[kHybridImpacts] == 1);
    CHECK(std::fabs(again.samples[0].state[0] - at_2T.state[0]) < 1e-9);
    CHECK(std::fabs(again.samples[0].state[1] - at_2T.state[1]) < 1e-9);
  }
}

TEST_CASE("Impact oscillator: started at rest on the stop with the force pressing it on, it rests there until the "
          "force lets go (cos(omega t) = sigma), never beyond the stop",
          "[impact_oscillator][hybrid]") {
  // x(0) = sigma = 0, v(0) = 0, x'' = cos(omega t) > 0: the guard is 0 at the start with its first
  // derivative 0 and its second across, which a start judges (a zero-speed contact: resting at once).
  const double omega = 0.8;
  const CaseTrace trace = trace_with_stop(0, 1);
  REQUIRE(trace.events.size() >= 2);
  CHECK(trace.events[0].time == 0);
  CHECK(trace.events[0].kind == "impact+sticking");
  CHECK(trace.events[1].kind.rfind("release", 0) == 0);
  CHECK(std::fabs(trace.events[1].time - std::acos(0.0) / omega) < 1e-9);
  double highest = -1e300;
  for (std::size_t row = 0; row < trace.time.size(); ++row) highest = std::max(highest, trace.state(row, 0));
  CHECK(highest <= 1e-12);
}
