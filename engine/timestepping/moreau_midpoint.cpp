#include "engine/timestepping/moreau_midpoint.hpp"

#include "engine/core/case_budget.hpp"

namespace vibro::timestepping {

void ClosedContacts::reserve(int dofs, int max_contacts) {
  count = 0;
  W.setZero(dofs, 2 * max_contacts);
  w.setZero(2 * max_contacts);
  const auto n = static_cast<std::size_t>(max_contacts);
  id.assign(n, -1);
  mu.assign(n, 0.0);
  eps_n.assign(n, 0.0);
  eps_t.assign(n, 0.0);
}

int ClosedContacts::add(int contact_id, double friction, double restitution_n, double restitution_t) {
  const int k = count++;
  const auto s = static_cast<std::size_t>(k);
  id[s] = contact_id;
  mu[s] = friction;
  eps_n[s] = restitution_n;
  eps_t[s] = restitution_t;
  return k;
}

MoreauMidpoint::MoreauMidpoint(MeasureDifferentialSystem& system, const ProxSolverSettings& settings)
    : system_(system), settings_(settings) {
  const int n = system.dofs(), m = system.max_contacts();
  closed_.reserve(n, m);
  minv_ = system.inverse_mass();
  q_mid_.setZero(n);
  h_.setZero(n);
  impulse_.setZero(n);
  free_velocity_.setZero(n);
  minv_W_.setZero(n, 2 * m);
  G_.setZero(2 * m, 2 * m);
  c_.setZero(2 * m);
  P_.setZero(2 * m);
  mu_.reserve(static_cast<std::size_t>(m));
  previous_P_.setZero(2 * m);
  previous_closed_.assign(static_cast<std::size_t>(m), 0);
}

void MoreauMidpoint::reset_warm_start() {
  previous_P_.setZero();
  std::fill(previous_closed_.begin(), previous_closed_.end(), 0);
}

StepReport MoreauMidpoint::step(Eigen::VectorXd& q, Eigen::VectorXd& u, double t, double dt) {
  charge_step();
  const double t_mid = t + 0.5 * dt;
  q_mid_ = q + 0.5 * dt * u;
  system_.forces(q_mid_, u, t_mid, h_);  // u^B in h: the paper leaves the velocity in h(q^M, u^M, t^M) undefined; the start-of-step velocity keeps the step explicit
  system_.closed_contacts(q_mid_, t_mid, closed_);
  // Velocity without contact percussions.
  free_velocity_ = u + dt * minv_.cwiseProduct(h_);
  StepReport report;
  report.contacts = closed_.count;
  const int n2 = 2 * closed_.count;
  if (closed_.count == 0) {
    impulse_.setZero();
  } else {
    const auto W = closed_.W.leftCols(n2);
    auto MW = minv_W_.leftCols(n2);
    MW = minv_.asDiagonal() * W;
    auto G = G_.topLeftCorner(n2, n2);
    G.noalias() = W.transpose() * MW;
    // c = (I + eps)(W^T u^B + w) + W^T M^-1 h dt = W^T u_free + w + eps (W^T u^B + w).
    auto c = c_.head(n2);
    c.noalias() = W.transpose() * free_velocity_;
    c += closed_.w.head(n2);
    mu_.clear();
    for (int k = 0; k < closed_.count; ++k) {
      const auto s = static_cast<std::size_t>(k);
      const double gamma_n = W.col(2 * k).dot(u) + closed_.w(2 * k);
      const double gamma_t = W.col(2 * k + 1).dot(u) + closed_.w(2 * k + 1);
      c(2 * k) += closed_.eps_n[s] * gamma_n;
      c(2 * k + 1) += closed_.eps_t[s] * gamma_t;
      mu_.push_back(closed_.mu[s]);
      const auto id = static_cast<std::size_t>(closed_.id[s]);
      const bool warm = previous_closed_[id] != 0;
      P_(2 * k) = warm ? previous_P_(2 * static_cast<Eigen::Index>(id)) : 0.0;
      P_(2 * k + 1) = warm ? previous_P_(2 * static_cast<Eigen::Index>(id) + 1) : 0.0;
    }
    const ProxSolveReport solved = solve_prox(G, c, mu_, P_.head(n2), settings_);
    report.iterations = solved.iterations;
    report.converged = solved.converged;
    impulse_.noalias() = W * P_.head(n2);
  }
  u = free_velocity_ + minv_.cwiseProduct(impulse_);
  q = q_mid_ + 0.5 * dt * u;
  // Warm starts for the next step: only contacts closed in this one.
  std::fill(previous_closed_.begin(), previous_closed_.end(), 0);
  for (int k = 0; k < closed_.count; ++k) {
    const auto id = static_cast<Eigen::Index>(closed_.id[static_cast<std::size_t>(k)]);
    previous_closed_[static_cast<std::size_t>(id)] = 1;
    previous_P_(2 * id) = P_(2 * k);
    previous_P_(2 * id + 1) = P_(2 * k + 1);
  }
  return report;
}

}  // namespace vibro::timestepping
