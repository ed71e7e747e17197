#pragma once
// The first root in [0, 1] of a low-degree polynomial (the dense output of a step composed with an
// affine guard), never missed: Bernstein coefficients bound the polynomial on an interval (convex
// hull property), so an interval whose coefficients share one sign is proved root-free; one sign
// variation proves exactly one simple root (Descartes' rule for the Bernstein basis); otherwise the
// interval is halved (de Casteljau). Tangencies (even roots, grazing) survive to the resolution and
// are reported as such instead of being stepped over.
namespace vibro {

enum class Crossing { Falling, Rising, Either };  // + to -, - to +, both

struct PolynomialRoot {
  bool found = false;
  bool grazing = false;  // a tangency: the polynomial touches zero without a resolvable crossing
  double theta = 0;
};

// coefficients: power basis c[0] + c[1] x + ... + c[degree] x^degree, degree <= 8.
// resolution: the width in x below which an unresolved interval is a tangency.
// touch: values within this distance of zero count as touching it (the rounding level of the
// coefficients): a minimum that clears zero by less is a grazing contact, not a proof of no root.
PolynomialRoot polynomial_first_root(const double* coefficients, int degree, Crossing crossing,
                                     double resolution = 1e-12, double touch = 0);

struct PolynomialRange {
  double lo, hi;
};

// Bounds of the same polynomial over x in [a, b]: the extreme Bernstein coefficients on [a, b]
// (convex hull property), exact at the ends.
PolynomialRange polynomial_range(const double* coefficients, int degree, double a, double b);

}  // namespace vibro
