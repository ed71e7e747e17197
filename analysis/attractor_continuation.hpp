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

// Distance of two attractors in the scaled max-norm: periodic orbits by the Hausdorff distance of their
// stroboscopic points, irregular ones (or an irregular one and an orbit) by the Hausdorff distance of
// the boxes they fill. By default attractors of another kind (periodic or not, period, class) are
// infinitely far apart: a period doubling ends an attractor and begins another, as it does within a
// parameter point. across_kinds: they are compared all the same (a periodic window inside a chaotic
// band, a period doubling, continue the id when near enough).
double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds = false);

enum class AttractorEventKind { Birth, Death, Merger, Split };
const char* attractor_event_name(AttractorEventKind kind);

// Between points `point - 1` and `point` (parameter values from and to):
//   birth:  id appears, near no attractor of the earlier point (partner -1);
//   death:  id disappears, near no attractor of the later point (partner -1);
//   merger: id disappears, its nearest attractor of the later point continues id partner;
//   split:  id appears near partner, which continued to another attractor of the later point.
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

// Points in axis order. Two attractors of neighbouring points are the same when their distance (in the
// earlier point's scales) is at most match_distance; each attractor continues at most one, nearest pairs
// first (ties in label order), so the result depends only on the summaries.
GlobalAttractors continue_attractors(const std::vector<PointAttractors>& points, double match_distance,
                                     bool across_kinds = false);

}  // namespace vibro
