// The thesis's 1-D impact and separation problems (validation cases T2-T5) on the engine chosen for the ball
// balancer: event location on the DOPRI5 dense output (HybridIntegrator), the ring impulse map for
// the impact and its plastic closure (train formation), and the contact force as the separation guard.
#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/ring_contact/ring_impulse.hpp"

using namespace vibro;

namespace {
constexpr double kPi = 3.14159265358979323846;

// Mass against a wall at its spring's equilibrium x = 0 (T2).
struct WallOscillator {
  using State = Eigen::Matrix<double, 2, 1>;
  double w = 4.5, cor = 0.8;
  std::vector<double> times, speeds, positions;
  void rhs(double, const State& x, State& dx) const { dx << x[1], -w * w * x[0]; }
  int guards(AffineGuard<2>* out) const {
    out[0].a << 1, 0;
    out[0].b = 0;
    out[0].crossing = Crossing::Falling;
    return 1;
  }
  bool on_events(double t, State& x, const EventHit*, int) {
    times.push_back(t);
    speeds.push_back(-x[1]);
    positions.push_back(x[0]);
    x[1] = -cor * x[1];
    return true;
  }
  void observe(const DenseStep<2>&, double) {}
};

// Two masses on springs to a common equilibrium, mass 1 left of mass 2 (T3-T5); state (x1, v1, x2,
// v2). Free: the gap x2 - x1 is the guard. Train: both move with the common acceleration and the
// contact force F_I = m2 x'' + c2 x' + k2 x (affine in the state) is the guard.
struct TwoMasses {
  using State = Eigen::Matrix<double, 4, 1>;
  double m1 = 1, m2 = 1, k1 = 0, k2 = 0, c1 = 0, c2 = 0, cor = 0.8, v_stick = 1e-3;
  bool train = false;
  struct Event {
    double t;
    bool impact;
    State before, after;
  };
  std::vector<Event> events;

  double common_acceleration(double x, double v) const { return -((c1 + c2) * v + (k1 + k2) * x) / (m1 + m2); }
  void rhs(double, const State& s, State& ds) const {
    if (train) {
      const double a = common_acceleration(s[2], s[3]);
      ds << s[3], a, s[3], a;
    } else {
      ds << s[1], -(c1 * s[1] + k1 * s[0]) / m1, s[3], -(c2 * s[3] + k2 * s[2]) / m2;
    }
  }
  int guards(AffineGuard<4>* out) const {
    out[0].crossing = Crossing::Falling;
    if (train) {  // F_I = m2 x'' + c2 v + k2 x
      out[0].a << 0, 0, k2 - m2 * (k1 + k2) / (m1 + m2), c2 - m2 * (c1 + c2) / (m1 + m2);
    } else {
      out[0].a << -1, 0, 1, 0;
    }
    out[0].b = 0;
    return 1;
  }
  bool on_events(double t, State& s, const EventHit*, int) {
    const State before = s;
    if (train) {
      train = false;  // the force reached zero: separate
    } else {
      const Eigen::MatrixXd minv = Eigen::Vector2d(1 / m1, 1 / m2).asDiagonal();
      Eigen::VectorXd v(2);
      v << s[1], s[3];
      const RingImpulse impulse(minv);
      const std::vector<RingPair> pair{{0, 1}};
      impulse.sweep(pair, {true}, 0, cor, v_stick, v, 10);
      train = !impulse.close_plastic(pair, {true}, v_stick, v).empty();
      s[1] = v[0];
      s[3] = v[1];
    }
    events.push_back({t, !train && before[3] - before[1] < 0, before, s});
    return true;
  }
  void observe(const DenseStep<4>&, double) {}
};

TwoMasses two_masses(double m1, double m2, double k1, double k2, double c1, double c2) {
  TwoMasses pair;
  pair.m1 = m1, pair.m2 = m2, pair.k1 = k1, pair.k2 = k2, pair.c1 = c1, pair.c2 = c2;
  return pair;
}

TwoMasses separation_pair() { return two_masses(1, 1, 0.4, 0.2, 0.2, 0.2); }  // thesis Chapter V, inferred exact set

StepControl tight() {
  StepControl c;
  c.rtol = 1e-12;
  c.atol = 1e-14;
  c.h_max = 0.05;
  return c;
}
}  // namespace

