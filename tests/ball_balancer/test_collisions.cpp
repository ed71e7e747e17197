// Ball-ball impacts, trains and separations in the model (validation cases T9-T15).
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "engine/ring_contact/ring_impulse.hpp"
#include "tests/ball_balancer/ball_balancer_fixture.hpp"

using namespace bb_test;

namespace {
struct Log : BallBalancerSimulation::EventLog {
  struct Entry {
    int kind, k;
    double t;
    State y;
  };
  std::vector<Entry> entries;
  void on_event(int kind, int k, double t, const State& y) override { entries.push_back({kind, k, t, y}); }
  std::vector<double> times(int kind) const {
    std::vector<double> out;
    for (const auto& e : entries)
      if (e.kind == kind) out.push_back(e.t);
    return out;
  }
};

State rest_state(const BallBalancerConstants& c) {
  State y = State::Zero();
  y[kY] = c.y_eq();
  return y;
}

// Largest |E(t) - E0| / |E0| sampled every 10 ms over [0, t_end].
double energy_drift(BallBalancerSimulation& sim, double t_end, double& e0) {
  e0 = sim.dynamics().energy(0, sim.state());
  double worst = 0;
  for (int k = 1; k * 0.01 <= t_end + 1e-12; ++k) {
    sim.advance(k * 0.01);
    worst = std::max(worst, std::fabs(sim.dynamics().energy(sim.time(), sim.state()) - e0));
  }
  return worst / std::fabs(e0);
}
}  // namespace

TEST_CASE("T9: two balls colliding (COR 1): |dE|/|E0| <= 1e-9 over 3 s, E0 = -0.916495 ft lbf", "[ball_balancer]") {
  const BallBalancerConstants c = chapter8(2, true);
  State y = rest_state(c);
  y[kTheta] = -kPi / 2;
  y[kTheta + 1] = 0;
  BallBalancerSimulation sim(c, y);
  double e0 = 0;
  const double drift = energy_drift(sim, 3.0, e0);
  INFO("E0 " << e0 / kFtLbf << " ft lbf, drift " << drift << ", impacts " << sim.counters()[kImpacts]);
  CHECK(e0 / kFtLbf == Approx(-0.916495).epsilon(1e-5));
  CHECK(drift <= 1e-9);
  CHECK(sim.counters()[kImpacts] >= 2);
}

TEST_CASE("T10: a two-ball train separates at 0.2829 s and re-collides at 0.7944 s, |dE|/|E0| <= 1e-9", "[ball_balancer]") {
  const BallBalancerConstants c = chapter8(2, true);
  State y = rest_state(c);
  y[kTheta] = -kPi / 2 - c.alpha / 2;
  y[kTheta + 1] = y[kTheta] + c.alpha;
  y[kRate + kTheta] = y[kRate + kTheta + 1] = 7.5;
  BallBalancerSimulation sim(c, y);
  CHECK(sim.topology().contact[0]);  // starts as a train
  Log log;
  sim.set_event_log(&log);
  double e0 = 0;
  const double drift = energy_drift(sim, 3.0, e0);
  const auto separations = log.times(kSeparations), impacts = log.times(kImpacts);
  INFO("E0 " << e0 / kFtLbf << " ft lbf, drift " << drift);
  REQUIRE(!separations.empty());
  REQUIRE(impacts.size() >= 2);
  INFO("separation " << separations[0] << " s, impacts " << impacts[0] << ", " << impacts[1] << " s");
  CHECK(e0 / kFtLbf == Approx(-0.841925).epsilon(1e-5));
  CHECK(separations[0] == Approx(0.2829).margin(1e-3));
  CHECK(impacts[0] == Approx(0.7944).margin(1e-3));
  CHECK(impacts[1] == Approx(1.0297).margin(1e-3));
  CHECK(drift <= 1e-9);
}

