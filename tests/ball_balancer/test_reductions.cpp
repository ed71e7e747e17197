// The model's 1-DOF reductions and closed forms (validation cases T6-T8, items S1-S3 of docs/models/ball_balancer.md).
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/ode/dormand_prince5.hpp"
#include "tests/ball_balancer/ball_balancer_fixture.hpp"

using namespace bb_test;

namespace {
// Reference: a 1-DOF ODE u'' = f(t, u, u') integrated independently at a tight tolerance.
template <class F>
double reference_1dof(F&& accel, double u0, double v0, double t_end) {
  using S = Eigen::Matrix<double, 2, 1>;
  DormandPrince5<2> stepper;
  StepControl control;
  control.rtol = 1e-13;
  control.atol = 1e-15;
  auto f = [&](double t, const S& y, S& dy) { dy << y[1], accel(t, y[0], y[1]); };
  S y(u0, v0), k1, y_new, k_new;
  DenseStep<2> dense;
  double t = 0, h = 1e-4;
  f(t, y, k1);
  while (t < t_end) {
    const double step = std::min(h, t_end - t);
    double h_next;
    int evals = 0;
    if (stepper.attempt(f, t, y, k1, step, control, y_new, k_new, dense, h_next, evals)) {
      t += step;
      y = y_new;
      k1 = k_new;
    }
    h = h_next;
  }
  return y[0];
}
}  // namespace

TEST_CASE("ball_balancer is registered and rejects bad input with the key and range", "[ball_balancer]") {
  const Model& model = ModelRegistry::instance().get("ball_balancer");
  CHECK(model.parameters().size() > 20);
  ParameterSet p = parameters({});
  CHECK_THROWS_WITH(p.set("n_balls", 11), Catch::Contains("n_balls"));
  CHECK_THROWS_WITH(p.set("mu_R", -0.1), Catch::Contains("mu_R"));
  p.set("balls", 1);
  p.set("n_balls", 3);
  p.set("spacing", 0.01);  // below the collision angle 0.0834 rad
  CHECK_THROWS_WITH(model.validate(p), Catch::Contains("spacing"));
}

TEST_CASE("S1: spin speeds 1.5/2.0/2.5 omega_n are 140.8/187.7/234.6 rpm within 0.1", "[ball_balancer]") {
  const double rpm[] = {140.8, 187.7, 234.6};
  const double ratio[] = {1.5, 2.0, 2.5};
  for (int k = 0; k < 3; ++k) CHECK(std::fabs(constants({{"spin_ratio", ratio[k]}}).spin * 60 / (2 * kPi) - rpm[k]) < 0.1);
}

TEST_CASE("T6: rotor-only x and y follow the damped oscillator to 1e-8 of the amplitude over 10 s", "[ball_balancer]") {
  BallBalancerConstants c = chapter8(0, false);
  c.cx = c.cy = 0.153 * kLbfPerFt;
  c.control.rtol = 1e-12;
  const double x0 = 0.01;
  State y = State::Zero();
  y[kX] = x0;
  y[kY] = c.y_eq() + x0;
  BallBalancerSimulation sim(c, y);
  sim.advance(10.0);
  const double w = std::sqrt(c.kx / c.m_rotor), z = c.cx / (2 * std::sqrt(c.kx * c.m_rotor));
  const double wd = w * std::sqrt(1 - z * z), t = 10.0;
  const double exact = x0 * std::exp(-z * w * t) * (std::cos(wd * t) + z * w / wd * std::sin(wd * t));
  CHECK(std::fabs(sim.state()[kX] - exact) < 1e-8 * x0);
  CHECK(std::fabs(sim.state()[kY] - c.y_eq() - exact) < 1e-8 * x0);
  CHECK(c.y_eq() / kFt == Approx(-0.33273).epsilon(2e-5));
}

TEST_CASE("T7: one ball on a fixed race is the damped pendulum to 1e-8", "[ball_balancer]") {
  BallBalancerConstants c = chapter8(1, false);
  c.m_rotor = 1e9;  // the rotor locked
  c.kx = c.ky = 1e11;
  c.rolling_inertia = 0;
  c.drag = c.R * 0.005 * 4.4482216;  // d = 0.005 lbf s/rad
  State y = State::Zero();
  y[kY] = c.y_eq();
  y[kTheta] = -kPi / 2 + 1.0;  // nu = 1 rad from the bottom
  BallBalancerSimulation sim(c, y);
  sim.advance(3.0);
  const double g_R = c.g / c.R, damping = c.drag / (c.m_ball * c.R * c.R);
  const double nu = reference_1dof([&](double, double u, double v) { return -g_R * std::sin(u) - damping * v; }, 1.0, 0.0, 3.0);
  CHECK(std::fabs(sim.state()[kTheta] + kPi / 2 - nu) < 1e-8);
  CHECK(damping == Approx(3.125).epsilon(1e-3));  // d / m_P in the thesis's units
}