TEST_CASE("T2: mass against a wall: impacts at pi/9 + k pi/4.5 s with speed 4.5 0.8^k, never inside the wall",
          "[ball_balancer]") {
  WallOscillator wall;
  HybridIntegrator<2> integrator(tight());
  Eigen::Vector2d x(1, 0);
  double t = 0;
  integrator.advance(wall, t, x, 2.6);
  REQUIRE(wall.times.size() == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(std::fabs(wall.times[k] - (kPi / 9 + k * kPi / 4.5)) <= 1e-7);
    CHECK(wall.speeds[k] == Approx(4.5 * std::pow(0.8, k)).epsilon(1e-8));
    CHECK(std::fabs(wall.positions[k]) <= 1e-9);
  }
}

TEST_CASE("T3: two masses collide at t = 0.429575 s, x = 0.242526, v+ = (-4.222121, 1.063800)", "[ball_balancer]") {
  TwoMasses pair = two_masses(1, 2, 20, 20, 0.6, 0.6);  // thesis Chapter IV, inferred
  HybridIntegrator<4> integrator(tight());
  TwoMasses::State s(-1, 0, 1, 0);
  double t = 0;
  integrator.advance(pair, t, s, 0.5);
  REQUIRE(pair.events.size() == 1);
  const auto& e = pair.events[0];
  CHECK(e.t == Approx(0.429575).margin(1e-6));
  CHECK(e.before[0] == Approx(0.242526).margin(1e-6));
  CHECK(e.before[1] == Approx(3.706761).margin(1e-6));
  CHECK(e.before[3] == Approx(-2.900641).margin(1e-6));
  CHECK(e.after[1] == Approx(-4.222121).margin(1e-6));
  CHECK(e.after[3] == Approx(1.063800).margin(1e-6));
}

TEST_CASE("T4: a compressed pair separates at 3.2578 s (v = 0.39543) and collides again near 11.828 s", "[ball_balancer]") {
  TwoMasses pair = separation_pair();
  pair.train = true;
  HybridIntegrator<4> integrator(tight());
  TwoMasses::State s(-1, 0, -1, 0);
  double t = 0;
  integrator.advance(pair, t, s, 12.5);
  REQUIRE(pair.events.size() >= 2);
  INFO("separation at " << pair.events[0].t << " s, next contact at " << pair.events[1].t << " s with g' = "
                        << pair.events[1].before[3] - pair.events[1].before[1]);
  CHECK(pair.events[0].t == Approx(3.2578).margin(1e-4));
  CHECK(pair.events[0].before[1] == Approx(0.39543).margin(1e-5));
  CHECK(std::fabs(pair.events[0].before[0]) <= 1e-9);  // F_I = -0.1 x: x = 0 at separation
  CHECK(pair.events[1].t == Approx(11.828).margin(0.03));
  CHECK(pair.events[1].before[3] - pair.events[1].before[1] == Approx(-0.2393).margin(1e-3));
}

TEST_CASE("T5: a grazing contact (g' = -6e-5 ft/s at 4.5069 s) forms a train that separates at 10.364 s", "[ball_balancer]") {
  TwoMasses pair = separation_pair();
  HybridIntegrator<4> integrator(tight());
  TwoMasses::State s(0.879773, 1.611922, 3.768875, 0.325024);
  double t = 0;
  integrator.advance(pair, t, s, 12.0);
  REQUIRE(pair.events.size() >= 2);
  const auto& contact = pair.events[0];
  INFO("contact at " << contact.t << " s, x = " << contact.before[0] << ", g' = " << contact.before[3] - contact.before[1]
                     << "; separation at " << pair.events[1].t << " s, v = " << pair.events[1].before[1]);
  CHECK(contact.t == Approx(4.5069).margin(1e-3));
  CHECK(contact.before[0] == Approx(0.02629).margin(1e-4));
  CHECK(std::fabs(contact.before[3] - contact.before[1]) < 1e-3);  // grazing: caught plastically
  CHECK(pair.events[1].t == Approx(10.364).margin(0.01));
  CHECK(pair.events[1].before[1] == Approx(0.6337).margin(1e-3));
}
