#pragma once
// The first downward zero in (0, 1] of a scalar function g(theta) that is no polynomial (a contact
// force or a friction margin through a linear solve on the dense output of a step), never missed:
// an interval enclosure of g over [a, b] either proves g > 0 on all of it, or the interval is
// halved, left half first. The search thus proves g > 0 on everything left of the root it reports,
// and locates that root to `resolution` in theta. certified_first_root needs global bounds on g''
// and g''' that such a g does not offer; an enclosure of g itself is all this search asks for.
//
// A leaf (width below the resolution) whose enclosure still reaches zero while g > 0 at its right
// end is a touch within rounding (a dip narrower than the resolution, no deeper than the enclosure's
// overestimation there): it is not an event. This also lets a guard that starts at zero (the event
// just handled left it there) leave zero upwards.
#include "engine/interval/interval.hpp"

namespace vibro {

struct EnclosedRoot {
  bool found = false;
  double theta = 1;     // the root: the right end of its leaf, so g(theta) <= 0 (at or just past it)
  int enclosures = 0;   // interval evaluations spent (cost)
};

// value(theta) -> double: g at a point; enclose(a, b) -> Interval containing g over [a, b]
// (an unbounded interval where no enclosure is available).
template <class Value, class Enclose>
EnclosedRoot enclosure_first_root(Value&& value, Enclose&& enclose, double resolution = 1e-12) {
  struct Piece {
    double a, b;
  };
  EnclosedRoot result;
  Piece stack[2 * 64];
  int top = 0;
  stack[top++] = {0.0, 1.0};
  double nonpositive = 2;  // the leftmost point seen with g <= 0: a root lies at or before it
  auto found_at = [&](double theta) {
    result.found = true;
    result.theta = theta;
    return result;
  };
  while (top > 0) {
    const Piece p = stack[--top];
    if (p.a >= nonpositive) break;  // everything before that point is proved positive
    const Interval range = enclose(p.a, p.b);
    ++result.enclosures;
    if (range.lo > 0) continue;  // proved root-free
    if (p.b - p.a <= resolution || top + 2 > static_cast<int>(sizeof stack / sizeof stack[0])) {
      if (value(p.b) <= 0) return found_at(p.b);
      continue;  // a touch within rounding, g > 0 again at the right end
    }
    const double mid = 0.5 * (p.a + p.b);
    // g <= 0 at the midpoint puts the first root in the left half: the right half is not needed.
    if (value(mid) > 0) stack[top++] = {mid, p.b};
    else nonpositive = mid;
    stack[top++] = {p.a, mid};
  }
  if (nonpositive <= 1) return found_at(nonpositive);
  return result;
}

}  // namespace vibro
