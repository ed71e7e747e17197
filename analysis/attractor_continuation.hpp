#pragma once
// Global continuation of attractors along one parameter axis, after Datseris, Rossi and Wagemakers,
// "Framework for global stability analysis of dynamical systems", Chaos 33 (2023): the attractors found
// at neighbouring points of the axis are matched (by their distance, or by the overlap of their
// basins), a matched attractor keeps its global id, and what cannot be matched is a birth, death,
// merger or split within the interval between the two points. A period-2k orbit that lies on a
// period-k orbit's points continues its id (a period doubling), and so does the reverse; an attractor
// missing at some points is matched again when it returns. A pure pass over per-point summaries
// (analysis/point_attractors) and, for basin overlap, the counts of shared initial conditions.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "analysis/point_attractors.hpp"

namespace vibro {

// Whether two attractors can be the same one. Periodic orbits keep their class (a class the model
// could not read agrees with any: orbit_classes_agree) and period: a grazing
// ends one orbit and begins another, as it does within a parameter point (a period doubling is matched
// on its own: doubling_distance). Irregular attractors are compared with each other whatever their
// class (what the model could not resolve: chaos, long transients). An orbit and an irregular
// attractor are comparable when the orbit is a periodic window of it: the box of its points spans the
// region the irregular one fills, each side within a quarter of the region's size (in the scaled
// max-norm). across_kinds: any two.
bool comparable_attractors(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                           bool across_kinds = false);

// Whether irregular attractor k of a point holds a periodic window of the same point (an orbit
// comparable with it: its points span the set's region). Its cases may then be a chaotic transient on
// its way to the window (a chaotic saddle inside a periodic window), not an attractor of their own:
// only running them on (run.extend_unsettled) tells. False for a periodic attractor.
bool holds_window(const PointAttractors& point, std::size_t k);

// Distance of two attractors in the scaled max-norm: periodic orbits by the Hausdorff distance of their
// stroboscopic points, two irregular ones by the partial Hausdorff distance of their point sets (where
// nine tenths of each set's points lie from the other, analysis/strobe_cloud), an irregular one
// against an orbit (or one known by its box alone) by the Hausdorff distance of the boxes they fill
// (an orbit: the box of its points); infinite when they are not comparable.
double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds = false);

// How far a period-2k orbit lies from a period-k one, the two in either order, as a period doubling
// leaves it: the doubled orbit's points i and i + k straddle the old orbit's point i (points in time
// order, the best shift of one against the other): the larger of the distance from their midpoint to
// the old point and from either of them to the midpoint, the largest over i, in the scaled max-norm.
// Past a supercritical flip the midpoint stays on the orbit that lost its stability while the two
// points move apart as the square root of the distance to the flip. Infinite unless both are
// periodic and one period is twice the other.
double doubling_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales);

// The two terms of doubling_distance: how far the midpoints lie from the old orbit (the best shift) and
// how far the doubled orbit's points lie from their midpoints (half the split). Both infinite when the
// pair is not a period-k and a period-2k orbit.
struct DoublingGeometry {
  double midpoint = std::numeric_limits<double>::infinity();
  double split = std::numeric_limits<double>::infinity();
  double distance() const { return std::max(midpoint, split); }
};
DoublingGeometry doubling_geometry(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales);

// How far `part` sticks out of `whole`: orbits, the farthest point of one from the other's points;
// irregular sets, how far nine tenths of part's points lie from whole's; otherwise the farthest a side
// of part's box lies outside whole's box (0: inside).
double attractor_excess(const PointAttractor& part, const PointAttractor& whole, const std::vector<double>& scales);

// How far an attractor lies on one of another period (not a doubling's factor 2: doubling_distance;
// the same period: attractor_distance), in the scaled max-norm: two orbits by the Hausdorff distance of
// their points; an orbit and an irregular set by the larger of the farthest point of the orbit from the
// set's points and where nine tenths of the set's points lie from the orbit's (the set gathers about
// the orbit, or scatters from it: not an orbit somewhere inside a wider set); infinite otherwise.
double change_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales);

