#include "analysis/attractor_continuation.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace vibro {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A periodic window spans the chaotic band it opens in: each side of its box lies within this share of
// the band's size of the band's side. A single point never does (it lies at least half the size from
// one side), nor a low-period orbit next to a small cloud of unsettled points.
constexpr double kWindowFill = 0.25;

// The region an attractor occupies: the box of its orbit's points, or the box an irregular one fills.
StrobeBox region_of(const PointAttractor& a, std::size_t dims) { return a.periodic ? box_of(a.orbit, dims) : a.region; }

// Matches the attractors of one point to those of the next and records the events of that interval.
class IntervalMatch {
 public:
  IntervalMatch(const PointAttractors& before, const PointAttractors& after, double match_distance, bool across_kinds)
      : before_(before), after_(after), across_kinds_(across_kinds), match_distance_(match_distance),
        distance_(before.attractors.size(), std::vector<double>(after.attractors.size())) {
    for (std::size_t i = 0; i < before.attractors.size(); ++i)
      for (std::size_t j = 0; j < after.attractors.size(); ++j)
        distance_[i][j] = attractor_distance(before.attractors[i], after.attractors[j], before.scales, across_kinds);
  }

  // ids_before: the global ids of the earlier point; returns those of the later point.
  std::vector<int> apply(const std::vector<int>& ids_before, int point, int& count, std::vector<AttractorEvent>& events) const {
    const std::size_t nb = before_.attractors.size(), na = after_.attractors.size();
    std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < nb; ++i)
      for (std::size_t j = 0; j < na; ++j)
        if (distance_[i][j] <= match_distance_) pairs.emplace_back(distance_[i][j], i, j);
    std::sort(pairs.begin(), pairs.end());
    std::vector<int> ids_after(na, -1);
    std::vector<std::size_t> heir(nb, na), parent(na, nb);  // who continues whom (na, nb: nobody)
    for (const auto& [d, i, j] : pairs)
      if (heir[i] == na && parent[j] == nb) {
        heir[i] = j;
        parent[j] = i;
        ids_after[j] = ids_before[i];
      }
    const auto event = [&](AttractorEventKind kind, int id, int partner) {
      events.push_back({kind, point, id, partner, before_.parameter, after_.parameter});
    };
    for (std::size_t j = 0; j < na; ++j) {
      if (parent[j] < nb) continue;
      ids_after[j] = count++;
      // a split: j lies within an attractor of the earlier point that continued to another one
      std::size_t whole = nb;
      for (std::size_t i = 0; i < nb && whole == nb; ++i)
        if (heir[i] < na && part_of(after_.attractors[j], before_.attractors[i], distance_[i][heir[i]])) whole = i;
      if (whole < nb) event(AttractorEventKind::Split, ids_after[j], ids_before[whole]);
      else event(AttractorEventKind::Birth, ids_after[j], -1);
    }
    for (std::size_t i = 0; i < nb; ++i) {
      if (heir[i] < na) continue;
      // a merger: i lies within an attractor of the later point that continues another one
      std::size_t whole = na;
      for (std::size_t j = 0; j < na && whole == na; ++j)
        if (parent[j] < nb && part_of(before_.attractors[i], after_.attractors[j], distance_[parent[j]][j])) whole = j;
      if (whole < na) event(AttractorEventKind::Merger, ids_before[i], ids_after[whole]);
      else event(AttractorEventKind::Death, ids_before[i], -1);
    }
    return ids_after;
  }

 private:
  // Within the match distance is not enough for a part of a whole (an attractor born beside another
  // would read as split from it): it must stick out of the whole's region by no more than the whole
  // itself moved in that step.
  bool part_of(const PointAttractor& part, const PointAttractor& whole, double whole_step) const {
    return comparable_attractors(part, whole, before_.scales, across_kinds_) && attractor_excess(part, whole, before_.scales) <= whole_step;
  }

  const PointAttractors& before_;
  const PointAttractors& after_;
  bool across_kinds_;
  double match_distance_;
  std::vector<std::vector<double>> distance_;  // infinite between attractors that are not comparable
};

}  // namespace

bool comparable_attractors(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                           bool across_kinds) {
  if (across_kinds || (!a.periodic && !b.periodic)) return true;
  if (a.periodic && b.periodic) return a.class_code == b.class_code && a.period == b.period;
  const PointAttractor& orbit = a.periodic ? a : b;
  const StrobeBox& region = a.periodic ? b.region : a.region;
  double extent = 0;
  for (std::size_t c = 0; c < scales.size(); ++c) extent = std::max(extent, (region.hi[c] - region.lo[c]) / scales[c]);
  return box_distance(box_of(orbit.orbit, scales.size()), region, scales) <= kWindowFill * extent;
}

double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds) {
  if (!comparable_attractors(a, b, scales, across_kinds)) return kInf;
  if (a.periodic && b.periodic) return hausdorff_distance(a.orbit, b.orbit, scales);
  // an orbit against an irregular attractor: the box of its points against the region
  return box_distance(region_of(a, scales.size()), region_of(b, scales.size()), scales);
}

double attractor_excess(const PointAttractor& part, const PointAttractor& whole, const std::vector<double>& scales) {
  if (part.periodic && whole.periodic) return directed_distance(part.orbit, whole.orbit, scales);
  return box_excess(region_of(part, scales.size()), region_of(whole, scales.size()), scales);
}

const char* attractor_event_name(AttractorEventKind kind) {
  switch (kind) {
    case AttractorEventKind::Birth: return "birth";
    case AttractorEventKind::Death: return "death";
    case AttractorEventKind::Merger: return "merger";
    case AttractorEventKind::Split: return "split";
  }
  return "?";
}

GlobalAttractors continue_attractors(const std::vector<PointAttractors>& points, double match_distance,
                                     bool across_kinds) {
  GlobalAttractors out;
  out.ids.resize(points.size());
  if (points.empty()) return out;
  for (std::size_t k = 0; k < points[0].attractors.size(); ++k) out.ids[0].push_back(out.count++);  // present from the start
  for (std::size_t p = 1; p < points.size(); ++p)
    out.ids[p] = IntervalMatch(points[p - 1], points[p], match_distance, across_kinds)
                     .apply(out.ids[p - 1], static_cast<int>(p), out.count, out.events);
  return out;
}

}  // namespace vibro
