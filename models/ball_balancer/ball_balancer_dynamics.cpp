#include "models/ball_balancer/ball_balancer_dynamics.hpp"

#include <Eigen/LU>
#include <cmath>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/interval/interval_linear_enclosure.hpp"

namespace vibro::ball_balancer {

namespace {
constexpr double kTwoPi = 6.283185307179586;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxUnknowns, kMaxUnknowns>;
using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxUnknowns, 1>;

// The counterpart of Matrix for the assembly over boxes: entries and their derivatives.
struct IntervalMatrix {
  int size;
  std::vector<DualInterval> entries;  // sized to the system: a fixed 32 x 32 array costs its zeroing
  explicit IntervalMatrix(int n) : size(n), entries(static_cast<std::size_t>(n * n)) {}
  DualInterval& operator()(int r, int k) { return entries[static_cast<std::size_t>(r * size + k)]; }
};

template <class S>
S square(const S& x) {
  using std::abs;
  const S a = abs(x);  // [0, |x|^2] for an interval that straddles zero, not [-.., ..]
  return a * a;
}

// The saddle-point system for the signs nu_i of N_i, over any scalar S (double for the solve,
// DualInterval for the enclosure over a box of states and times): rows of M q'' = h + Q_fric with the
// train constraints theta_b'' = theta_a'' and the stuck constraints theta_i'' = phi'' = 0.
template <class S, class Y, class Mat, class Vec>
void assemble(const BallBalancerConstants& c, double tan_half, const S& t, const Y& y, const Topology& topology,
              const std::array<S, kMaxBalls>& nu, const Columns& col, Mat& A, Vec& b) {
  using std::cos;
  using std::sin;
  const int n = c.n;
  const double m = c.m_ball, R = c.R, mR = m * R, w = c.spin;
  const S phi = w * t + c.phi0;
  const S xd = y[kRate + kX], yd = y[kRate + kY];
  A(0, 0) = c.total_mass();
  A(1, 1) = c.total_mass();
  b[0] = c.unbalance * w * w * cos(phi) - c.cx * xd - c.kx * y[kX];
  b[1] = c.unbalance * w * w * sin(phi) - c.cy * yd - c.ky * y[kY] - c.total_mass() * c.g;
  for (int i = 0; i < n; ++i) {
    const std::size_t iu = static_cast<std::size_t>(i);
    const int row = 2 + i;
    const S th = y[kTheta + i], thd = y[kRate + kTheta + i], C = cos(th), Sn = sin(th), thd2 = square(thd);
    A(0, row) = -mR * Sn;
    A(row, 0) = -mR * Sn;
    A(1, row) = mR * C;
    A(row, 1) = mR * C;
    A(row, row) = mR * R + c.rolling_inertia;
    b[0] += mR * thd2 * C;
    b[1] += mR * thd2 * Sn;
    b[row] = -mR * c.g * C - c.drag * (thd - w);
    if (topology.stuck[iu]) {
      A(row, col.group[static_cast<std::size_t>(col.lead[iu])]) = -1.0;
    } else if (c.mu_R > 0) {
      // R mu s (nu N_i + sin(a/2) sum F_c), N_i = m (R thd^2 - g S) - m (C x'' + S y'').
      const double f = R * c.mu_R * topology.slip[iu];
      A(row, 0) += f * nu[iu] * m * C;
      A(row, 1) += f * nu[iu] * m * Sn;
      b[row] += f * nu[iu] * m * (R * thd2 - c.g * Sn);
      for (const int k : {i, (i + n - 1) % n})
        if (col.pair[static_cast<std::size_t>(k)] >= 0) A(row, col.pair[static_cast<std::size_t>(k)]) -= c.mu_R * topology.slip[iu] * tan_half;
    }
  }
  for (int k = 0; k < n; ++k) {
    const int cp = col.pair[static_cast<std::size_t>(k)];
    if (cp < 0) continue;
    const int a = 2 + k, bb = 2 + (k + 1) % n;
    A(a, cp) += 1.0;  // compression pushes ball a back (CW) and ball b forward (CCW)
    A(bb, cp) -= 1.0;
    A(cp, bb) = 1.0;
    A(cp, a) = -1.0;
  }
  for (int i = 0; i < n; ++i)
    if (col.group[static_cast<std::size_t>(i)] >= 0) A(col.group[static_cast<std::size_t>(i)], 2 + i) = 1.0;  // theta_i'' = phi'' = 0
}

// N_i = m (R theta_i'^2 - x'' cos theta_i - (y'' + g) sin theta_i) from the solution z.
template <class S, class Y, class Z>
void normal_forces(const BallBalancerConstants& c, const Y& y, const Z& z, std::array<S, kMaxBalls>& normal) {
  using std::cos;
  using std::sin;
  for (int i = 0; i < c.n; ++i) {
    const S th = y[kTheta + i];
    normal[static_cast<std::size_t>(i)] = c.m_ball * (c.R * square(S(y[kRate + kTheta + i])) - z[0] * cos(th) - (z[1] + c.g) * sin(th));
  }
}

// Contact forces lambda_k and, per stuck group (at its leader), the friction needed and the margin
// capacity - |needed| (capacity: R mu_R (|N_i| + tan(alpha/2)/R sum |lambda|) summed over the group).
template <class S, class Z>
void constraint_forces(const BallBalancerConstants& c, double tan_half, const Z& z, const Columns& col,
                       const std::array<S, kMaxBalls>& normal, std::array<S, kMaxBalls>& lambda,
                       std::array<S, kMaxBalls>& margin, std::array<S, kMaxBalls>& stick) {
  using std::abs;
  const int n = c.n;
  for (int k = 0; k < n; ++k) {
    const int cp = col.pair[static_cast<std::size_t>(k)];
    lambda[static_cast<std::size_t>(k)] = cp >= 0 ? S(z[cp]) : S(0.0);
  }
  for (int l = 0; l < n; ++l) {
    const int cg = col.group[static_cast<std::size_t>(l)];
    if (cg < 0) continue;
    S capacity = 0.0;
    int members = 0;
    for (int i = 0; i < n; ++i) {
      if (col.lead[static_cast<std::size_t>(i)] != l) continue;
      ++members;
      S load = abs(normal[static_cast<std::size_t>(i)]);
      for (const int k : {i, (i + n - 1) % n}) load += tan_half / c.R * abs(lambda[static_cast<std::size_t>(k)]);
      capacity += c.R * c.mu_R * load;
    }
    stick[static_cast<std::size_t>(l)] = z[cg];
    margin[static_cast<std::size_t>(l)] = capacity - members * abs(S(z[cg]));
  }
}
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

Columns BallBalancerDynamics::columns(const Topology& topology) const {
  const int n = c_.n;
  Columns col;
  col.size = 2 + n;
  for (int k = 0; k < n; ++k) col.pair[static_cast<std::size_t>(k)] = n >= 2 && topology.contact[static_cast<std::size_t>(k)] ? col.size++ : -1;
  for (int i = 0; i < n; ++i) {
    col.lead[static_cast<std::size_t>(i)] = leader(topology, i);
    col.group[static_cast<std::size_t>(i)] = -1;
  }
  for (int i = 0; i < n; ++i)
    if (topology.stuck[static_cast<std::size_t>(i)] && col.lead[static_cast<std::size_t>(i)] == i) col.group[static_cast<std::size_t>(i)] = col.size++;
  return col;
}

Accelerations BallBalancerDynamics::solve(double t, const State& y, Topology& topology) const {
  const int n = c_.n, D = 2 + n;
  const Columns col = columns(topology);
  Accelerations out;
  for (int pass = 0; pass < 4; ++pass) {
    std::array<double, kMaxBalls> nu{};
    for (int i = 0; i < n; ++i) nu[static_cast<std::size_t>(i)] = topology.nu[static_cast<std::size_t>(i)];
    Matrix A = Matrix::Zero(col.size, col.size);
    Vector b = Vector::Zero(col.size);
    assemble(c_, tan_half_, t, y, topology, nu, col, A, b);
    const Vector z = A.partialPivLu().solve(b);
    if (!z.allFinite()) throw CaseFailure("singular ball balancer constraint system at t = " + std::to_string(t));
    out.qdd.setZero();
    out.qdd.head(D) = z.head(D);
    normal_forces(c_, y, z, out.normal);
    bool flipped = false;
    for (int i = 0; i < n; ++i) {
      const std::size_t iu = static_cast<std::size_t>(i);
      const int sign = out.normal[iu] >= 0 ? 1 : -1;
      if (sign != topology.nu[iu]) {
        flipped = flipped || (!topology.stuck[iu] && c_.mu_R > 0);
        topology.nu[iu] = sign;
      }
    }
    constraint_forces(c_, tan_half_, z, col, out.normal, out.lambda, out.margin, out.stick);
    if (!flipped) return out;
  }
  return out;  // the N signs kept flipping (N ~ 0): the last solve stands
}

ForceEnclosure BallBalancerDynamics::enclose_forces(const DualInterval& t, const StateBox& y, const Topology& topology) const {
  const int n = c_.n;
  const Columns col = columns(topology);
  std::array<DualInterval, kMaxBalls> nu{};
  for (int i = 0; i < n; ++i) nu[static_cast<std::size_t>(i)] = topology.nu[static_cast<std::size_t>(i)];
  ForceEnclosure out;
  for (;;) {  // at most n + 1 passes: each one that repeats widens another ball's sign for good
    IntervalMatrix A(col.size);
    std::array<DualInterval, kMaxUnknowns> b{};
    assemble(c_, tan_half_, t, y, topology, nu, col, A, b);
    // A z = b, and differentiated along the parameter, A z' = b' - A' z: two enclosures, one matrix.
    Matrix a_mid(col.size, col.size), a_rad(col.size, col.size);
    Vector b_mid(col.size), b_rad(col.size), z_mid, z_rad, d_mid, d_rad;
    for (int r = 0; r < col.size; ++r) {
      b_mid[r] = b[static_cast<std::size_t>(r)].v.mid();
      b_rad[r] = b[static_cast<std::size_t>(r)].v.rad();
      for (int k = 0; k < col.size; ++k) a_mid(r, k) = A(r, k).v.mid(), a_rad(r, k) = A(r, k).v.rad();
    }
    const IntervalLinearSystem<Matrix, Vector> system(a_mid, a_rad);
    if (!system.solve(b_mid, b_rad, z_mid, z_rad)) return ForceEnclosure{};
    std::array<DualInterval, kMaxUnknowns> z{};
    for (int r = 0; r < col.size; ++r) z[static_cast<std::size_t>(r)].v = Interval(z_mid[r] - z_rad[r], z_mid[r] + z_rad[r]);
    for (int r = 0; r < col.size; ++r) {
      Interval rhs = b[static_cast<std::size_t>(r)].d;
      for (int k = 0; k < col.size; ++k) rhs -= A(r, k).d * z[static_cast<std::size_t>(k)].v;
      b_mid[r] = rhs.mid();
      b_rad[r] = rhs.rad();
    }
    if (!system.solve(b_mid, b_rad, d_mid, d_rad)) return ForceEnclosure{};
    for (int r = 0; r < col.size; ++r) z[static_cast<std::size_t>(r)].d = Interval(d_mid[r] - d_rad[r], d_mid[r] + d_rad[r]);
    std::array<DualInterval, kMaxBalls> normal{}, stick{};
    normal_forces(c_, y, z, normal);
    // A slipping ball whose N may take the other sign over the box: its rolling term with both signs.
    bool widened = false;
    for (int i = 0; i < n; ++i) {
      const std::size_t iu = static_cast<std::size_t>(i);
      if (topology.stuck[iu] || !(c_.mu_R > 0) || nu[iu].v.lo != nu[iu].v.hi) continue;
      if (nu[iu].v.lo > 0 ? normal[iu].v.lo < 0 : normal[iu].v.hi >= 0) {
        nu[iu] = DualInterval(Interval(-1.0, 1.0), Interval(0.0));
        widened = true;
      }
    }
    if (widened) continue;
    constraint_forces(c_, tan_half_, z, col, normal, out.lambda, out.margin, stick);
    out.valid = true;
    return out;
  }
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
