#pragma once
// Componentwise bounds of the dense output of a step over a sub-interval [a, b] of the step fraction:
// each component is a quartic in theta, bounded by its Bernstein coefficients on [a, b]. Feeds the
// interval evaluation of functions of the state (a contact force, a friction margin) over the box.
#include "engine/events/polynomial_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

template <int N>
void enclose_dense(const DenseStep<N>& dense, double a, double b, typename DenseStep<N>::State& lo,
                   typename DenseStep<N>::State& hi) {
  for (int i = 0; i < N; ++i) {
    double c[5];
    dense.component_polynomial(i, c);
    const PolynomialRange range = polynomial_range(c, 4, a, b);
    lo[i] = range.lo;
    hi[i] = range.hi;
  }
}

}  // namespace vibro
