#include "engine/events/polynomial_first_root.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace vibro {

namespace {

constexpr int kMaxDegree = 8;
using Coefficients = std::array<double, kMaxDegree + 1>;

struct Piece {
  double a, b;      // interval in x
  Coefficients bz;  // Bernstein coefficients on [a, b]
};

double horner(const double* c, int degree, double x) {
  double v = c[degree];
  for (int k = degree - 1; k >= 0; --k) v = v * x + c[k];
  return v;
}

Coefficients to_bernstein(const double* c, int n) {
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
    b[static_cast<std::size_t>(k)] = sum;
  }
  return b;
}

// de Casteljau split at the midpoint.
void split(const Piece& p, int n, Piece& left, Piece& right) {
  Coefficients work = p.bz;
  const double mid = 0.5 * (p.a + p.b);
  left.a = p.a;
  left.b = mid;
  right.a = mid;
  right.b = p.b;
  for (int r = 0; r <= n; ++r) {
    left.bz[static_cast<std::size_t>(r)] = work[0];
    right.bz[static_cast<std::size_t>(n - r)] = work[static_cast<std::size_t>(n - r)];
    for (int k = 0; k < n - r; ++k)
      work[static_cast<std::size_t>(k)] = 0.5 * (work[static_cast<std::size_t>(k)] + work[static_cast<std::size_t>(k + 1)]);
  }
}

int sign_variations(const Coefficients& b, int n) {
  int variations = 0, last = 0;
  for (int k = 0; k <= n; ++k) {
    const double v = b[static_cast<std::size_t>(k)];
    const int s = v > 0 ? 1 : v < 0 ? -1 : 0;
    if (s == 0) continue;
    if (last != 0 && s != last) ++variations;
    last = s;
  }
  return variations;
}

bool wanted(double start, double end, Crossing crossing) {
  if (crossing == Crossing::Falling) return start > 0 && end <= 0;
  if (crossing == Crossing::Rising) return start < 0 && end >= 0;
  return (start > 0 && end <= 0) || (start < 0 && end >= 0);
}

}  // namespace

PolynomialRange polynomial_range(const double* c, int degree, double a, double b) {
  const int n = std::min(degree, kMaxDegree);
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
  const Coefficients bz = to_bernstein(shifted, n);
  return {*std::min_element(bz.begin(), bz.begin() + n + 1), *std::max_element(bz.begin(), bz.begin() + n + 1)};
}

PolynomialRoot polynomial_first_root(const double* c, int degree, Crossing crossing, double resolution, double touch) {
  PolynomialRoot result;
  const int n = std::min(degree, kMaxDegree);
  Piece stack[2 * 64];
  int top = 0;
  stack[top++] = {0.0, 1.0, to_bernstein(c, n)};
  while (top > 0) {
    const Piece piece = stack[--top];
    const auto& bz = piece.bz;
    const double lowest = *std::min_element(bz.begin(), bz.begin() + n + 1);
    const double highest = *std::max_element(bz.begin(), bz.begin() + n + 1);
    if (lowest > touch || highest < -touch) continue;  // proved root-free: the hull stays off zero
    const int variations = sign_variations(bz, n);
    const double start = bz[0], end = bz[static_cast<std::size_t>(n)];
    if (variations <= 1 || piece.b - piece.a < resolution) {
      if (wanted(start, end, crossing)) {
        // One simple root with the wanted direction: polish it on the polynomial itself.
        if (end == 0) {
          result = {true, false, piece.b};
          return result;
        }
        std::uintmax_t iterations = 200;
        auto f = [&](double x) { return horner(c, n, x); };
        auto tolerance = [](double lo, double hi) { return std::fabs(hi - lo) <= 4e-16 * std::max(1.0, std::fabs(hi)); };
        const double fa = f(piece.a), fb = f(piece.b);
        if (fa == 0 || (fa > 0) == (fb > 0)) {
          result = {true, false, fa == 0 ? piece.a : piece.b};
          return result;
        }
        const auto bracket = boost::math::tools::toms748_solve(f, piece.a, piece.b, fa, fb, tolerance, iterations);
        result = {true, false, bracket.second};
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
    if (top + 2 > static_cast<int>(sizeof stack / sizeof stack[0])) continue;  // cannot happen above the resolution
    stack[top++] = right;
    stack[top++] = left;  // processed first: the search goes left to right
  }
  return result;
}

}  // namespace vibro
