#pragma once
// Periodic windows of a chaotic set, seen over the whole line of a global continuation: an irregular
// set that vanishes at some points and returns (one id before and after) while a periodic orbit is
// born at exactly those points and dies where the set returns is the set itself collapsed onto a
// periodic orbit (the window) and re-formed after it, when the orbit lies on the set at both ends and
// shares initial conditions with its basin there. The orbit then takes the set's id, and the window's
// entry and exit are period changes. An interval alone cannot tell such a window from an orbit born
// where a chaotic set ends for good (a grazing, a boundary crisis): only the set's return does.
#include <vector>

#include "analysis/attractor_continuation.hpp"

namespace vibro {

// Rewrites `global` (the result of continue_attractors over `points`, overlaps[p] between points p - 1
// and p) so that every such window carries its set's id: the window's ids become the set's, the set's
// vanished / return events become period_change events at the window's entry and exit, the window's
// birth and death are dropped, and the ids are renumbered without gaps (in their old order). A window
// is an id that is periodic wherever it is found, found at points p..q only (one attractor a point),
// born at p and dying at q + 1; the set is irregular at p - 1 and q + 1, missing over p..q, its death
// at p turned vanished; every point of the window's orbit at p lies within `distance` (the earlier
// point's scales) of the set's points at p - 1, and at q of those at q + 1; and initial conditions
// reach the set at p - 1 and the window at p, and the window at q and the set at q + 1. Needs the
// overlaps (a grid of initial conditions): without them nothing changes.
void bridge_chaotic_windows(const std::vector<PointAttractors>& points, const std::vector<BasinOverlap>& overlaps,
                            double distance, GlobalAttractors& global);

}  // namespace vibro
