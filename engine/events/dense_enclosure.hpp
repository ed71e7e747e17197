#pragma once
// Componentwise bounds of the dense output of a step, and of its derivative in the step fraction,
// over a sub-interval [a, b]: each component is a quartic in theta (its derivative a cubic), bounded
// by its Bernstein coefficients on [a, b]. Feeds the interval evaluation of functions of the state
// (a contact force, a friction margin) and of their slopes over that part of the step.
#include "engine/events/polynomial_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

template <int N>
struct DenseBox {
  typename DenseStep<N>::State lo, hi;        // y over [a, b]
  typename DenseStep<N>::State slope_lo, slope_hi;  // dy/dtheta over [a, b]
};

template <int N>
DenseBox<N> enclose_dense(const DenseStep<N>& dense, double a, double b) {
  DenseBox<N> box;
  for (int i = 0; i < N; ++i) {
    double c[5];
    dense.component_polynomial(i, c);
    if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0 && c[4] == 0) {  // an unused component
      box.lo[i] = box.hi[i] = box.slope_lo[i] = box.slope_hi[i] = 0;
      continue;
    }
    const PolynomialRange range = polynomial_range(c, 4, a, b);
    box.lo[i] = range.lo;
    box.hi[i] = range.hi;
    const double slope[4] = {c[1], 2 * c[2], 3 * c[3], 4 * c[4]};
    const PolynomialRange slope_range = polynomial_range(slope, 3, a, b);
    box.slope_lo[i] = slope_range.lo;
    box.slope_hi[i] = slope_range.hi;
  }
  return box;
}

}  // namespace vibro
