#pragma once
// The first downward zero in [0, 1] of a scalar function g(theta) that is no polynomial (a contact
// force or a friction margin through a linear solve on the dense output of a step), never missed.
// An enclosure of g and of its slope g' over a piece [a, b] proves one of
//   - g > 0 on the piece (the value bound is positive);
//   - g non-decreasing on it (g' >= 0): g stays above g(a), which is positive, or is the start;
//   - g strictly decreasing on it (g' < 0): positive if g(b) > 0, else its only zero there is the
//     first one, polished by TOMS 748 (Alefeld, Potra, Shi, ACM TOMS 21, 1995) to the resolution;
// or the piece is halved, left half first. Every piece before the reported zero is thus proved free
// of one. certified_first_root needs global bounds on g'' and g''' that such a g does not offer;
// bounds of g and g' over a piece are all this search asks for.
//
// A piece narrower than the resolution that none of the proofs covers while g > 0 at its right end
// is a touch within rounding (no deeper than the enclosure's overestimation there): not an event.
// A guard that starts at zero (the event just handled left it there) and rises is no event either.
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>

#include "engine/interval/interval.hpp"

namespace vibro {

struct GuardEnclosure {
  Interval value;  // g over [a, b]
  Interval slope;  // dg/dtheta over [a, b]
};

struct EnclosedRoot {
  bool found = false;
  double theta = 1;    // the zero, at or just past it: g(theta) <= 0 to rounding
  int enclosures = 0;  // enclosures spent (cost)
  bool exhausted = false;  // no proof within max_enclosures (enclosures unavailable): nothing is known
};

// value(theta) -> double: g at a point; enclose(a, b) -> GuardEnclosure (unbounded intervals where
// none is available). After max_enclosures without a conclusion the search stops, `exhausted`.
template <class Value, class Enclose>
EnclosedRoot enclosure_first_root(Value&& value, Enclose&& enclose, double resolution = 1e-12,
                                  int max_enclosures = 100000) {
  struct Piece {
    double a, b;
  };
  EnclosedRoot result;
  auto found_at = [&](double theta) {
    result.found = true;
    result.theta = theta;
    return result;
  };
  Piece stack[2 * 64];
  int top = 0;
  stack[top++] = {0.0, 1.0};
  double nonpositive = 2;  // the leftmost point seen with g <= 0: a zero lies at or before it
  while (top > 0) {
    const Piece p = stack[--top];
    if (p.a >= nonpositive) break;  // everything before that point is proved positive
    if (result.enclosures >= max_enclosures) {
      result.exhausted = true;
      return result;
    }
    const GuardEnclosure e = enclose(p.a, p.b);
    ++result.enclosures;
    if (e.value.lo > 0 || e.slope.lo >= 0) continue;
    if (e.slope.hi < 0) {
      const double gb = value(p.b);
      if (gb > 0) continue;
      const double ga = value(p.a);
      if (!(ga > 0)) return found_at(p.a);  // only at the start: the guard is already falling through zero
      if (gb == 0) return found_at(p.b);
      std::uintmax_t iterations = 100;
      auto close_enough = [&](double lo, double hi) { return hi - lo <= resolution; };
      return found_at(boost::math::tools::toms748_solve(value, p.a, p.b, ga, gb, close_enough, iterations).second);
    }
    if (p.b - p.a <= resolution || top + 2 > static_cast<int>(sizeof stack / sizeof stack[0])) {
      if (value(p.b) <= 0) return found_at(p.b);
      continue;  // a touch within rounding, g > 0 again at the right end
    }
    const double mid = 0.5 * (p.a + p.b);
    // g <= 0 at the midpoint puts the first zero in the left half: the right half is not needed.
    if (value(mid) > 0) stack[top++] = {mid, p.b};
    else nonpositive = mid;
    stack[top++] = {p.a, mid};
  }
  if (nonpositive <= 1) return found_at(nonpositive);
  return result;
}

}  // namespace vibro
