// sign() rolling resistance solved exactly (Filippov): a ball at rest on the race sticks while the
// friction capacity mu_R |N| can hold it and slips from the instant it cannot.
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/ball_balancer/ball_balancer_fixture.hpp"

using namespace bb_test;

namespace {
struct FirstEvent : BallBalancerSimulation::EventLog {
  int kind = -1;
  double t = 0;
  State y;
  void on_event(int k, int, double time, const State& state) override {
    if (kind < 0 && k != kSticks) kind = k, t = time, y = state;
  }
};
}  // namespace

TEST_CASE("a ball carried from the bottom by a locked rotor sticks until mu_R (R W^2 - g sin th) = g cos th", "[ball_balancer]") {
  BallBalancerConstants c = constants({{"n_balls", 1}, {"me_ratio", 0}, {"mu_R", 0.3}, {"d", 0}});
  c.m_rotor = 1e12;  // the rotor locked
  c.kx = c.ky = 1e14;
  c.spin = 5;
  c.period = 2 * kPi / c.spin;
  State y = State::Zero();
  y[kY] = c.y_eq();
  y[kTheta] = -kPi / 2;
  y[kRate + kTheta] = c.spin;  // at rest on the race
  BallBalancerSimulation sim(c, y);
  CHECK(sim.topology().stuck[0]);
  FirstEvent release;
  sim.set_event_log(&release);
  sim.advance(1.0);
  // The release angle by bisection of the friction balance on (-pi/2, 0).
  auto excess = [&](double th) { return c.mu_R * (c.R * c.spin * c.spin - c.g * std::sin(th)) - c.g * std::cos(th); };
  double lo = -kPi / 2, hi = 0;
  for (int k = 0; k < 200; ++k) (excess(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  INFO("release at theta = " << release.y[kTheta] << " rad (analytic " << lo << "), t = " << release.t << " s");
  REQUIRE(release.kind == kSlipReversals);
  CHECK(release.y[kTheta] == Approx(lo).margin(1e-8));
  CHECK(release.t == Approx((lo + kPi / 2) / c.spin).margin(1e-8));
  CHECK(!sim.topology().stuck[0]);
  CHECK(sim.state()[kRate + kTheta] < c.spin);  // it slips backwards: the ball lags the race
}
