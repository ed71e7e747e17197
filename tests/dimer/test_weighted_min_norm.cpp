// The closed-form 1x1 and 2x2 stick solves of the impulse-domain impact solver against the general
// decomposition they replace (Eigen's CompleteOrthogonalDecomposition with the same rank threshold):
// full-rank and rank-deficient (superstatic, the dimer's two tips at theta = 0) systems.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "engine/impulse/weighted_min_norm.hpp"

using namespace vibro::impulse;

namespace {

LocalVector reference_solve(const LocalMatrix& A, const LocalVector& w, const LocalVector& b, double threshold) {
  const LocalMatrix G = A * w.asDiagonal() * A.transpose();
  Eigen::CompleteOrthogonalDecomposition<LocalMatrix> cod;
  cod.setThreshold(threshold);
  cod.compute(G);
  return w.asDiagonal() * (A.transpose() * cod.solve(b));
}

// Round-off of two different factorisations: relative_tol grows with the condition of G.
void check_against_reference(const LocalMatrix& A, const LocalVector& w, const LocalVector& b, double relative_tol) {
  const LocalVector x = weighted_min_norm_solve(A, w, b, 1e-7);
  const LocalVector ref = reference_solve(A, w, b, 1e-7);
  REQUIRE((x - ref).norm() <= relative_tol * (ref.norm() + 1e-300));
}

}  // namespace

TEST_CASE("weighted minimum-norm stick solve: closed forms equal the orthogonal decomposition", "[dimer][impulse]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> entry(-200.0, 200.0), weight(1e-7, 1e-5), rhs(-0.3, 0.3);
  for (int trial = 0; trial < 200; ++trial) {
    for (int k = 1; k <= 3; ++k) {
      LocalMatrix A(k, k);
      LocalVector w(k), b(k);
      for (int a = 0; a < k; ++a) {
        w(a) = weight(rng);
        b(a) = rhs(rng);
        for (int c = 0; c < k; ++c) A(a, c) = entry(rng);
      }
      A = (A + A.transpose()).eval();  // the stuck rows of a Delassus matrix are symmetric
      check_against_reference(A, w, b, 1e-9);
    }
    // Superstatic: identical tangential rows (both dimer tips at theta = 0), and a relative
    // perturbation below and above the rank threshold.
    for (double eps : {0.0, 1e-10, 1e-3}) {
      const double d = std::abs(entry(rng)) + 1;
      LocalMatrix A(2, 2);
      A << d, d, d, d * (1 + eps);
      LocalVector w(2), b(2);
      w << weight(rng), weight(rng);
      b << rhs(rng), rhs(rng);
      check_against_reference(A, w, b, eps == 1e-3 ? 1e-6 : 1e-9);  // condition of G ~ 1 / eps^2
    }
  }
}
