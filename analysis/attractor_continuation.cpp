#include "analysis/attractor_continuation.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace vibro {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Matches the attractors of one point to those of the next and records the events of that interval.
class IntervalMatch {
 public:
  IntervalMatch(const PointAttractors& before, const PointAttractors& after, double match_distance, bool across_kinds)
      : before_(before), after_(after), distance_(before.attractors.size(), std::vector<double>(after.attractors.size())) {
    for (std::size_t i = 0; i < before.attractors.size(); ++i)
      for (std::size_t j = 0; j < after.attractors.size(); ++j) {
        const double d = attractor_distance(before.attractors[i], after.attractors[j], before.scales, across_kinds);
        distance_[i][j] = d <= match_distance ? d : kInf;
      }
  }

  // ids_before: the global ids of the earlier point; returns those of the later point.
  std::vector<int> apply(const std::vector<int>& ids_before, int point, int& count, std::vector<AttractorEvent>& events) const {
    const std::size_t nb = before_.attractors.size(), na = after_.attractors.size();
    std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < nb; ++i)
      for (std::size_t j = 0; j < na; ++j)
        if (distance_[i][j] < kInf) pairs.emplace_back(distance_[i][j], i, j);
    std::sort(pairs.begin(), pairs.end());
    std::vector<int> ids_after(na, -1);
    std::vector<bool> continued(nb, false);
    for (const auto& [d, i, j] : pairs)
      if (!continued[i] && ids_after[j] < 0) {
        continued[i] = true;
        ids_after[j] = ids_before[i];
      }
    const auto event = [&](AttractorEventKind kind, int id, int partner) {
      events.push_back({kind, point, id, partner, before_.parameter, after_.parameter});
    };
    for (std::size_t j = 0; j < na; ++j) {
      if (ids_after[j] >= 0) continue;
      ids_after[j] = count++;
      const std::size_t parent = nearest_before(j);
      if (parent < nb) event(AttractorEventKind::Split, ids_after[j], ids_before[parent]);
      else event(AttractorEventKind::Birth, ids_after[j], -1);
    }
    for (std::size_t i = 0; i < nb; ++i) {
      if (continued[i]) continue;
      const std::size_t heir = nearest_after(i);
      if (heir < na) event(AttractorEventKind::Merger, ids_before[i], ids_after[heir]);
      else event(AttractorEventKind::Death, ids_before[i], -1);
    }
    return ids_after;
  }

 private:
  // The nearest matching attractor on the other side; the count of that side when none matches.
  std::size_t nearest_before(std::size_t j) const {
    std::size_t best = before_.attractors.size();
    for (std::size_t i = 0; i < before_.attractors.size(); ++i)
      if (distance_[i][j] < kInf && (best == before_.attractors.size() || distance_[i][j] < distance_[best][j])) best = i;
    return best;
  }
  std::size_t nearest_after(std::size_t i) const {
    std::size_t best = after_.attractors.size();
    for (std::size_t j = 0; j < after_.attractors.size(); ++j)
      if (distance_[i][j] < kInf && (best == after_.attractors.size() || distance_[i][j] < distance_[i][best])) best = j;
    return best;
  }

  const PointAttractors& before_;
  const PointAttractors& after_;
  std::vector<std::vector<double>> distance_;  // kInf beyond the match distance
};

}  // namespace

double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds) {
  if (!across_kinds && (a.periodic != b.periodic || a.class_code != b.class_code || a.period != b.period)) return kInf;
  if (a.periodic && b.periodic) return hausdorff_distance(a.orbit, b.orbit, scales);
  // an orbit against an irregular attractor: the box of its points against the region
  const auto region = [&](const PointAttractor& x) { return x.periodic ? box_of(x.orbit, scales.size()) : x.region; };
  return box_distance(region(a), region(b), scales);
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
