#include "models/ball_balancer/ball_balancer_dynamics.hpp"

#include <Eigen/LU>
#include <cmath>

#include "engine/core/model.hpp"

namespace vibro::ball_balancer {

namespace {
constexpr double kTwoPi = 6.283185307179586;
constexpr int kMaxUnknowns = kDof + 2 * kMaxBalls;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxUnknowns, kMaxUnknowns>;
using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxUnknowns, 1>;
}  // namespace

BallBalancerDynamics::BallBalancerDynamics(const BallBalancerConstants& c) : c_(c), tan_half_(std::tan(c.alpha / 2)) {}

int BallBalancerDynamics::leader(const Topology& topology, int i) const {
  for (int steps = 0; steps < c_.n; ++steps) {
    const int previous = (i + c_.n - 1) % c_.n;
    if (!topology.contact[static_cast<std::size_t>(previous)]) return i;
    i = previous;
  }
  throw CaseFailure("the balls closed a ring train (every neighbour pair in contact): indeterminate contact forces");
}

Eigen::MatrixXd BallBalancerDynamics::mass_matrix(const State& y) const {
  const int D = 2 + c_.n;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(D, D);
  M(0, 0) = M(1, 1) = c_.total_mass();
  const double mR = c_.m_ball * c_.R;
  for (int i = 0; i < c_.n; ++i) {
    const double th = y[kTheta + i];
    M(0, 2 + i) = M(2 + i, 0) = -mR * std::sin(th);
    M(1, 2 + i) = M(2 + i, 1) = mR * std::cos(th);
    M(2 + i, 2 + i) = c_.m_ball * c_.R * c_.R + c_.rolling_inertia;
  }
  return M;
}

std::vector<RingPair> BallBalancerDynamics::ring_pairs() const {
  std::vector<RingPair> pairs;
  if (c_.n >= 2)
    for (int k = 0; k < c_.n; ++k) pairs.push_back({2 + k, 2 + (k + 1) % c_.n});
  return pairs;
}

double BallBalancerDynamics::gap(const State& y, int k) const {
  const int b = (k + 1) % c_.n;
  return y[kTheta + b] - y[kTheta + k] - c_.alpha + (b == 0 ? kTwoPi : 0.0);
}

Accelerations BallBalancerDynamics::solve(double t, const State& y, Topology& topology) const {
  const int n = c_.n, D = 2 + n;
  const double m = c_.m_ball, R = c_.R, mR = m * R, phi_ = phi(t), w = c_.spin;
  const double xd = y[kRate + kX], yd = y[kRate + kY];
  // Unknowns: q'' (D), then a lambda per active pair, then a friction per stuck group.
  std::array<int, kMaxBalls> pair_column{}, group_column{};
  int size = D;
  for (int k = 0; k < n; ++k) pair_column[static_cast<std::size_t>(k)] = n >= 2 && topology.contact[static_cast<std::size_t>(k)] ? size++ : -1;
  std::array<int, kMaxBalls> lead{};
  for (int i = 0; i < n; ++i) {
    lead[static_cast<std::size_t>(i)] = leader(topology, i);
    group_column[static_cast<std::size_t>(i)] = -1;
  }
  for (int i = 0; i < n; ++i)
    if (topology.stuck[static_cast<std::size_t>(i)] && lead[static_cast<std::size_t>(i)] == i) group_column[static_cast<std::size_t>(i)] = size++;

  Accelerations out;
  for (int pass = 0; pass < 4; ++pass) {
    Matrix A = Matrix::Zero(size, size);
    Vector b = Vector::Zero(size);
    A(0, 0) = A(1, 1) = c_.total_mass();
    b[0] = c_.unbalance * w * w * std::cos(phi_) - c_.cx * xd - c_.kx * y[kX];
    b[1] = c_.unbalance * w * w * std::sin(phi_) - c_.cy * yd - c_.ky * y[kY] - c_.total_mass() * c_.g;
    for (int i = 0; i < n; ++i) {
      const std::size_t iu = static_cast<std::size_t>(i);
      const int row = 2 + i;
      const double th = y[kTheta + i], thd = y[kRate + kTheta + i], C = std::cos(th), S = std::sin(th);
      A(0, row) = A(row, 0) = -mR * S;
      A(1, row) = A(row, 1) = mR * C;
      A(row, row) = mR * R + c_.rolling_inertia;
      b[0] += mR * thd * thd * C;
      b[1] += mR * thd * thd * S;
      b[row] = -mR * c_.g * C - c_.drag * (thd - w);
      if (topology.stuck[iu]) {
        A(row, group_column[static_cast<std::size_t>(lead[iu])]) = -1;
      } else if (c_.mu_R > 0) {
        // R mu s (nu N_i + sin(a/2) sum F_c), N_i = m (R thd^2 - g S) - m (C x'' + S y'').
        const double f = R * c_.mu_R * topology.slip[iu];
        const double nu = topology.nu[iu];
        A(row, 0) += f * nu * m * C;
        A(row, 1) += f * nu * m * S;
        b[row] += f * nu * m * (R * thd * thd - c_.g * S);
        for (const int k : {i, (i + n - 1) % n})
          if (pair_column[static_cast<std::size_t>(k)] >= 0) A(row, pair_column[static_cast<std::size_t>(k)]) -= c_.mu_R * topology.slip[iu] * tan_half_;
      }
    }
    for (int k = 0; k < n; ++k) {
      const int col = pair_column[static_cast<std::size_t>(k)];
      if (col < 0) continue;
      const int a = 2 + k, bb = 2 + (k + 1) % n;
      A(a, col) += 1;  // compression pushes ball a back (CW) and ball b forward (CCW)
      A(bb, col) -= 1;
      A(col, bb) = 1;
      A(col, a) = -1;
    }
    for (int i = 0; i < n; ++i)
      if (group_column[static_cast<std::size_t>(i)] >= 0) A(group_column[static_cast<std::size_t>(i)], 2 + i) = 1;  // theta_i'' = phi'' = 0

    const Vector z = A.partialPivLu().solve(b);
    if (!z.allFinite()) throw CaseFailure("singular ball balancer constraint system at t = " + std::to_string(t));
    out.qdd.setZero();
    out.qdd.head(D) = z.head(D);
    bool flipped = false;
    for (int i = 0; i < n; ++i) {
      const std::size_t iu = static_cast<std::size_t>(i);
      const double th = y[kTheta + i], thd = y[kRate + kTheta + i];
      out.normal[iu] = m * (R * thd * thd - z[0] * std::cos(th) - (z[1] + c_.g) * std::sin(th));
      const int sign = out.normal[iu] >= 0 ? 1 : -1;
      if (sign != topology.nu[iu]) {
        flipped = flipped || (!topology.stuck[iu] && c_.mu_R > 0);
        topology.nu[iu] = sign;
      }
    }
    for (int k = 0; k < n; ++k) out.lambda[static_cast<std::size_t>(k)] = pair_column[static_cast<std::size_t>(k)] >= 0 ? z[pair_column[static_cast<std::size_t>(k)]] : 0.0;
    if (!flipped) {
      for (int l = 0; l < n; ++l) {
        const int col = group_column[static_cast<std::size_t>(l)];
        if (col < 0) continue;
        double capacity = 0;
        int members = 0;
        for (int i = 0; i < n; ++i) {
          if (lead[static_cast<std::size_t>(i)] != l) continue;
          ++members;
          double load = std::fabs(out.normal[static_cast<std::size_t>(i)]);
          for (const int k : {i, (i + n - 1) % n}) load += tan_half_ / R * std::fabs(out.lambda[static_cast<std::size_t>(k)]);
          capacity += R * c_.mu_R * load;
        }
        out.stick[static_cast<std::size_t>(l)] = z[col];
        out.margin[static_cast<std::size_t>(l)] = capacity - members * std::fabs(z[col]);
      }
      return out;
    }
  }
  return out;  // the N signs kept flipping (N ~ 0): the last solve stands
}

void BallBalancerDynamics::rhs(double t, const State& y, Topology& topology, State& dy) const {
  const Accelerations a = solve(t, y, topology);
  dy.head<kDof>() = y.tail<kDof>();
  dy.tail<kDof>() = a.qdd;
}

double BallBalancerDynamics::energy(double t, const State& y) const {
  const double xd = y[kRate + kX], yd = y[kRate + kY], ph = phi(t), w = c_.spin;
  double T = 0.5 * c_.m_rotor * (xd * xd + yd * yd) + c_.unbalance * w * (yd * std::cos(ph) - xd * std::sin(ph));
  double V = 0.5 * c_.kx * y[kX] * y[kX] + 0.5 * c_.ky * y[kY] * y[kY] + c_.m_rotor * c_.g * y[kY];
  for (int i = 0; i < c_.n; ++i) {
    const double th = y[kTheta + i], thd = y[kRate + kTheta + i];
    T += 0.5 * c_.m_ball *
             (xd * xd + yd * yd + c_.R * c_.R * thd * thd + 2 * c_.R * thd * (yd * std::cos(th) - xd * std::sin(th))) +
         0.5 * c_.rolling_inertia * (w - thd) * (w - thd);
    V += c_.m_ball * c_.g * (y[kY] + c_.R * std::sin(th));
  }
  return T + V;
}

double BallBalancerDynamics::momentum_x(double t, const State& y) const {
  double p = c_.total_mass() * y[kRate + kX] - c_.unbalance * c_.spin * std::sin(phi(t));
  for (int i = 0; i < c_.n; ++i) p -= c_.m_ball * c_.R * y[kRate + kTheta + i] * std::sin(y[kTheta + i]);
  return p;
}

double BallBalancerDynamics::momentum_y(double t, const State& y) const {
  double p = c_.total_mass() * y[kRate + kY] + c_.unbalance * c_.spin * std::cos(phi(t));
  for (int i = 0; i < c_.n; ++i) p += c_.m_ball * c_.R * y[kRate + kTheta + i] * std::cos(y[kTheta + i]);
  return p;
}

}  // namespace vibro::ball_balancer
