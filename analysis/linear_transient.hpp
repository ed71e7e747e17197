#pragma once
// Extrapolation of a linearly converging transient to its limit: minimal polynomial extrapolation
// (MPE) of low degree.
//
// Near a stable fixed point of a map, consecutive differences of its iterates obey
// delta_{j+1} = B delta_j. When they span r directions, a polynomial of degree r annihilates them:
// delta_{j+r} + a_{r-1} delta_{j+r-1} + ... + a_0 delta_j = 0 for every j. Fitting a by least squares
// handles one real multiplier (r = 1), a complex pair (a spiral approach) or two real modes (r = 2);
// the limit is then sum_i a_i s_{n-r+i} / p(1), exact for a linear map. Cost: a few dot products, so it
// can run at every period of the cheapest model.
#include <Eigen/Dense>

namespace vibro {

// Differences as columns, oldest first, in scaled units; at most this many rows and columns.
inline constexpr int kMaxExtrapolationRows = 32;
inline constexpr int kMaxExtrapolationColumns = 8;
using DifferenceMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                       kMaxExtrapolationRows, kMaxExtrapolationColumns>;
using ExtrapolationVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxExtrapolationRows, 1>;

struct LinearTransient {
  bool fits = false;              // the differences follow one linear recurrence within the tolerance
  int degree = 0;                 // r: directions the transient moves in
  double spectral_radius = 0;     // largest |multiplier| (root of the fitted polynomial)
  double residual = 1;            // the fit's relative residual: the scale of its multipliers' error
  ExtrapolationVector remaining;  // limit minus the newest sample: the sum of all differences to come
};

// Tries degree 1, then 2 at a tolerance 10x stricter (so that the extra freedom does not fit the map's
// nonlinearity as a spurious mode). `fit_tolerance`: largest accepted residual of the recurrence
// relative to the differences it relates. Needs m >= r + 2 columns for degree r (one check at least).
LinearTransient fit_linear_transient(const DifferenceMatrix& differences, double fit_tolerance);

}  // namespace vibro
