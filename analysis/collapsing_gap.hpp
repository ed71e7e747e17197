#pragma once
// Near a flip (period-doubling) point a stable period-h orbit has a multiplier close to -1: a
// transient on its way to it alternates between two sides of the orbit while their gap shrinks by
// |multiplier| every h periods, so slowly that over a window the samples h apart stay far from each
// other while those 2h apart are already close: a period-2h test passes. What tells it from a genuine
// period-2h orbit is the gap between samples h apart as the window goes on: it shrinks geometrically
// towards 0 for the transient, and tends to a positive limit for the doubled orbit.
#include <vector>

namespace vibro {

struct CollapsingGap {
  bool collapsing = false;  // the gap shrinks towards 0: a period-h orbit, not the doubled one
  double multiplier = 0;    // estimate of the period-h map's multiplier (negative) when collapsing
};

// gap[i]: distance between samples i and i+h of a window, oldest first (at least 9 of them, and 3 h).
// The gap's means over the window's three thirds (each a whole number of h samples: a period-2h orbit's
// gaps repeat with period h, and thirds that cut that pattern at different phases would differ) must decrease strictly and significantly (the last below
// 0.995 of the first), each of its h interleaved sequences (gap[i], gap[i + h], ...) must end below
// where it began (a window that jumps onto another orbit changes the pattern's values without any of
// them shrinking), and its limit extrapolated from the thirds by Aitken's delta-squared must lie below
// a quarter of the last third's (a gap whose decrease accelerates has no positive limit either).
// The multiplier: -(ratio of consecutive thirds' means)^(h / third's length).
CollapsingGap collapsing_gap(const std::vector<double>& gap, int h);

// The first part of that test alone: the thirds' means decrease strictly and significantly and each
// interleaved sequence ends below where it began, with no judgement of the limit (for a caller that
// measures the contraction otherwise, analysis/orbit_limit's contracts_to_period).
bool shrinking_gap(const std::vector<double>& gap, int h);

// The other way: the gap between samples h apart grows steadily over the window (its thirds' means,
// each a whole number of h samples, increase, the last by more than 1 % over the first, above round-off). Such a window passes a
// period test only because it departs slowly from an unstable orbit (just past a flip, from the
// period-h orbit towards the doubled one): it has not settled anywhere yet.
bool growing_gap(const std::vector<double>& gap, int h = 1);

}  // namespace vibro
