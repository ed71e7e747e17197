#pragma once
// Global continuation of attractors along one parameter axis, after Datseris, Rossi and Wagemakers,
// "Framework for global stability analysis of dynamical systems", Chaos 33 (2023): the attractors found
// at neighbouring points of the axis are matched by their distance, a matched attractor keeps its
// global id, and what cannot be matched is a birth, death, merger or split within the interval between
// the two points. A pure pass over per-point summaries (analysis/point_attractors): no case data.
#include <string>
#include <vector>

#include "analysis/point_attractors.hpp"

namespace vibro {

// Whether two attractors can be the same one. Periodic orbits keep their class and period: a period
// doubling or a grazing ends one orbit and begins another, as it does within a parameter point.
// Irregular attractors are compared with each other whatever their class (what the model could not
// resolve: chaos, long transients). An orbit and an irregular attractor are comparable when the orbit
// is a periodic window of it: the box of its points spans the region the irregular one fills, each
// side within a quarter of the region's size (in the scaled max-norm). across_kinds: any two.
bool comparable_attractors(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                           bool across_kinds = false);

// Distance of two attractors in the scaled max-norm: periodic orbits by the Hausdorff distance of their
// stroboscopic points, an irregular one against another attractor by the Hausdorff distance of the
// boxes they fill (an orbit: the box of its points); infinite when they are not comparable.
double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds = false);

// How far `part` sticks out of `whole`: orbits, the farthest point of one from the other's points;
// otherwise the farthest a side of part's box lies outside whole's box (0: inside).
double attractor_excess(const PointAttractor& part, const PointAttractor& whole, const std::vector<double>& scales);

enum class AttractorEventKind { Birth, Death, Merger, Split };
const char* attractor_event_name(AttractorEventKind kind);

// Between points `point - 1` and `point` (parameter values from and to):
//   birth:  id appears and lies within no attractor of the earlier point (partner -1);
//   death:  id disappears and lies within no attractor of the later point (partner -1);
//   merger: id disappears and lies within the later attractor that continues id partner;
//   split:  id appears within the earlier attractor partner, which continued to another one.
// "Within": sticking out of the other's region (attractor_excess) by no more than that attractor
// itself moved in the step; nearness alone is no evidence of a merger or a split.
struct AttractorEvent {
  AttractorEventKind kind = AttractorEventKind::Birth;
  int point = 0;
  int id = -1;
  int partner = -1;
  double from = 0, to = 0;
};

struct GlobalAttractors {
  std::vector<std::vector<int>> ids;  // per point, per label within the point: the global id
  std::vector<AttractorEvent> events; // in point order
  int count = 0;                      // global ids given (0 .. count-1)
};

// Points in axis order. Two comparable attractors of neighbouring points are the same when their
// distance (in the earlier point's scales) is at most match_distance; each attractor continues at most
// one, nearest pairs first (ties in label order), so the result depends only on the summaries.
GlobalAttractors continue_attractors(const std::vector<PointAttractors>& points, double match_distance,
                                     bool across_kinds = false);

}  // namespace vibro