TEST_CASE("T11: ten balls with random rates (COR 1): |dE|/|E0| <= 1e-9 over 3 s with many impacts", "[ball_balancer]") {
  const BallBalancerConstants c = chapter8(10, true);
  State y = rest_state(c);
  y[kX] = 0.01 * kFt;
  std::mt19937 random(2016);
  std::uniform_real_distribution<double> rate(-6, 6);
  for (int i = 0; i < 10; ++i) {
    y[kTheta + i] = -kPi / 2 + i * 2 * kPi / 10;
    y[kRate + kTheta + i] = rate(random);
  }
  BallBalancerSimulation sim(c, y);
  double e0 = 0;
  const double drift = energy_drift(sim, 3.0, e0);
  INFO("drift " << drift << ", impacts " << sim.counters()[kImpacts]);
  CHECK(drift <= 1e-9);
  CHECK(sim.counters()[kImpacts] >= 20);
}

TEST_CASE("T13: the impulse map keeps momentum, gives g'+ = -COR g'- and the energy loss formula", "[ball_balancer]") {
  BallBalancerConstants c = chapter8(10, true);
  c.unbalance = 0.3 * c.m_ball * c.R;
  c.spin = 20;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const double cor : {1.0, 0.85, 0.0}) {
    State y = State::Zero();
    y[kX] = 0.01 * u(random);
    y[kY] = 0.01 * u(random);
    for (int i = 0; i < kDof; ++i) y[kRate + i] = (i < 2 ? 0.3 : 5.0) * u(random);
    for (int i = 0; i < 10; ++i) y[kTheta + i] = i * 0.6 + 0.1 * u(random);
    const double t = 0.37;
    const BallBalancerDynamics dyn(c);
    const Eigen::MatrixXd M = dyn.mass_matrix(y);
    const Eigen::MatrixXd minv = M.inverse();
    Eigen::VectorXd v = y.segment(kRate, 12);
    const RingPair pair{2 + 3, 2 + 4};
    const double before = v[pair.b] - v[pair.a];
    const double px = dyn.momentum_x(t, y), py = dyn.momentum_y(t, y);
    const double kinetic = 0.5 * v.dot(M * v);
    RingImpulse(minv).pair(pair, cor, v);
    State after = y;
    after.segment(kRate, 12) = v;
    const double w = minv(pair.a, pair.a) + minv(pair.b, pair.b) - 2 * minv(pair.a, pair.b);
    CHECK(v[pair.b] - v[pair.a] == Approx(-cor * before).margin(1e-12));
    CHECK(dyn.momentum_x(t, after) == Approx(px).margin(1e-12));
    CHECK(dyn.momentum_y(t, after) == Approx(py).margin(1e-12));
    CHECK(0.5 * v.dot(M * v) - kinetic == Approx(-0.5 * (1 - cor * cor) * before * before / w).margin(1e-12));
  }
}

TEST_CASE("T12: a train on a fixed race separates exactly at theta_m = 0 with theta' = 4.2472 rad/s", "[ball_balancer]") {
  BallBalancerConstants c = chapter8(2, true);
  c.m_rotor = 1e9;
  c.kx = c.ky = 1e11;
  c.rolling_inertia = 0.4 * c.m_ball * c.R * c.R;  // J = 1.4 m R^2
  State y = rest_state(c);
  y[kTheta] = -kPi / 2 - c.alpha / 2;
  y[kTheta + 1] = y[kTheta] + c.alpha;
  y[kRate + kTheta] = y[kRate + kTheta + 1] = 8;
  BallBalancerSimulation sim(c, y);
  Log log;
  sim.set_event_log(&log);
  sim.advance(0.3);
  REQUIRE(!log.times(kSeparations).empty());
  const auto& e = log.entries.front();
  REQUIRE(e.kind == kSeparations);
  const double theta_m = 0.5 * (e.y[kTheta] + e.y[kTheta + 1]);
  const double expected = std::sqrt(64 - 2 * c.g * std::cos(c.alpha / 2) / (1.4 * c.R));
  INFO("separation at t = " << e.t << " s, theta_m = " << theta_m << ", theta' = " << e.y[kRate + kTheta]);
  CHECK(std::fabs(theta_m) <= 1e-9);
  CHECK(e.y[kRate + kTheta] == Approx(expected).margin(1e-5));
  CHECK(expected == Approx(4.2472).margin(2e-4));  // the reference rounds theta'^2 = 18.040 to 18.039
  CHECK(e.t == Approx(0.2387).margin(1e-3));
}

