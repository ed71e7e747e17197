#pragma once
// An enclosure of every solution of A z = b for all A and b in an interval matrix and vector (given
// as midpoint and radius), by preconditioning with the inverse C of the midpoint matrix: for each
// such A, b,  z - z0 = C (b - A z0) + (I - C A)(z - z0)  with z0 = C mid(b), so when the row sums
// of |I - C A| stay below rho < 1, ||z - z0|| <= ||C (b - A z0)|| / (1 - rho) (a contraction bound,
// Neumaier, "Interval Methods for Systems of Equations", Cambridge University Press 1990, ch. 4),
// and each component is bounded by its own row. False when the box is too wide for the contraction
// (rho >= 1) or the midpoint matrix is singular: the caller subdivides.
#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace vibro {

// Mat and Vec: Eigen dynamic-size types (a fixed maximum size avoids the heap). On success
// z_mid +- z_rad holds every solution, widened by a rounding margin of a few ulps of the terms.
template <class Mat, class Vec>
bool enclose_linear_solution(const Mat& a_mid, const Mat& a_rad, const Vec& b_mid, const Vec& b_rad, Vec& z_mid,
                             Vec& z_rad) {
  const Eigen::Index n = a_mid.rows();
  const Mat C = a_mid.partialPivLu().inverse();
  if (!C.allFinite()) return false;
  const Mat C_abs = C.cwiseAbs();
  const Vec z0 = C * b_mid;
  // E = I - C A in (I - C mid A) +- |C| rad A; its absolute row sums bound the contraction.
  const Mat E_abs = (Mat::Identity(n, n) - C * a_mid).cwiseAbs() + C_abs * a_rad;
  const double rho = E_abs.rowwise().sum().maxCoeff();
  if (!(rho < 0.5)) return false;  // too wide a box to be useful: subdividing is cheaper than a loose bound
  // C (b - A z0) in C (mid b - mid A z0) +- |C| (rad b + rad A |z0|)
  const Vec r_mid = C * (b_mid - a_mid * z0);
  const Vec r_rad = C_abs * (b_rad + a_rad * z0.cwiseAbs());
  const double distance = (r_mid.cwiseAbs() + r_rad).maxCoeff() / (1 - rho);  // bound on ||z - z0||_inf
  z_mid = z0 + r_mid;
  z_rad = r_rad + E_abs.rowwise().sum() * distance;
  // Rounding of the products above: a relative margin of the magnitudes involved.
  const double eps = 64 * std::numeric_limits<double>::epsilon() * static_cast<double>(n);
  z_rad += eps * (z0.cwiseAbs() + C_abs * (b_mid.cwiseAbs() + b_rad + (a_mid.cwiseAbs() + a_rad) * z0.cwiseAbs()));
  return z_mid.allFinite() && z_rad.allFinite();
}

}  // namespace vibro