TEST_CASE("T8: rotating unbalance at 100 rpm: x and y follow the 1-DOF forced ODE, amplitude 0.06852 ft", "[ball_balancer]") {
  BallBalancerConstants c = chapter8(0, false);
  c.cx = c.cy = 0.153 * kLbfPerFt;
  c.unbalance = 0.0016 * kSlug * kFt;  // m_e e, e = 1 ft
  c.spin = 100 * 2 * kPi / 60;
  c.phi0 = -kPi / 2;  // x forced by sin(w t)
  State y = State::Zero();
  y[kY] = c.y_eq();
  BallBalancerSimulation sim(c, y);
  sim.advance(5.0);
  const double k = c.kx / c.m_rotor, d = c.cx / c.m_rotor, f = c.unbalance / c.m_rotor * c.spin * c.spin;
  const double x_ref = reference_1dof([&](double t, double u, double v) { return -k * u - d * v + f * std::sin(c.spin * t); }, 0, 0, 5.0);
  CHECK(std::fabs(sim.state()[kX] - x_ref) < 1e-8 * 0.02);
  // y is forced by sin(phi) = -cos(w t).
  const double y_ref = reference_1dof([&](double t, double u, double v) { return -k * u - d * v - f * std::cos(c.spin * t); }, 0, 0, 5.0);
  CHECK(std::fabs(sim.state()[kY] - c.y_eq() - y_ref) < 1e-8 * 0.02);
  const double rho = c.spin / std::sqrt(k);
  const double amplitude = c.unbalance * c.spin * c.spin / std::hypot(c.kx - c.m_rotor * c.spin * c.spin, c.cx * c.spin);
  CHECK(rho == Approx(1.0645).epsilon(1e-4));
  CHECK(amplitude / kFt == Approx(0.06852).epsilon(1e-4));
}

TEST_CASE("S2: zero-ball x_max/R slope per unit m_e/m_P is 0.01787/0.01330/0.01189 (analytic) within 0.5 %", "[ball_balancer]") {
  const double slope[] = {0.017871, 0.013304, 0.011891};
  const double ratio[] = {1.5, 2.0, 2.5};
  for (int k = 0; k < 3; ++k) {
    const BallBalancerConstants c = constants({{"n_balls", 0}, {"me_ratio", 2}, {"spin_ratio", ratio[k]}});
    BallBalancerSimulation sim(c);
    Collector samples(static_cast<int>(60 / c.period));  // 60 s: the transient decays as exp(-t / 2 s)
    sim.run(samples);
    double x_max = 0;
    for (std::size_t s = samples.samples.size() - 10; s < samples.samples.size(); ++s)
      x_max = std::max(x_max, samples.samples[s].aux[kMaxX]);
    const double measured = x_max / c.R / 2;
    INFO("spin " << ratio[k] << " omega_n: slope " << measured);
    CHECK(std::fabs(measured / slope[k] - 1) < 0.005);
  }
}

TEST_CASE("S3: the ball is picked up between 0.33 and 0.35 omega_n (analytic 0.3391)", "[ball_balancer]") {
  auto laps = [](double spin_ratio) {  // net revolutions of ball 1 between 30 s and 60 s
    const BallBalancerConstants c = constants({{"n_balls", 1}, {"me_ratio", 1}, {"spin_ratio", spin_ratio}});
    BallBalancerSimulation sim(c);
    sim.advance(30.0);
    const double start = sim.state()[kTheta];
    sim.advance(60.0);
    return (sim.state()[kTheta] - start) / (2 * kPi);
  };
  const double below = laps(0.33), above = laps(0.35);
  INFO("laps in 30 s: " << below << " at 0.33, " << above << " at 0.35 omega_n");
  CHECK(std::fabs(below) < 0.5);
  CHECK(above > 1);
  const BallBalancerConstants c = constants({});
  CHECK(c.m_ball * c.g * c.R / c.drag / c.omega_n == Approx(0.3391).epsilon(1e-3));
}
