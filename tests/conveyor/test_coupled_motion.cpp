// Coupled stick/slip against an independent integration,
// the slip function's derivatives, lift-off, the Eq. 62 option and both z0 = 0 start modes.
#include <catch2/catch.hpp>
#include <cmath>

#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/coupled_slip.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;
using Kind = ConveyorEvent::Kind;

namespace {

// Reference: RK4 in phase on dv/dtheta = s mu (g/omega - A omega sin theta), dx/dtheta = v/omega,
// with stick (v = plate velocity) while |B w^2 sin| <= mu (g - A w^2 sin), events by bisection.
struct Reference {
  const ConveyorConstants* constants;
  double theta = 0, v = 0, x = 0;
  bool stick = false;
  double s = 1;

  const ConveyorConstants& c_() const { return *constants; }
  double rel() const { return c_().B * c_().omega * std::cos(theta) - v; }
  bool holds(double th) const {
    const double w2 = c_().omega * c_().omega;
    return std::fabs(c_().B * w2 * std::sin(th)) <= c_().mu * (c_().g - c_().A * w2 * std::sin(th));
  }
  void slip_step(double h) {
    auto f = [&](double th) { return s * c_().mu * (c_().g / c_().omega - c_().A * c_().omega * std::sin(th)); };
    const double k1 = f(theta), k2 = f(theta + h / 2), k4 = f(theta + h);
    // v is a pure quadrature here; x = integral of v / omega with v linear in the k's.
    x += h / c_().omega * (v + h * (k1 + 2 * k2) / 6);
    v += h * (k1 + 4 * k2 + k4) / 6;
    theta += h;
  }
  void stick_step(double h) {
    x += c_().B * (std::sin(theta + h) - std::sin(theta));
    theta += h;
    v = c_().B * c_().omega * std::cos(theta);
  }
  void at_zero() {
    v = c_().B * c_().omega * std::cos(theta);
    if (holds(theta)) stick = true;
    else { stick = false; s = std::sin(theta) > 0 ? -1 : 1; }
  }
  // Advances to theta_end, resolving events inside each step by bisection on the step length.
  void advance_to(double theta_end, double h_max = 2 * M_PI / 40000) {
    while (theta < theta_end - 1e-15) {
      const double h = std::min(h_max, theta_end - theta);
      Reference trial = *this;
      if (stick) trial.stick_step(h); else trial.slip_step(h);
      const bool event = stick ? !trial.holds(trial.theta) : s * trial.rel() < 0;
      if (!event) { *this = trial; continue; }
      double lo = 0, hi = h;
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        Reference probe = *this;
        if (stick) probe.stick_step(mid); else probe.slip_step(mid);
        const bool past = stick ? !probe.holds(probe.theta) : s * probe.rel() < 0;
        (past ? hi : lo) = mid;
      }
      if (stick) { stick_step(hi); stick = false; s = std::sin(theta) > 0 ? -1 : 1; }
      else { slip_step(hi); at_zero(); }
    }
  }
};

}  // namespace

TEST_CASE("coupled stick/slip in closed form matches an independent integration (a_hat = 30)", "[conveyor][coupled]") {
  const auto values = conveyor_values({{"a_hat", "30"}});
  const auto trace = simulate(values, 5);
  Reference ref{&trace.constants};
  REQUIRE(events_of(trace, Kind::Stick).size() + events_of(trace, Kind::Reversal).size() > 3);
  for (int k = 1; k <= 5; ++k) {
    ref.advance_to(2 * M_PI * k);
    const auto& sample = trace.samples[static_cast<std::size_t>(k - 1)];
    CHECK(sample.state[2] == Approx(ref.v).epsilon(1e-9).margin(1e-12));
    CHECK(sample.drift_position == Approx(ref.x).epsilon(1e-9));
    CHECK(sample.mode == kCoupled);
  }
}

TEST_CASE("the first coupled phase at a_hat = 50 matches the integration up to lift-off", "[conveyor][coupled]") {
  const auto trace = simulate(conveyor_values({{"a_hat", "50"}}), 2);
  const auto lift_offs = events_of(trace, Kind::LiftOff);
  REQUIRE(!lift_offs.empty());
  // Coupled start: the arc begins at t = 0, and the next event lifts off.
  REQUIRE(trace.events.size() >= 2);
  CHECK(trace.events[0].kind == Kind::ArcStart);
  CHECK(trace.events[1].kind == Kind::LiftOff);
  CHECK(lift_offs[0].phase * 180 / M_PI == Approx(70.6773).margin(5e-5));
  Reference ref{&trace.constants};
  ref.advance_to(lift_offs[0].phase);
  CHECK(lift_offs[0].vT == Approx(ref.v).epsilon(1e-9));
  CHECK(lift_offs[0].x == Approx(ref.x).epsilon(1e-9));
}

