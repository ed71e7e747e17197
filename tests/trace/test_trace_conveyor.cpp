// The conveyor's trace on the stable one-periodic hopping orbit (c_r = 0.6, phi = 12 deg): one impact
// per period at the phase of Eq. 26, Newton restitution across each impact, the feeding velocity of
// Eq. 28 from the dense tangential position, and the dense state equal to the samples at t = k T.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "models/conveyor/conveyor_analytic.hpp"
#include "models/conveyor/conveyor_parameters.hpp"
#include "trace/trace_checks.hpp"

using namespace vibro;
using namespace vibro::trace_testing;

namespace {
constexpr double kPhi = 12 * M_PI / 180;
constexpr double kCr = 0.6;
constexpr double kTwoPi = 2 * M_PI;

std::string num(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}
}  // namespace

TEST_CASE("the conveyor's trace follows the one-periodic hopping orbit", "[trace][conveyor]") {
  const double a_hat = 50;
  const Model& model = ModelRegistry::instance().get("conveyor");
  const double theta = conveyor::analytic::hopping_phase(a_hat, kCr, kPhi, 9.81);
  // Eq. 26 in the form cos(theta*) = a*/a_hat, a* the critical amplitude of Eq. 64.
  CHECK(std::cos(theta) == Approx(conveyor::analytic::critical_amplitude(kCr, kPhi, 9.81) / a_hat).epsilon(1e-12));
  // Start just after an impact on the orbit: h = 0, the rebound velocity, the plate's tangential velocity.
  auto values = test_support::parameter_values(model.parameters(), {{"a_hat", num(a_hat)}});
  const auto c = conveyor::ConveyorConstants::from(values);
  const double u_after = 0.073575;  // the rebound velocity of the orbit (as in test_hopping_orbit.cpp)
  values = test_support::parameter_values(
      model.parameters(), {{"a_hat", num(a_hat)}, {"start", "state"}, {"theta0", num(theta)}, {"h0", "0"},
                           {"u0", num(u_after)}, {"vT0", num(c.B * c.omega * std::cos(theta))}});
  const int periods = 20;
  const CaseTrace trace = trace_case(model, values, {periods, 64});

  REQUIRE(trace.components == std::vector<std::string>{"h", "u", "vT", "x"});
  REQUIRE(trace.strobe.size() == static_cast<std::size_t>(periods));
  // The case starts at phase theta (its clock too): the grid from there to t = 20 T.
  const double T = trace.period;
  REQUIRE(!trace.time.empty());
  CHECK(trace.time.front() >= theta / c.omega);
  CHECK(trace.time.front() < theta / c.omega + T / 64);
  CHECK(trace.time.back() == trace.strobe.back().time);
  CHECK(trace.strobe.back().time == periods * T);

  // One impact per period (the first is the start itself), at the orbit's phase, with restitution.
  std::size_t impacts = 0;
  for (const auto& e : trace.events) {
    REQUIRE(e.kind == "impact");
    ++impacts;
    const double phase = std::fmod(e.time * c.omega, kTwoPi);
    CHECK(phase == Approx(theta).margin(1e-9));
    CHECK(e.before[0] == 0.0);
    CHECK(e.after[1] == Approx(-kCr * e.before[1]).margin(1e-12));
    CHECK(e.after[1] == Approx(u_after).margin(1e-9));
    CHECK(e.after[2] == Approx(c.B * c.omega * std::cos(theta)).margin(1e-9));  // stick at impact: plate's vT
    CHECK(e.before[3] == e.after[3]);
  }
  CHECK(impacts == static_cast<std::size_t>(periods - 1));

  // The gap never goes negative, and the part moves on at Eq. 28's mean velocity.
  double min_gap = 0;
  for (std::size_t r = 0; r < trace.time.size(); ++r) min_gap = std::min(min_gap, trace.state(r, 0));
  CHECK(min_gap > -1e-12);
  const auto first = static_cast<std::size_t>(
      std::lower_bound(trace.time.begin(), trace.time.end(), T) - trace.time.begin());  // t = T
  const std::size_t last = trace.time.size() - 1;                                   // t = 20 T
  REQUIRE(trace.time[first] == T);
  const double drift = (trace.state(last, 3) - trace.state(first, 3)) / (trace.time[last] - trace.time[first]);
  CHECK(drift == Approx(conveyor::analytic::hopping_velocity(kCr, kPhi, 1.0 / c.period, 9.81)).epsilon(1e-9));

  // Dense output and samples agree at t = k T; the sink changes nothing.
  CHECK(strobe_mismatch(trace) >= 0);
  CHECK(strobe_mismatch(trace) < 1e-12);
  for (std::size_t k = 0; k < trace.strobe.size(); ++k)
    CHECK(trace.state(first + 64 * k, 3) == Approx(trace.strobe[k].drift_position).margin(1e-15));
  CHECK(same_orbit_without_trace(model, values, trace));
}

TEST_CASE("a coupled conveyor orbit traces its lift-offs and its accumulations", "[trace][conveyor]") {
  const Model& model = ModelRegistry::instance().get("conveyor");
  // Resting on the plate at t = 0; each period: lift-off, a flight, microthrows ending in an accumulation.
  const auto values = test_support::parameter_values(
      model.parameters(), {{"a_hat", "60"}, {"c_r", "0.2"}, {"start", "drop"}, {"z0", "0"}, {"on_plate", "coupled"}});
  const CaseTrace trace = trace_case(model, values, {30, 100});
  std::size_t lift_offs = 0, accumulations = 0, impacts = 0;
  for (const auto& e : trace.events) {
    lift_offs += e.kind == "lift_off";
    accumulations += e.kind == "accumulation";
    if (e.kind == "accumulation") CHECK(e.after[1] == 0.0);
    if (e.kind != "impact") continue;
    ++impacts;
    CHECK(e.after[1] == Approx(-0.2 * e.before[1]).margin(1e-12));
  }
  CHECK(lift_offs >= 29);
  CHECK(accumulations >= 29);
  CHECK(impacts > accumulations);  // several microthrows before each accumulation
  CHECK(strobe_mismatch(trace) >= 0);
  CHECK(strobe_mismatch(trace) < 1e-12);
  CHECK(same_orbit_without_trace(model, values, trace));
}

TEST_CASE("a trace request out of range is refused before the case starts", "[trace]") {
  const Model& model = ModelRegistry::instance().get("conveyor");
  const auto values = test_support::parameter_values(model.parameters(), {});
  CHECK_THROWS_WITH(trace_case(model, values, {0, 10}), Catch::Contains("periods"));
  CHECK_THROWS_WITH(trace_case(model, values, {10, 0}), Catch::Contains("samples per period"));
}
