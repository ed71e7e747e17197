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
          "counted as an impact; the motion after it equals the closed form",
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