TEST_CASE("the slip function's derivatives (sign of f'' is (sB - mu A))", "[conveyor][coupled]") {
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", "50"}}));
  for (const double s : {1.0, -1.0}) {
    const SlipArc arc{s, std::sin(1.0), std::cos(1.0), 0.05, 0, c.omega, c.g, c.A, c.B, c.mu};
    const double y = 0.3, e = 1e-5;
    CHECK(arc(y).g1 == Approx((arc(y + e).g - arc(y - e).g) / (2 * e)).epsilon(1e-7));
    CHECK(arc(y).g2 == Approx((arc(y + e).g1 - arc(y - e).g1) / (2 * e)).epsilon(1e-7));
    CHECK(arc(y).g2 == Approx(s > 0 ? -0.0403157 : 0.0429712).epsilon(1e-5));
    CHECK((arc.position(y + e) - arc.position(y - e)) / (2 * e) == Approx(arc.velocity(y) / c.omega).epsilon(1e-8));
  }
}

TEST_CASE("lift-off flights land where the reference table says", "[conveyor][coupled]") {
  struct Row { const char* a_hat; double lift_deg, land_deg, approach; };
  for (const Row row : {Row{"49", 74.3502, 137.2676, -0.00172}, Row{"50", 70.6773, 148.5740, -0.00327},
                        Row{"60", 51.8496, 209.6419, -0.02696}, Row{"80", 36.1424, 269.0286, -0.08327}}) {
    const auto trace = simulate(conveyor_values({{"a_hat", row.a_hat}}), 1);
    REQUIRE(trace.events.size() >= 3);  // the coupled start's arc, lift-off, landing
    REQUIRE(trace.events[1].kind == Kind::LiftOff);
    CHECK(trace.events[1].phase * 180 / M_PI == Approx(row.lift_deg).margin(5e-5));
    REQUIRE(trace.events[2].kind == Kind::Impact);
    CHECK(trace.events[2].phase * 180 / M_PI == Approx(row.land_deg).margin(5e-5));
    CHECK(trace.events[2].u_before == Approx(row.approach).margin(5e-6));
  }
  // Gamma <= 1: a part resting on the plate never lifts off.
  const auto stays = simulate(conveyor_values({{"a_hat", "47.18"}}), 30);
  CHECK(events_of(stays, Kind::LiftOff).empty());
}

TEST_CASE("the Eq. 62 option grows v_T by mu g T per period in permanent contact", "[conveyor][coupled]") {
  const auto trace = simulate(conveyor_values({{"a_hat", "30"}, {"coupled_friction", "eq62"}}), 6);
  for (std::size_t k = 1; k < trace.samples.size(); ++k)
    CHECK(trace.samples[k].state[2] - trace.samples[k - 1].state[2] == Approx(0.15 * 9.81 / 50).epsilon(1e-12));
}

