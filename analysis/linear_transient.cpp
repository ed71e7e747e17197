#include "analysis/linear_transient.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace vibro {

namespace {

// Least-squares coefficients a_0..a_{r-1} of delta_{j+r} + sum_i a_i delta_{j+i} = 0 over all j, and
// the relative residual; r = 1 or 2.
bool fit_recurrence(const DifferenceMatrix& d, int r, Eigen::Vector2d& a, double& residual) {
  const Eigen::Index m = d.cols();
  const Eigen::Index equations = m - r;
  Eigen::Matrix2d normal = Eigen::Matrix2d::Zero();
  Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
  for (Eigen::Index j = 0; j < equations; ++j)
    for (int p = 0; p < r; ++p) {
      rhs(p) -= d.col(j + p).dot(d.col(j + r));
      for (int q = 0; q < r; ++q) normal(p, q) += d.col(j + p).dot(d.col(j + q));
    }
  a.setZero();
  if (r == 1) {
    if (!(normal(0, 0) > 0)) return false;
    a(0) = rhs(0) / normal(0, 0);
  } else {
    const double det = normal.determinant();
    // A singular system means one direction already explains the differences (degree 1's job).
    if (!(std::fabs(det) > 1e-12 * normal(0, 0) * normal(1, 1))) return false;
    a = normal.inverse() * rhs;
  }
  double misfit = 0, scale = 0;
  for (Eigen::Index j = 0; j < equations; ++j) {
    ExtrapolationVector e = d.col(j + r);
    for (int p = 0; p < r; ++p) e += a(p) * d.col(j + p);
    misfit += e.squaredNorm();
    scale += d.col(j + r).squaredNorm();
  }
  residual = scale > 0 ? std::sqrt(misfit / scale) : 1;
  return true;
}

}  // namespace

LinearTransient fit_linear_transient(const DifferenceMatrix& differences, double fit_tolerance) {
  LinearTransient result;
  const Eigen::Index m = differences.cols();
  for (int r = 1; r <= 2 && m >= r + 2; ++r) {
    Eigen::Vector2d a;
    double residual = 1;
    if (!fit_recurrence(differences, r, a, residual)) continue;
    if (!(residual <= (r == 1 ? fit_tolerance : 0.1 * fit_tolerance))) continue;
    // Roots of p(x) = x^r + a_{r-1} x^{r-1} + ... + a_0: the multipliers.
    double radius = 0;
    if (r == 1) {
      radius = std::fabs(a(0));
    } else {
      const std::complex<double> root = std::sqrt(std::complex<double>(a(1) * a(1) / 4 - a(0)));
      radius = std::max(std::abs(-a(1) / 2 + root), std::abs(-a(1) / 2 - root));
    }
    result.fits = true;
    result.degree = r;
    result.spectral_radius = radius;
    result.residual = residual;
    if (radius >= 1) return result;  // no limit to extrapolate to
    // limit - s_n = sum_{i<r} a_i (s_{n-r+i} - s_n) / p(1), with s_{n-k} - s_n = -(delta_n + ... + delta_{n-k+1}).
    const double p1 = 1 + a(0) + (r == 2 ? a(1) : 0);
    ExtrapolationVector behind = ExtrapolationVector::Zero(differences.rows());  // s_n - s_{n-k}
    ExtrapolationVector sum = ExtrapolationVector::Zero(differences.rows());
    for (int k = 1; k <= r; ++k) {
      behind += differences.col(m - k);
      sum -= a(r - k) * behind;  // coefficient of s_{n-k} is a_{r-k}
    }
    result.remaining = sum / p1;
    return result;
  }
  return result;
}

}  // namespace vibro
