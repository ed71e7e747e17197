// Separation (a train's contact force reaching zero) is located with a proof, not by sampling: a
// constructed contact force that dips below zero and back within a sixteenth of a step is found on
// that step, where the former detection (4 samples per step, regula falsi between them) saw only
// positive values and would have stepped over it.
#include <catch2/catch.hpp>
#include <cmath>

#include "ball_balancer/ball_balancer_fixture.hpp"
#include "engine/ode/dormand_prince5.hpp"

using namespace bb_test;

namespace {
// Two touching balls straddling the bottom of a race that does not spin, the rotor released at rest
// below its equilibrium by Y: by symmetry the train stays put, y'' = -(k / M_t)(y - y_eq) and the
// contact force is m R sin(alpha / 2) (g + y''), which dips below zero around the top of the rotor's
// swing (t = T / 2) for a time 2 sqrt(2 eps) / omega when Y omega^2 = (1 + eps) g.
struct DippingTrain {
  BallBalancerConstants c = chapter8(2, true);
  double omega = std::sqrt(c.ky / c.total_mass());
  double eps = 2e-4;
  State start() const {
    State y = State::Zero();
    y[kY] = c.y_eq() - (1 + eps) * c.g / (omega * omega);
    y[kTheta] = -kPi / 2 - c.alpha / 2;
    y[kTheta + 1] = -kPi / 2 + c.alpha / 2;
    return y;
  }
};
}  // namespace

TEST_CASE("separation: a contact-force dip shorter than a tenth of a step is located, 4 samples miss it", "[ball_balancer]") {
  DippingTrain setup;
  BallBalancerSimulation sim(setup.c, setup.start());
  REQUIRE(sim.topology().contact[0]);  // the touching pair starts as a train, in compression

  // One DOPRI5 step of T / 8 whose dense output carries the dip near theta = 0.375, between the
  // old samples at 0.25 and 0.5.
  const double period = 2 * kPi / setup.omega, h = period / 8;
  const double t_separation = (kPi - std::acos(1 / (1 + setup.eps))) / setup.omega;  // g + y'' = 0
  sim.advance(period / 2 - 0.375 * h);
  REQUIRE(sim.counters()[kSeparations] == 0);
  Topology topology = sim.topology();
  auto f = [&](double t, const State& y, State& dy) { sim.dynamics().rhs(t, y, topology, dy); };
  DormandPrince5<kStateSize> stepper;
  StepControl loose;
  loose.rtol = loose.atol = 1;  // accept the long step: its dense output is the function searched
  State k1, y_new, k_new;
  f(sim.time(), sim.state(), k1);
  DenseStep<kStateSize> step;
  double h_next = h;
  int evaluations = 0;
  REQUIRE(stepper.attempt(f, sim.time(), sim.state(), k1, h, loose, y_new, k_new, step, h_next, evaluations));

  int which = -1;
  auto force = [&](double theta) { return sim.nonsmooth_value(step.t0 + theta * step.h, step.at(theta), which); };
  // The dip on the dense output, on a fine grid: where the force is negative, and for how long.
  double first_negative = 2, last_negative = -1, lowest = 1e300;
  const int grid = 20000;
  for (int j = 0; j <= grid; ++j) {
    const double theta = static_cast<double>(j) / grid, value = force(theta);
    lowest = std::min(lowest, value);
    if (value <= 0) first_negative = std::min(first_negative, theta), last_negative = theta;
  }
  INFO("force dips to " << lowest << " (start " << force(0) << ") on theta in [" << first_negative << ", " << last_negative << "]");
  REQUIRE(last_negative > first_negative);
  CHECK(last_negative - first_negative < 0.1);  // the separation lasts less than a tenth of the step
  CHECK(force(1) > 0);                          // and is over before the step ends

  // The former detection: the force at theta = 0, 1/4, 1/2, 3/4, 1, a root bracketed only between
  // samples of opposite sign. All positive here: the dip would have gone unseen.
  for (int k = 0; k <= 4; ++k) CHECK(force(0.25 * k) > 0);

  // The proved locator finds it, to the resolution, at the first zero: positive just before.
  const double root = sim.first_nonsmooth(step);
  REQUIRE(root <= 1);
  CHECK(force(root) <= 0);
  CHECK(force(root - 1e-10) > 0);
  CHECK(root == Approx(first_negative).margin(1.0 / grid));
  CHECK(which == 0);  // the train's contact, not a friction margin (there is no friction)

  // The simulation, on its own steps, separates the train inside the dip.
  BallBalancerSimulation full(setup.c, setup.start());
  struct FirstSeparation : BallBalancerSimulation::EventLog {
    double t = -1;
    void on_event(int kind, int, double time, const State&) override {
      if (kind == kSeparations && t < 0) t = time;
    }
  } log;
  full.set_event_log(&log);
  full.advance(period / 2 + h);
  INFO("simulation separates at t = " << log.t << " s, analytic " << t_separation << " s");
  REQUIRE(log.t > 0);
  CHECK(log.t == Approx(t_separation).margin(1e-6 * period));
}
