#pragma once
// The first root in [0, 1] of a low-degree polynomial (the dense output of a step composed with an
// affine guard), never missed: Bernstein coefficients bound the polynomial on an interval (convex
// hull property), so an interval whose coefficients share one sign is proved root-free; one sign
// variation proves exactly one simple root (Descartes' rule for the Bernstein basis); otherwise the
// interval is halved (de Casteljau). Tangencies (even roots, grazing) survive to the resolution and
// are reported as such instead of being stepped over.
// Host-and-device code (engine/core/host_device.hpp): the event location of every DOPRI5 + affine
// guard model, on the CPU and in the GPU kernels.
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/roots/toms748.hpp"

namespace vibro {

enum class Crossing { Falling, Rising, Either };  // + to -, - to +, both

struct PolynomialRoot {
  bool found = false;
  bool grazing = false;  // a tangency: the polynomial touches zero without a resolvable crossing
  double theta = 0;
};

struct PolynomialRange {
  double lo, hi;
};

namespace polynomial_detail {

constexpr int kMaxDegree = 8;

struct Coefficients {
  double c[kMaxDegree + 1];
  VIBRO_HD double& operator[](int k) { return c[k]; }
  VIBRO_HD double operator[](int k) const { return c[k]; }
};

struct Piece {
  double a, b;      // interval in x
  Coefficients bz;  // Bernstein coefficients on [a, b]
};

VIBRO_HD inline double horner(const double* c, int degree, double x) {
  double v = c[degree];
  for (int k = degree - 1; k >= 0; --k) v = v * x + c[k];
  return v;
}

VIBRO_HD inline Coefficients to_bernstein(const double* c, int n) {
  // b_k = sum_{j <= k} C(k, j) / C(n, j) c_j
  Coefficients b{};
  double binom_n[kMaxDegree + 1];
  binom_n[0] = 1;
  for (int j = 1; j <= n; ++j) binom_n[j] = binom_n[j - 1] * (n - j + 1) / j;
  for (int k = 0; k <= n; ++k) {
    double binom_k = 1, sum = 0;
    for (int j = 0; j <= k; ++j) {
      sum += binom_k / binom_n[j] * c[j];
      binom_k = binom_k * (k - j) / (j + 1);
    }
    b[k] = sum;
  }
  return b;
}

VIBRO_HD inline PolynomialRange hull(const Coefficients& b, int n) {
  PolynomialRange range{b[0], b[0]};
  for (int k = 1; k <= n; ++k) {
    range.lo = b[k] < range.lo ? b[k] : range.lo;
    range.hi = b[k] > range.hi ? b[k] : range.hi;
  }
  return range;
}

// de Casteljau split at the midpoint.
VIBRO_HD inline void split(const Piece& p, int n, Piece& left, Piece& right) {
  Coefficients work = p.bz;
  const double mid = 0.5 * (p.a + p.b);
  left.a = p.a;
  left.b = mid;
  right.a = mid;
  right.b = p.b;
  for (int r = 0; r <= n; ++r) {
    left.bz[r] = work[0];
    right.bz[n - r] = work[n - r];
    for (int k = 0; k < n - r; ++k) work[k] = 0.5 * (work[k] + work[k + 1]);
  }
}

VIBRO_HD inline int sign_variations(const Coefficients& b, int n) {
  int variations = 0, last = 0;
  for (int k = 0; k <= n; ++k) {
    const double v = b[k];
    const int s = v > 0 ? 1 : v < 0 ? -1 : 0;
    if (s == 0) continue;
    if (last != 0 && s != last) ++variations;
    last = s;
  }
  return variations;
}

VIBRO_HD inline bool wanted(double start, double end, Crossing crossing) {
  if (crossing == Crossing::Falling) return start > 0 && end <= 0;
  if (crossing == Crossing::Rising) return start < 0 && end >= 0;
  return (start > 0 && end <= 0) || (start < 0 && end >= 0);
}

}  // namespace polynomial_detail

// Bounds of the same polynomial over x in [a, b]: the extreme Bernstein coefficients on [a, b]
// (convex hull property), exact at the ends.
VIBRO_HD inline PolynomialRange polynomial_range(const double* c, int degree, double a, double b) {
  using namespace polynomial_detail;
  const int n = degree < kMaxDegree ? degree : kMaxDegree;
  // Coefficients in u of p(a + w u), u in [0, 1]: d_k = w^k sum_{j >= k} C(j, k) a^(j - k) c_j.
  double shifted[kMaxDegree + 1];
  const double w = b - a;
  double w_power = 1;
  for (int k = 0; k <= n; ++k) {
    double sum = 0, binom = 1, a_power = 1;  // C(j, k) and a^(j - k) for j = k, k + 1, ...
    for (int j = k; j <= n; ++j) {
      sum += binom * a_power * c[j];
      binom = binom * (j + 1) / (j + 1 - k);
      a_power *= a;
    }
    shifted[k] = sum * w_power;
    w_power *= w;
  }
  return hull(to_bernstein(shifted, n), n);
}

// coefficients: power basis c[0] + c[1] x + ... + c[degree] x^degree, degree <= 8.
// resolution: the width in x below which an unresolved interval is a tangency (2^-50, about 8.9e-16, at the finest).
// touch: values within this distance of zero count as touching it (the rounding level of the
// coefficients): a minimum that clears zero by less is a grazing contact, not a proof of no root.
VIBRO_HD inline PolynomialRoot polynomial_first_root(const double* c, int degree, Crossing crossing,
                                                     double resolution = 1e-12, double touch = 0) {
  using namespace polynomial_detail;
  PolynomialRoot result;
  const int n = degree < kMaxDegree ? degree : kMaxDegree;
  // The search is depth first, left child first: the stack holds the pending right halves, one a
  // depth, and a split's two children. A piece is split only while its width is at least the
  // resolution, clamped to 2^-50 or more: the pieces are then dyadic intervals of [0, 1] whose ends
  // take at most 51 bits, so every midpoint is exact, widths halve exactly, the depth stays <= 50 and
  // the stack <= 52 entries. (It had 128 of 88 bytes: 11 KB of a GPU thread's local memory a search; a
  // resolution of 1e-12 uses at most 41. Finer than 2^-50 a split's midpoint could round onto an end.)
  constexpr int kStack = 64;
  constexpr double kFinestResolution = 0x1p-50;
  if (!(resolution >= kFinestResolution)) resolution = kFinestResolution;
  Piece stack[kStack];
  int top = 0;
  stack[top++] = {0.0, 1.0, to_bernstein(c, n)};
  while (top > 0) {
    const Piece piece = stack[--top];
    const auto& bz = piece.bz;
    const PolynomialRange range = hull(bz, n);
    if (range.lo > touch || range.hi < -touch) continue;  // proved root-free: the hull stays off zero
    const int variations = sign_variations(bz, n);
    const double start = bz[0], end = bz[n];
    if (variations <= 1 || piece.b - piece.a < resolution) {
      if (wanted(start, end, crossing)) {
        // One simple root with the wanted direction: polish it on the polynomial itself.
        if (end == 0) {
          result = {true, false, piece.b};
          return result;
        }
        unsigned long long iterations = 200;
        auto f = [&](double x) { return horner(c, n, x); };
        auto tolerance = [](double lo, double hi) {
          return std::fabs(hi - lo) <= 4e-16 * (std::fabs(hi) > 1.0 ? std::fabs(hi) : 1.0);
        };
        const double fa = f(piece.a), fb = f(piece.b);
        if (fa == 0 || (fa > 0) == (fb > 0)) {
          result = {true, false, fa == 0 ? piece.a : piece.b};
          return result;
        }
        const Bracket bracket = toms748_solve(f, piece.a, piece.b, fa, fb, tolerance, iterations);
        result = {true, false, bracket.b};
        return result;
      }
      if (piece.b - piece.a < resolution) {
        // Unresolved at the resolution without a wanted crossing: a tangency on the allowed side.
        const bool above = start >= 0 && end >= 0, below = start <= 0 && end <= 0;
        if ((crossing != Crossing::Rising && above) || (crossing != Crossing::Falling && below)) {
          result = {true, true, 0.5 * (piece.a + piece.b)};
          return result;
        }
      }
      if (variations == 1) continue;  // one simple root, in the unwanted direction
      if (piece.b - piece.a < resolution) continue;
    }
    Piece left, right;
    split(piece, n, left, right);
    if (top + 2 > kStack) continue;  // never: see kStack
    stack[top++] = right;
    stack[top++] = left;  // processed first: the search goes left to right
  }
  return result;
}

}  // namespace vibro
