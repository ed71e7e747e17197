// Moreau midpoint time-stepping on small systems with known answers (Krack et al. 2017):
// a rigid block on rigid ground (static load, eps_n = 0.5 rebound, Coulomb stop after v0 / (mu g)),
// and a contact-free oscillator (bounded leapfrog energy).
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/timestepping/moreau_midpoint.hpp"

using namespace vibro::timestepping;

namespace {
// Planar block (x, z, phi), mass m, inertia J, with two bottom corners at (+-a, -b) from the CoM
// that touch the ground z = 0.
class BlockOnGround : public MeasureDifferentialSystem {
 public:
  BlockOnGround(double mu, double eps_n, double g) : mu_(mu), eps_n_(eps_n), g_(g) {
    inverse_mass_ = Eigen::Vector3d(1 / m_, 1 / m_, 1 / J_);
  }
  int dofs() const override { return 3; }
  int max_contacts() const override { return 2; }
  const Eigen::VectorXd& inverse_mass() const override { return inverse_mass_; }
  void forces(const Eigen::VectorXd&, const Eigen::VectorXd&, double, Eigen::VectorXd& h) override {
    h << 0, -m_ * g_, 0;
  }
  void closed_contacts(const Eigen::VectorXd& q, double, ClosedContacts& closed) override {
    closed.count = 0;
    const double c = std::cos(q(2)), s = std::sin(q(2));
    for (int i = 0; i < 2; ++i) {
      const double rx = i == 0 ? -a_ : a_, rz = -b_;
      if (q(1) + s * rx + c * rz > 0) continue;
      const int k = closed.add(i, mu_, eps_n_, 0.0);
      closed.W.col(2 * k) << 0, 1, c * rx - s * rz;
      closed.W.col(2 * k + 1) << 1, 0, -s * rx - c * rz;
      closed.w.segment(2 * k, 2).setZero();
    }
  }
  double m_ = 2.0, J_ = 0.05, a_ = 0.2, b_ = 0.1;

 private:
  double mu_, eps_n_, g_;
  Eigen::VectorXd inverse_mass_;
};

class Oscillator : public MeasureDifferentialSystem {
 public:
  int dofs() const override { return 2; }
  int max_contacts() const override { return 1; }
  const Eigen::VectorXd& inverse_mass() const override { return inverse_mass_; }
  void forces(const Eigen::VectorXd& q, const Eigen::VectorXd&, double, Eigen::VectorXd& h) override {
    h << -k1 * q(0), -k2 * q(1);
  }
  void closed_contacts(const Eigen::VectorXd&, double, ClosedContacts& closed) override { closed.count = 0; }
  double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
    return 0.5 * (k1 * q(0) * q(0) + k2 * q(1) * q(1) + u(0) * u(0) / inverse_mass_(0) + u(1) * u(1) / inverse_mass_(1));
  }
  double k1 = 1.0, k2 = 400.0;

 private:
  Eigen::VectorXd inverse_mass_ = Eigen::Vector2d(1.0, 0.25);
};

ProxSolverSettings tight() {
  ProxSolverSettings s;
  s.rtol = 1e-13;
  s.atol = 1e-16;
  s.max_iterations = 100000;
  return s;
}
}  // namespace

TEST_CASE("block resting on the ground: normal percussions sum to m g dt every step, no motion",
          "[timestepping][beam_slider]") {
  BlockOnGround block(0.3, 0.5, 9.81);
  MoreauMidpoint stepper(block, tight());
  Eigen::VectorXd q(3), u = Eigen::VectorXd::Zero(3);
  q << 0.0, block.b_, 0.0;
  const double dt = 1e-3;
  for (int k = 0; k < 1000; ++k) {
    const StepReport r = stepper.step(q, u, k * dt, dt);
    REQUIRE(r.contacts == 2);
    REQUIRE(r.converged);
    const auto P = stepper.percussions();
    CHECK(P(0) + P(2) == Approx(block.m_ * 9.81 * dt).epsilon(1e-10));
    CHECK(P(0) == Approx(P(2)).epsilon(1e-8));  // symmetric load
  }
  CHECK(std::abs(q(1) - block.b_) < 1e-12);
  CHECK(u.norm() < 1e-12);
}

TEST_CASE("flat drop without gravity: rebound at eps_n = 0.5 times the approach speed", "[timestepping][beam_slider]") {
  for (double eps : {0.5, 0.0, 1.0}) {
    BlockOnGround block(0.3, eps, 0.0);
    MoreauMidpoint stepper(block, tight());
    Eigen::VectorXd q(3), u(3);
    q << 0.0, block.b_ + 0.0123, 0.0;
    u << 0.0, -1.0, 0.0;
    const double dt = 1e-3;
    int impacts = 0;
    for (int k = 0; k < 100; ++k) impacts += stepper.step(q, u, k * dt, dt).contacts > 0;
    INFO("eps_n = " << eps);
    CHECK(impacts == 1 + (eps == 0.0 ? 99 - 12 : 0));  // a plastic impact keeps the contact closed
    CHECK(u(1) == Approx(eps).margin(1e-12));
    CHECK(std::abs(u(0)) < 1e-12);
    CHECK(std::abs(u(2)) < 1e-12);
  }
}

TEST_CASE("block sliding on the ground with v0 stops after v0 / (mu g) and then sticks", "[timestepping][beam_slider]") {
  const double mu = 0.2, g = 9.81, v0 = 0.3, dt = 1e-4;
  BlockOnGround block(mu, 0.5, g);
  MoreauMidpoint stepper(block, tight());
  Eigen::VectorXd q(3), u(3);
  q << 0.0, block.b_, 0.0;
  u << v0, 0.0, 0.0;
  double stop_time = -1;
  for (int k = 0; k < 3000; ++k) {
    stepper.step(q, u, k * dt, dt);
    if (stop_time < 0 && std::abs(u(0)) < 1e-12) stop_time = (k + 1) * dt;
  }
  CHECK(stop_time == Approx(v0 / (mu * g)).margin(dt));
  CHECK(std::abs(u(0)) < 1e-12);
  CHECK(q(0) == Approx(v0 * v0 / (2 * mu * g)).margin(v0 * dt));
  CHECK(std::abs(q(2)) < 1e-9);  // friction loads the front corner more, but the block does not tip
}

TEST_CASE("no contact, no damping: leapfrog energy stays within (omega dt)^2 of its start over 1e5 steps",
          "[timestepping][beam_slider]") {
  Oscillator osc;
  MoreauMidpoint stepper(osc, tight());
  Eigen::VectorXd q(2), u(2);
  q << 1.0, 0.01;
  u << 0.0, 0.3;
  const double dt = 0.01, omega_max = std::sqrt(osc.k2 * 0.25);
  const double e0 = osc.energy(q, u);
  double worst = 0, last = 0;
  for (int k = 0; k < 100000; ++k) {
    stepper.step(q, u, k * dt, dt);
    last = osc.energy(q, u) / e0 - 1;
    worst = std::max(worst, std::abs(last));
  }
  CHECK(worst < std::pow(omega_max * dt, 2));
  CHECK(worst > 0);  // the test can see an energy error
}
