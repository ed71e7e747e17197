// The dimer's closed-form free flight: the first contact of either tip against closed forms and a
// brute-force scan, from above the plate and from a start on it.
#include <catch2/catch.hpp>

#include <cmath>

#include "dimer/dimer_fixture.hpp"
#include "models/dimer/dimer_flight.hpp"

using namespace vibro;
using namespace vibro::dimer;
using namespace vibro::dimer::testing;

namespace {
using State = Eigen::Matrix<double, 6, 1>;
}

TEST_CASE("dimer flight: still plate and no spin, the landing time is the parabola's root to 1e-12 s", "[dimer]") {
  const DimerConstants c = DimerConstants::from(dimer_values({{"Gamma", "0"}}));
  const double gap0 = 1.3e-3, Ydot0 = 0.07;
  State s;
  s << 0.01, c.body.r + gap0, 0, 0.02, Ydot0, 0;
  const double gaps[2] = {gap0, gap0};
  const bool at_rest[2] = {false, false};
  const DimerFlight flight(c, 0.3, s, gaps, at_rest);
  const FlightEvent e = flight.first_contact(0, 1.0);
  REQUIRE(e.kind == FlightEnd::Contact);
  CHECK(std::abs(e.tau - (Ydot0 + std::sqrt(Ydot0 * Ydot0 + 2 * c.g * gap0)) / c.g) < 1e-12);
  // Leaving the plate at 0.05 m/s: no contact at the start, the return after 2 v / g.
  const double on_plate[2] = {0, 0};
  s(1) = c.body.r;
  s(4) = 0.05;
  const FlightEvent back = DimerFlight(c, 0.3, s, on_plate, at_rest).first_contact(0, 1.0);
  REQUIRE(back.kind == FlightEnd::Contact);
  CHECK(std::abs(back.tau - 2 * 0.05 / c.g) < 1e-12);
}

TEST_CASE("dimer flight: with spin and a moving plate the first contact agrees with a dense scan", "[dimer]") {
  const DimerConstants c = DimerConstants::from(dimer_values({{"A_r", "5.7"}, {"Gamma", "1.4"}}));
  State s;
  // Tip 1 on the plate leaving at 0.02 m/s relative to it, spinning so that tip 1 swings back down.
  const double t0 = 0.013, theta0 = 0.05, thetadot = 8.0, L = 0.5 * c.body.l;
  s << 0, 0, theta0, 0.01, 0, thetadot;
  s(1) = c.plate_height(t0) + c.body.r + L * std::sin(theta0);
  s(4) = c.plate_velocity(t0) + L * std::cos(theta0) * thetadot + 0.02;
  const double gap1 = s(1) + L * std::sin(theta0) - c.body.r - c.plate_height(t0);
  const double gaps[2] = {0, gap1};
  const bool at_rest[2] = {false, false};
  const DimerFlight flight(c, t0, s, gaps, at_rest);
  const FlightEvent e = flight.first_contact(0, c.period);
  REQUIRE(e.kind == FlightEnd::Contact);
  // Brute force: the first sample with a negative gap on a grid of T / 2e5, refined by bisection.
  const int n = 200000;
  double first = -1;
  int tip = -1;
  for (int k = 1; k <= n && first < 0; ++k) {
    const double tau = c.period * k / n;
    for (int i = 0; i < 2; ++i)
      if (flight.gap(i, tau) < 0 && first < 0) {
        double lo = c.period * (k - 1) / n, hi = tau;
        for (int b = 0; b < 60; ++b) (flight.gap(i, 0.5 * (lo + hi)) < 0 ? hi : lo) = 0.5 * (lo + hi);
        first = hi, tip = i;
      }
  }
  REQUIRE(first > 0);
  CHECK(e.tip == tip);
  CHECK(std::abs(e.tau - first) < 1e-12);
  CHECK(flight.gap_rate(e.tip, e.tau) < 0);
}
