#include "engine/impulse/weighted_min_norm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace vibro::impulse {

namespace {

// G y = b for a symmetric positive semi-definite 2x2 G, as the column-pivoted QR behind Eigen's
// CompleteOrthogonalDecomposition solves it: the pivot is the first column of largest norm
// (|R_00|), |R_11| = |det G| / |R_00|; full rank when |R_11| > threshold |R_00|, else the
// minimum-norm solution of the rank-1 truncation q1 r^T (q1 the unit pivot column, r = G^T q1).
void solve_2x2(double g00, double g01, double g11, const LocalVector& b, double threshold, LocalVector& y) {
  const double s0 = g00 * g00 + g01 * g01, s1 = g01 * g01 + g11 * g11;  // squared column norms
  const bool second = s1 > s0;
  const double r00 = std::sqrt(second ? s1 : s0);
  if (!(r00 > 0)) {
    y.setZero();
    return;
  }
  const double det = g00 * g11 - g01 * g01;
  if (std::abs(det) / r00 > threshold * r00) {
    y(0) = (g11 * b(0) - g01 * b(1)) / det;
    y(1) = (g00 * b(1) - g01 * b(0)) / det;
    return;
  }
  const double q0 = (second ? g01 : g00) / r00, q1 = (second ? g11 : g01) / r00;
  const double r0 = q0 * g00 + q1 * g01, r1 = q0 * g01 + q1 * g11;
  const double scale = (q0 * b(0) + q1 * b(1)) / (r0 * r0 + r1 * r1);
  y(0) = r0 * scale;
  y(1) = r1 * scale;
}

}  // namespace

LocalVector weighted_min_norm_solve(const LocalMatrix& A, const LocalVector& w, const LocalVector& b,
                                    double rank_threshold) {
  const auto k = A.rows();
  LocalVector y(k);
  if (k == 1) {
    const double g = A(0, 0) * w(0) * A(0, 0);
    y(0) = g != 0 ? b(0) / g : 0.0;
  } else if (k == 2) {
    const double g00 = w(0) * A(0, 0) * A(0, 0) + w(1) * A(0, 1) * A(0, 1);
    const double g01 = w(0) * A(0, 0) * A(1, 0) + w(1) * A(0, 1) * A(1, 1);
    const double g11 = w(0) * A(1, 0) * A(1, 0) + w(1) * A(1, 1) * A(1, 1);
    solve_2x2(g00, g01, g11, b, rank_threshold, y);
  } else {
    const LocalMatrix G = A * w.asDiagonal() * A.transpose();
    Eigen::CompleteOrthogonalDecomposition<LocalMatrix> cod;
    cod.setThreshold(rank_threshold);
    cod.compute(G);
    y = cod.solve(b);
  }
  LocalVector x(k);
  for (Eigen::Index a = 0; a < k; ++a) {
    double sum = 0;
    for (Eigen::Index c = 0; c < k; ++c) sum += A(c, a) * y(c);
    x(a) = w(a) * sum;
  }
  return x;
}

}  // namespace vibro::impulse