enum class AttractorEventKind { Birth, Death, Merger, Split, PeriodDoubling, PeriodHalving, Vanished, Return, PeriodChange,
                                ExtentChange };
const char* attractor_event_name(AttractorEventKind kind);

// Between points `point - 1` and `point` (parameter values from and to):
//   birth:  id appears and lies within no attractor of the earlier point (partner -1);
//   death:  id disappears and lies within no attractor of the later point (partner -1);
//   merger: id disappears and lies within the later attractor that continues id partner;
//   split:  id appears within the earlier attractor partner, which continued to another one;
//   period_doubling, period_halving: id continues as an orbit of twice (half) its period;
//   period_change: id continues as an attractor of another period (not twice or half: a periodic
//           window of another period, or an orbit that became irregular or the reverse), whichever
//           stage matched the two;
//   extent_change: id continues as an irregular set that lies within the old one or holds it (a
//           sudden widening or shrinking of a chaotic set);
//   vanished: id is not found at the later point but returns further on (what would have been its
//           death); return: id is found again after it vanished (from: the point before, to: this one).
// "Within": sticking out of the other's region (attractor_excess) by no more than that attractor
// itself moved in the step; nearness alone is no evidence of a merger or a split.
struct AttractorEvent {
  AttractorEventKind kind = AttractorEventKind::Birth;
  int point = 0;
  int id = -1;
  int partner = -1;
  double from = 0, to = 0;
};

enum class MatchMethod { Distance, BasinOverlap };
const char* match_method_name(MatchMethod method);

struct MatchSettings {
  // Distance: comparable attractors at most `distance` apart are the same, nearest pairs first.
  // BasinOverlap: attractors whose basins share initial conditions are the same, the pairs with the
  // largest share (Jaccard index of the two basins) first; attractors without cases (found by seeds
  // only) are then matched by distance.
  MatchMethod method = MatchMethod::Distance;
  double distance = 1.0;
  bool across_kinds = false;     // distance: any two attractors comparable
  bool period_doublings = true;  // a period-2k orbit on a period-k orbit's points (and back) continues its id
  bool vanished = true;          // an attractor missing at some points is matched again when it returns
  // an attractor left unmatched continues one of another period lying on it (change_distance within
  // `distance`) whose basin shares initial conditions with its own (needs the overlaps)
  bool period_changes = true;
  // an irregular set left unmatched continues one whose bulk lies within it, or that holds its bulk
  // (within `distance`), whose basin shares initial conditions with its own (needs the overlaps)
  bool extent_changes = true;
  // over the whole line: an orbit born where an irregular set vanished and dying where the same set
  // returns, lying on it and sharing initial conditions with it at both ends, is that set's periodic
  // window and takes its id (analysis/chaotic_windows; needs `vanished` and the overlaps)
  bool windows = true;
};

// shared[i][j]: initial conditions whose case at the earlier point reached its attractor i and at the
// later point its attractor j.
using BasinOverlap = std::vector<std::vector<long long>>;

struct GlobalAttractors {
  std::vector<std::vector<int>> ids;  // per point, per label within the point: the global id
  std::vector<AttractorEvent> events; // in point order
  int count = 0;                      // global ids given (0 .. count-1)
};

// Points in axis order. Attractors of neighbouring points are matched in stages, each among those the
// stages before left unmatched: (basin overlap,) comparable attractors within settings.distance (in
// the earlier point's scales), period doublings and halvings within it, period changes and extent
// changes (with overlaps), then attractors missing at the earlier point (as comparable attractors, at the last point
// each was found at, in its scales). Each attractor continues at
// most one, best pairs first (ties in label order), so the result depends only on the summaries.
// Where an orbit has both a comparable partner and a period doubling (or halving) at the later point,
// the one that shares more of its basin's initial conditions continues it (the other: matched by
// distance first, without overlaps).
// overlaps[p] (p >= 1): between points p - 1 and p (empty: none).
GlobalAttractors continue_attractors(const std::vector<PointAttractors>& points, const MatchSettings& settings,
                                     const std::vector<BasinOverlap>& overlaps = {});

}  // namespace vibro
