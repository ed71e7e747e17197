#pragma once
// Enclosures of every solution of A z = b for all A in an interval matrix and b in an interval
// vector (given as midpoint and radius), by preconditioning with the inverse C of the midpoint
// matrix: for each such A, b,  z - z0 = C (b - A z0) + (I - C A)(z - z0)  with z0 = C mid(b), so
// when the row sums of |I - C A| stay below rho < 1, ||z - z0|| <= ||C (b - A z0)|| / (1 - rho) (a
// contraction bound, Neumaier, "Interval Methods for Systems of Equations", Cambridge University
// Press 1990, ch. 4), and each component is bounded by its own row. The matrix part is done once,
// for any number of right-hand sides. Invalid when the box is too wide for the contraction or the
// midpoint matrix is singular: the caller subdivides.
#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace vibro {

// Mat and Vec: Eigen dynamic-size types (a fixed maximum size avoids the heap).
template <class Mat, class Vec>
class IntervalLinearSystem {
 public:
  IntervalLinearSystem(const Mat& a_mid, const Mat& a_rad) : a_mid_(a_mid), a_rad_(a_rad) {
    const Eigen::Index n = a_mid.rows();
    C_ = a_mid.partialPivLu().inverse();
    if (!C_.allFinite()) return;
    C_abs_ = C_.cwiseAbs();
    // E = I - C A in (I - C mid A) +- |C| rad A; its absolute row sums bound the contraction.
    E_rows_ = ((Mat::Identity(n, n) - C_ * a_mid).cwiseAbs() + C_abs_ * a_rad).rowwise().sum();
    rho_ = E_rows_.maxCoeff();
    // Too wide a box for a useful bound (rho near 1 inflates it): subdividing is cheaper.
    valid_ = rho_ < 0.5;
  }
  bool valid() const { return valid_; }

  // On success z_mid +- z_rad holds every solution, widened by a rounding margin of a few ulps of
  // the terms (the products here round to nearest).
  bool solve(const Vec& b_mid, const Vec& b_rad, Vec& z_mid, Vec& z_rad) const {
    if (!valid_) return false;
    const Vec z0 = C_ * b_mid;
    // C (b - A z0) in C (mid b - mid A z0) +- |C| (rad b + rad A |z0|)
    const Vec r_mid = C_ * (b_mid - a_mid_ * z0);
    const Vec r_rad = C_abs_ * (b_rad + a_rad_ * z0.cwiseAbs());
    const double distance = (r_mid.cwiseAbs() + r_rad).maxCoeff() / (1 - rho_);  // bound on ||z - z0||_inf
    z_mid = z0 + r_mid;
    z_rad = r_rad + E_rows_ * distance;
    const double eps = 64 * std::numeric_limits<double>::epsilon() * static_cast<double>(b_mid.size());
    z_rad += eps * (z0.cwiseAbs() + C_abs_ * (b_mid.cwiseAbs() + b_rad + (a_mid_.cwiseAbs() + a_rad_) * z0.cwiseAbs()));
    return z_mid.allFinite() && z_rad.allFinite();
  }

 private:
  const Mat& a_mid_;
  const Mat& a_rad_;
  Mat C_, C_abs_;
  Vec E_rows_;
  double rho_ = 1;
  bool valid_ = false;
};

// One right-hand side.
template <class Mat, class Vec>
bool enclose_linear_solution(const Mat& a_mid, const Mat& a_rad, const Vec& b_mid, const Vec& b_rad, Vec& z_mid,
                             Vec& z_rad) {
  return IntervalLinearSystem<Mat, Vec>(a_mid, a_rad).solve(b_mid, b_rad, z_mid, z_rad);
}

}  // namespace vibro