TEST_CASE("z0 = 0 start modes: coupled lifts off at theta_L, impact applies Eq. 6 and 22 at t = 0", "[conveyor]") {
  const auto coupled = simulate(conveyor_values({{"a_hat", "50"}, {"on_plate", "coupled"}}), 1);
  REQUIRE(coupled.events.size() >= 2);
  CHECK(coupled.events[0].kind == Kind::ArcStart);
  CHECK(coupled.events[1].kind == Kind::LiftOff);
  const auto impact = simulate(conveyor_values({{"a_hat", "50"}, {"on_plate", "impact"}}), 1);
  REQUIRE(impact.events.front().kind == Kind::Impact);
  CHECK(impact.events.front().time == 0.0);
  CHECK(impact.events.front().u_after == Approx(0.6 * impact.constants.A * impact.constants.omega).epsilon(1e-12));
  CHECK(impact.events.front().u_after == Approx(0.019854).margin(5e-7));
  CHECK(impact.events.front().vT == Approx(0.0079416).margin(5e-8));
  // With the plate rising near its top at t = 0 (phase = 0.3 pi: sin 0.81) and A omega^2 = 16.6 m/s^2 > g
  // (a_hat = 80) it pulls away from a part laid on it (F_N < 0): the part leaves at once, without a
  // coupled phase.
  const auto pulled = simulate(conveyor_values({{"a_hat", "80"}, {"phase", num(0.3 * M_PI)}, {"on_plate", "coupled"}}), 1);
  REQUIRE(!pulled.events.empty());
  CHECK(pulled.events.front().kind == Kind::Impact);
  CHECK(pulled.events.front().time > 0);
  // Where the plate presses on it (phase = 1.75 pi, rising below its mean position) the part rides it
  // until the lift-off phase.
  const auto pressed = simulate(conveyor_values({{"a_hat", "80"}, {"phase", num(1.75 * M_PI)}, {"on_plate", "coupled"}}), 1);
  REQUIRE(pressed.events.size() >= 2);
  CHECK(pressed.events[0].kind == Kind::ArcStart);
  CHECK(pressed.events[1].kind == Kind::LiftOff);
  CHECK(pressed.events[1].phase == Approx(pressed.constants.theta_L).margin(1e-12));
}

TEST_CASE("bookkeeping: samples at exactly k T, x continuous across events", "[conveyor]") {
  const auto trace = simulate(conveyor_values({{"a_hat", "70"}, {"z0", "0.002"}}), 40);
  for (std::size_t k = 0; k < trace.samples.size(); ++k) {
    CHECK(trace.samples[k].time == Approx(0.02 * static_cast<double>(k + 1)).epsilon(1e-15));
    CHECK(trace.samples[k].period == static_cast<std::int64_t>(k + 1));
  }
  // Between consecutive events the position changes by at most the fastest speed times the gap.
  double fastest = 0;
  for (const auto& e : trace.events) fastest = std::max(fastest, std::fabs(e.vT));
  fastest = std::max(fastest, trace.constants.B * trace.constants.omega);
  for (std::size_t i = 1; i < trace.events.size(); ++i) {
    const auto& a = trace.events[i - 1];
    const auto& b = trace.events[i];
    CHECK(b.time >= a.time);
    CHECK(std::fabs(b.x - a.x) <= fastest * (b.time - a.time) * (1 + 1e-9) + 1e-15);
    CHECK(b.phase >= 0);
    CHECK(b.phase < 2 * M_PI);
  }
}

TEST_CASE("the plate's phase at t = 0 moves the section, not the motion: a microthrow orbit lifts off, lands and "
          "accumulates at the same plate phases and drifts at the same speed",
          "[conveyor][coupled]") {
  // c_r = 0.3 at a_hat = 50 is below the critical amplitude of hopping: the part settles on a period-1
  // orbit of lift-off, microthrows, accumulation and coupled stick/slip.
  struct Steady { std::vector<double> lift_off, accumulation; double drift; };
  const auto steady = [](double phase) {
    const auto trace = simulate(conveyor_values({{"a_hat", "50"}, {"c_r", "0.3"}, {"phase", num(phase)}}), 300);
    Steady s;
    for (const auto& e : events_of(trace, Kind::LiftOff)) s.lift_off.push_back(e.phase);
    for (const auto& e : events_of(trace, Kind::Accumulation)) s.accumulation.push_back(e.phase);
    const auto& samples = trace.samples;
    s.drift = (samples.back().drift_position - samples[samples.size() - 101].drift_position) / (100 * trace.constants.period);
    return s;
  };
  const Steady reference = steady(0);
  REQUIRE(reference.lift_off.size() > 100);
  REQUIRE(reference.accumulation.size() > 100);
  for (const double phase : {1.0, 4.0}) {
    INFO("phase = " << phase);
    const Steady shifted = steady(phase);
    REQUIRE(shifted.lift_off.size() > 100);
    REQUIRE(shifted.accumulation.size() > 100);
    CHECK(shifted.lift_off.back() == Approx(reference.lift_off.back()).margin(1e-9));
    CHECK(shifted.accumulation.back() == Approx(reference.accumulation.back()).margin(1e-9));
    CHECK(shifted.drift == Approx(reference.drift).epsilon(1e-6));
  }
  CHECK(reference.lift_off.back() * 180 / M_PI == Approx(70.6773).margin(5e-5));  // sin(theta_L) = 1 / Gamma
}
