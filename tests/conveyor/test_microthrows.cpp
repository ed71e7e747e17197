// The conveyor paper's Section 4: accumulation (Zeno) sequences end in coupled motion
// with the reference accuracy, and the microthrow asymptotics of Eqs. 51, 56 and 57 (corrected).
#include <catch2/catch.hpp>
#include <cmath>

#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/conveyor_analytic.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;
using Kind = ConveyorEvent::Kind;

namespace {
// The microthrow sequence after an injected impact state at a_hat = 49: events up to the
// accumulation (the paper's Section 4.1).
struct Sequence {
  std::vector<ConveyorEvent> impacts;  // excluding the injected one
  ConveyorEvent accumulation{};
  bool accumulated = false;
};

Sequence microthrows(double theta1, double dv1, double vT1) {
  const auto trace = simulate(conveyor_values({{"a_hat", "49"}, {"start", "state"}, {"theta0", num(theta1)},
                                               {"h0", "0"}, {"u0", num(dv1)}, {"vT0", num(vT1)}}), 5);
  Sequence s;
  for (const auto& e : trace.events) {
    if (e.kind == Kind::Impact) s.impacts.push_back(e);
    if (e.kind == Kind::Accumulation) {
      s.accumulation = e;
      s.accumulated = true;
      break;
    }
  }
  return s;
}
}  // namespace

TEST_CASE("resting plate: a drop ends in an accumulation, a slide and sticking (closed form)", "[conveyor][zeno]") {
  const auto trace = simulate(conveyor_values({{"a_hat", "0"}, {"z0", "0.001"}, {"vT0", "0.1"}}), 10);
  const auto impacts = events_of(trace, Kind::Impact);
  const auto accumulations = events_of(trace, Kind::Accumulation);
  REQUIRE(accumulations.size() == 1);
  CHECK(impacts.size() == 37);
  // Printed values are checked to half a unit of their last digit.
  CHECK(impacts.front().time == Approx(0.014278431).margin(5e-10));
  CHECK(-impacts.front().u_before == Approx(0.140071410).margin(5e-10));
  CHECK(accumulations[0].time == Approx(0.0571137245).margin(5e-11));
  // The reference value is the infinite sequence's limit; stopping at u_tol leaves 0.6 u_tol.
  CHECK(accumulations[0].vT == Approx(0.0159571538 + 0.6e-9).margin(1e-10));
  CHECK(accumulations[0].x == Approx(0.0034613725).margin(5e-11));
  const auto sticks = events_of(trace, Kind::Stick);
  REQUIRE(sticks.size() == 1);
  CHECK(sticks[0].time == Approx(0.0679579).margin(5e-8));
  // Then stuck forever: every later sample at the same place, at rest, in contact.
  for (std::size_t k = 4; k < trace.samples.size(); ++k) {
    CHECK(trace.samples[k].drift_position == Approx(0.0035478933).margin(5e-11));
    CHECK(trace.samples[k].state[2] == 0.0);
    CHECK(trace.samples[k].mode == kCoupled);
  }
}

TEST_CASE("microthrow asymptotics: Eq. 51, Eq. 56 and the corrected Eq. 57 as dv1 -> 0", "[conveyor][zeno]") {
  const double theta1 = 23.618494;
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", "49"}}));
  const double t1 = theta1 / c.omega;
  for (const double dv1 : {1e-4, 1e-5, 1e-6}) {
    const Sequence s = microthrows(theta1, dv1, 0.0);
    REQUIRE(s.accumulated);
    const double duration = s.accumulation.time - t1;
    const double eq51 = analytic::microthrow_duration(dv1, 0.6, c.g, c.A, c.omega, theta1);
    // Errors: the linearisation's, proportional to dv1, and the truncation at u_tol, ~u_tol/dv1.
    const double tol = 10 * dv1 + 2 * c.u_tol / dv1;
    CHECK(std::fabs(duration / eq51 - 1) < tol);
    CHECK(s.accumulation.vT / dv1 == Approx(0.6).margin(tol));
    const double mean = s.accumulation.x / duration;  // x = 0 at the injected impact
    CHECK(mean / dv1 == Approx(0.225).margin(tol));  // printed Eq. 57 would give 0.375
  }
  CHECK(std::fabs((microthrows(theta1, 1e-5, 0).accumulation.time - t1) /
                  analytic::microthrow_duration(1e-5, 0.6, c.g, c.A, c.omega, theta1) - 1) < 1e-4);
  // From 1e-3 m/s, ceil(ln(1e-9/1e-3)/ln 0.6) = 28 further impacts (+-1 for the linearisation).
  const Sequence long_one = microthrows(theta1, 1e-3, 0.0);
  REQUIRE(long_one.accumulated);
  CHECK(long_one.impacts.size() >= 27);
  CHECK(long_one.impacts.size() <= 29);
}

TEST_CASE("the Fig. 9 microthrow example lies in the ranges the paper implies (the paper's Section 4.1)", "[conveyor][zeno]") {
  const double theta1 = 23.618494, t1 = 0.07518;
  const Sequence s = microthrows(theta1, 7.433e-3, 0.05144);
  REQUIRE(s.accumulated);
  const double duration = s.accumulation.time - t1;
  CHECK(duration > 0.0017);
  CHECK(duration < 0.0021);
  CHECK(s.accumulation.vT > 0.051);
  CHECK(s.accumulation.vT < 0.054);
  const double mean = s.accumulation.x / duration;
  CHECK(mean > 0.049);
  CHECK(mean < 0.054);
  // The first impact after the injected one decelerates the part; the later ones accelerate it.
  REQUIRE(s.impacts.size() > 3);
  CHECK(s.impacts[0].vT < 0.05144);
  for (std::size_t k = 2; k < s.impacts.size(); ++k) CHECK(s.impacts[k].vT >= s.impacts[k - 1].vT);
  const double degrees = s.accumulation.phase * 180 / M_PI;
  CHECK(degrees > 306);
  CHECK(degrees < 308);
}

TEST_CASE("after the Fig. 9 sequence the part rides the plate and lifts off at t = 0.084131 s", "[conveyor][zeno]") {
  const auto trace = simulate(conveyor_values({{"a_hat", "49"}, {"start", "state"}, {"theta0", "23.618494"},
                                               {"h0", "0"}, {"u0", "7.433e-3"}, {"vT0", "0.05144"}}), 6);
  const auto lift_offs = events_of(trace, Kind::LiftOff);
  REQUIRE(!lift_offs.empty());
  CHECK(lift_offs[0].time == Approx(0.084131).margin(5e-7));
  CHECK(lift_offs[0].phase * 180 / M_PI == Approx(74.3502).epsilon(1e-6));
}