TEST_CASE("T14: Newton's cradle on a locked rotor: one ball in, one ball out, two in, two out", "[ball_balancer]") {
  for (const int incoming : {1, 2}) {
    BallBalancerConstants c = chapter8(5, true);
    c.m_rotor = 1e12;  // the rotor locked
    c.kx = c.ky = 1e14;
    State y = rest_state(c);
    // The incoming train released at rest from 9 o'clock onto a resting train centred at the bottom.
    for (int i = 0; i < incoming; ++i) y[kTheta + i] = kPi + i * c.alpha;
    const int resting = 5 - incoming;
    for (int i = 0; i < resting; ++i) y[kTheta + incoming + i] = -kPi / 2 + (i - 0.5 * (resting - 1)) * c.alpha + 2 * kPi;
    BallBalancerSimulation sim(c, y);
    Log log;
    sim.set_event_log(&log);
    sim.advance(1.0);
    REQUIRE(!log.times(kImpacts).empty());
    const auto& e = log.entries.front();
    REQUIRE(e.kind == kImpacts);
    // Speed of the incoming train at the impact, from its energy (the rotor does not move).
    double drop = 0;
    for (int i = 0; i < incoming; ++i) drop -= c.m_ball * c.g * c.R * (std::sin(e.y[kTheta + i]) - std::sin(y[kTheta + i]));
    const double J = c.m_ball * c.R * c.R + c.rolling_inertia;
    const double speed = std::sqrt(2 * drop / (incoming * J));
    INFO(incoming << " incoming at " << speed << " rad/s, impact at t = " << e.t << " s");
    for (int i = 0; i < 5; ++i) {
      const double expected = i >= 5 - incoming ? speed : 0.0;
      INFO("ball " << i + 1);
      CHECK(e.y[kRate + kTheta + i] == Approx(expected).margin(1e-6 * speed));
    }
  }
}

TEST_CASE("T15: point-mass balls give the finite-radius trajectory to 1e-12 while the balls do not touch", "[ball_balancer]") {
  BallBalancerConstants pm = constants({{"n_balls", 2}, {"spin_ratio", 1.5}, {"me_ratio", 1}, {"spacing", 1.0}});
  BallBalancerConstants fr = pm;
  fr.finite_radius = true;
  fr.alpha = 2 * std::asin(fr.r_ball / fr.R);
  BallBalancerSimulation a(pm), b(fr);
  a.advance(5.0);
  b.advance(5.0);
  REQUIRE(b.counters()[kImpacts] == 0);
  CHECK((a.state() - b.state()).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("restart_from a stroboscopic sample continues the same trajectory (FR, trains, stick-slip)", "[ball_balancer]") {
  const BallBalancerConstants c =
      constants({{"n_balls", 3}, {"balls", 1}, {"r_ball", 0.05}, {"spin_ratio", 2.5}, {"me_ratio", 3}, {"spacing", 0.4}});
  BallBalancerSimulation reference(c);
  Collector first(40);
  reference.run(first);
  const StrobeSample& at = first.samples.back();
  BallBalancerSimulation restarted(c);
  REQUIRE(restarted.restart_from(at));
  Collector a(1), b(1);
  reference.run(a);
  restarted.run(b);
  INFO("impacts so far " << reference.counters()[kImpacts] << ", trains " << reference.counters()[kTrainsFormed]);
  CHECK(a.samples.back().period == b.samples.back().period);
  for (int k = 0; k < 2 + 2 + 2 * 3; ++k) CHECK(b.samples.back().state[k] == Approx(a.samples.back().state[k]).margin(1e-7));
}
