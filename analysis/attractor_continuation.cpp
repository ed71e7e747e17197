#include "analysis/attractor_continuation.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "analysis/chaotic_windows.hpp"

namespace vibro {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A periodic window spans the chaotic band it opens in: each side of its box lies within this share of
// the band's size of the band's side. A single point never does (it lies at least half the size from
// one side), nor a low-period orbit next to a small cloud of unsettled points.
constexpr double kWindowFill = 0.25;
// Irregular attractors are compared by where this share of their points lies (a partial Hausdorff
// distance, analysis/strobe_cloud): a tenth of either set may lie anywhere, as the points of a case
// that reached further than the rest do.
constexpr double kBulk = 0.9;

bool both_clouds(const PointAttractor& a, const PointAttractor& b) {
  return !a.periodic && !b.periodic && !a.cloud.cells.empty() && !b.cloud.cells.empty();
}

// The region an attractor occupies: the box of its orbit's points, or the box an irregular one fills.
StrobeBox region_of(const PointAttractor& a, std::size_t dims) { return a.periodic ? box_of(a.orbit, dims) : a.region; }

// Candidate pairs (key, earlier, later): the smaller the key, the better the pair.
using Candidates = std::vector<std::tuple<double, std::size_t, std::size_t>>;

// Who continues whom between two points, filled in stages: each stage pairs, best first, only
// attractors that earlier stages left alone.
class Pairing {
 public:
  Pairing(std::size_t before, std::size_t after) : heir_(before, after), parent_(after, before) {}
  void take(Candidates pairs) {
    std::sort(pairs.begin(), pairs.end());
    for (const auto& [key, i, j] : pairs)
      if (!continued(i) && !continues(j)) {
        heir_[i] = j;
        parent_[j] = i;
      }
  }
  bool continued(std::size_t i) const { return heir_[i] < parent_.size(); }
  bool continues(std::size_t j) const { return parent_[j] < heir_.size(); }
  std::size_t heir(std::size_t i) const { return heir_[i]; }
  std::size_t parent(std::size_t j) const { return parent_[j]; }

 private:
  std::vector<std::size_t> heir_, parent_;  // out of range: nobody
};

// An attractor no longer found, kept to be matched again should it return: as last seen, in that
// point's scales, with the event that ended it.
struct MissingAttractor {
  int id;
  PointAttractor attractor;
  std::vector<double> scales;
  std::size_t event;
};

// Matches the attractors of one point to those of the next and records the events of that interval.
class IntervalMatch {
 public:
  IntervalMatch(const PointAttractors& before, const PointAttractors& after, const MatchSettings& settings,
                const BasinOverlap* overlap)
      : before_(before), after_(after), settings_(settings), overlap_(overlap),
        distance_(before.attractors.size(), std::vector<double>(after.attractors.size())),
        doubling_(before.attractors.size(), std::vector<DoublingGeometry>(after.attractors.size())) {
    for (std::size_t i = 0; i < before.attractors.size(); ++i)
      for (std::size_t j = 0; j < after.attractors.size(); ++j) {
        const PointAttractor &a = before.attractors[i], &b = after.attractors[j];
        distance_[i][j] = attractor_distance(a, b, before.scales, settings.across_kinds);
        if (settings.period_doublings) doubling_[i][j] = doubling_geometry(a, b, before.scales);
      }
  }

  // ids_before: the global ids of the earlier point; returns those of the later point. `missing`: the
  // attractors of the line not found at the earlier point (updated).
  std::vector<int> apply(const std::vector<int>& ids_before, int point, int& count, std::vector<AttractorEvent>& events,
                         std::vector<MissingAttractor>& missing) const {
    const std::size_t nb = before_.attractors.size(), na = after_.attractors.size();
    Pairing pairing(nb, na);
    if (settings_.method == MatchMethod::BasinOverlap && overlap_) pairing.take(overlap_pairs());
    Candidates same = within(distance_), doubled = doublings();
    const Candidates deferred = outweighed_by_doublings(same, doubled);
    pairing.take(same);
    pairing.take(doubled);
    pairing.take(deferred);
    if (settings_.period_changes && overlap_) pairing.take(period_changes(pairing));
    std::vector<bool> resized(na, false);  // j continues an irregular set that lies within it or holds it (extent_change)
    if (settings_.extent_changes && overlap_) {
      const Candidates changes = extent_changes(pairing);
      pairing.take(changes);
      for (const auto& [key, i, j] : changes) resized[j] = resized[j] || (pairing.continues(j) && pairing.parent(j) == i);
    }
    const auto event = [&](AttractorEventKind kind, int id, int partner) {
      events.push_back({kind, point, id, partner, before_.parameter, after_.parameter});
    };
    std::vector<int> ids_after(na, -1);
    for (std::size_t j = 0; j < na; ++j) {
      if (!pairing.continues(j)) continue;
      const std::size_t i = pairing.parent(j);
      ids_after[j] = ids_before[i];
      const PointAttractor &a = before_.attractors[i], &b = after_.attractors[j];
      // Whichever stage matched them, a continuation that changes the period (an irregular set's
      // period is 0) is named: a periodic window taking a chaotic set's id, or chaos returning after it.
      if (a.periodic && b.periodic && b.period == 2 * a.period) event(AttractorEventKind::PeriodDoubling, ids_after[j], -1);
      else if (a.periodic && b.periodic && a.period == 2 * b.period) event(AttractorEventKind::PeriodHalving, ids_after[j], -1);
      else if (a.periodic != b.periodic || a.period != b.period) event(AttractorEventKind::PeriodChange, ids_after[j], -1);
      if (resized[j]) event(AttractorEventKind::ExtentChange, ids_after[j], -1);
    }
    if (settings_.vanished) match_returns(ids_after, missing, events, event);
    for (std::size_t j = 0; j < na; ++j) {
      if (ids_after[j] >= 0) continue;
      ids_after[j] = count++;
      // a split: j lies within an attractor of the earlier point that continued to another one
      std::size_t whole = nb;
      for (std::size_t i = 0; i < nb && whole == nb; ++i)
        if (pairing.continued(i) && part_of(after_.attractors[j], before_.attractors[i], step(i, pairing.heir(i)))) whole = i;
      if (whole < nb) event(AttractorEventKind::Split, ids_after[j], ids_before[whole]);
      else event(AttractorEventKind::Birth, ids_after[j], -1);
    }
    for (std::size_t i = 0; i < nb; ++i) {
      if (pairing.continued(i)) continue;
      // a merger: i lies within an attractor of the later point that continues another one
      std::size_t whole = na;
      for (std::size_t j = 0; j < na && whole == na; ++j)
        if (pairing.continues(j) && part_of(before_.attractors[i], after_.attractors[j], step(pairing.parent(j), j))) whole = j;
      if (whole < na) event(AttractorEventKind::Merger, ids_before[i], ids_after[whole]);
      else event(AttractorEventKind::Death, ids_before[i], -1);
      if (settings_.vanished) missing.push_back({ids_before[i], before_.attractors[i], before_.scales, events.size() - 1});
    }
    return ids_after;
  }

 private:
  Candidates within(const std::vector<std::vector<double>>& distance) const {
    Candidates pairs;
    for (std::size_t i = 0; i < distance.size(); ++i)
      for (std::size_t j = 0; j < distance[i].size(); ++j)
        if (distance[i][j] <= settings_.distance) pairs.emplace_back(distance[i][j], i, j);
    return pairs;
  }

  // Period doublings (and halvings) within the match distance, keyed by their doubling distance. Past a
  // flip the doubled orbit's halves move apart as the square root of the distance to it, so one grid
  // step may carry them beyond the match distance from their midpoints while the midpoints still lie
  // on the old orbit: such a pair is a doubling too when the doubled orbit's basin holds initial
  // conditions of the old orbit's (the cases show it was born there), never on geometry alone.
  Candidates doublings() const {
    Candidates pairs;
    for (std::size_t i = 0; i < doubling_.size(); ++i)
      for (std::size_t j = 0; j < doubling_[i].size(); ++j) {
        const DoublingGeometry& d = doubling_[i][j];
        const bool close = d.distance() <= settings_.distance;
        const bool inherited = overlap_ && d.midpoint <= settings_.distance && shared(i, j) > 0;
        if (close || inherited) pairs.emplace_back(d.distance(), i, j);
      }
    return pairs;
  }

  // An orbit found at the later point both as itself and as its period doubling (or halving), as a
  // flip looks where slow transients still sit on the orbit that has lost its stability: the one that
  // inherits more of its basin continues it. Moves the pairs of `same` that a doubling outweighs out
  // (returned, to be taken after the doublings); none without overlaps.
  Candidates outweighed_by_doublings(Candidates& same, const Candidates& doubled) const {
    Candidates deferred;
    if (!overlap_) return deferred;
    const auto outweighed = [&](const auto& pair) {
      const auto [d, i, j] = pair;
      return std::any_of(doubled.begin(), doubled.end(), [&, i = i, j = j](const auto& other) {
        return std::get<1>(other) == i && shared(i, std::get<2>(other)) > shared(i, j);
      });
    };
    const auto kept = std::stable_partition(same.begin(), same.end(), [&](const auto& pair) { return !outweighed(pair); });
    deferred.assign(kept, same.end());
    same.erase(kept, same.end());
    return deferred;
  }

  // Attractors both earlier stages left alone whose period changed by other than a factor 2 (an orbit
  // of another period, or an orbit and an irregular set), as a sequence of periodic windows of one
  // chaotic set shows: the new one lies on the old one (change_distance within the match distance)
  // and their basins share initial conditions. Both together, so that two attractors side by side
  // whose periods differ are not taken for one. The pairs whose basins overlap most (Jaccard index)
  // first: a set that breaks up into a large window and a few cases on another orbit goes on as the
  // window.
  Candidates period_changes(const Pairing& pairing) const {
    Candidates pairs;
    for (std::size_t i = 0; i < before_.attractors.size(); ++i) {
      if (pairing.continued(i)) continue;
      for (std::size_t j = 0; j < after_.attractors.size(); ++j) {
        if (pairing.continues(j) || shared(i, j) <= 0) continue;
        const double d = change_distance(before_.attractors[i], after_.attractors[j], before_.scales);
        if (d <= settings_.distance) pairs.emplace_back(-jaccard(i, j), i, j);
      }
    }
    return pairs;
  }

  // Irregular sets both earlier stages left alone where one lies within the other (nine tenths of its
  // points within the match distance of the other's) and their basins share initial conditions: a
  // chaotic set that suddenly widens or shrinks, as at an interior crisis or in a window where it
  // collapses onto a few bands of itself, which the two-sided distance of stage 2 cannot follow (the
  // part of the larger set that the smaller one no longer visits lies far from it). The pairs whose
  // basins overlap most first.
  Candidates extent_changes(const Pairing& pairing) const {
    Candidates pairs;
    for (std::size_t i = 0; i < before_.attractors.size(); ++i) {
      if (pairing.continued(i)) continue;
      for (std::size_t j = 0; j < after_.attractors.size(); ++j) {
        const PointAttractor &a = before_.attractors[i], &b = after_.attractors[j];
        if (pairing.continues(j) || shared(i, j) <= 0 || !both_clouds(a, b)) continue;
        const double inside = std::min(cloud_reach(a.cloud, b.cloud, before_.scales, kBulk),
                                       cloud_reach(b.cloud, a.cloud, before_.scales, kBulk));
        if (inside <= settings_.distance) pairs.emplace_back(-jaccard(i, j), i, j);
      }
    }
    return pairs;
  }

  long long shared(std::size_t i, std::size_t j) const {
    return i < overlap_->size() && j < (*overlap_)[i].size() ? (*overlap_)[i][j] : 0;
  }

  // The share of initial conditions in either basin that both share.
  double jaccard(std::size_t i, std::size_t j) const {
    const auto both = static_cast<double>(shared(i, j));
    const auto either = static_cast<double>(before_.attractors[i].cases + after_.attractors[j].cases) - both;
    return either > 0 ? both / either : 0.0;
  }

  // Pairs whose basins share initial conditions, the largest Jaccard index first.
  Candidates overlap_pairs() const {
    Candidates pairs;
    for (std::size_t i = 0; i < overlap_->size(); ++i)
      for (std::size_t j = 0; j < (*overlap_)[i].size(); ++j)
        if ((*overlap_)[i][j] > 0) pairs.emplace_back(-jaccard(i, j), i, j);
    return pairs;
  }

  // Attractors of the later point that nothing continues, against those missing at the earlier one
  // (as last seen): comparable within the match distance. Not as a period doubling: an orbit that
  // went missing and changed its period on the way is too little evidence of one attractor.
  template <class Event>
  void match_returns(std::vector<int>& ids_after, std::vector<MissingAttractor>& missing, std::vector<AttractorEvent>& events,
                     const Event& event) const {
    Candidates pairs;
    for (std::size_t k = 0; k < missing.size(); ++k)
      for (std::size_t j = 0; j < ids_after.size(); ++j) {
        if (ids_after[j] >= 0) continue;
        const MissingAttractor& m = missing[k];
        const double d = attractor_distance(m.attractor, after_.attractors[j], m.scales, settings_.across_kinds);
        if (d <= settings_.distance) pairs.emplace_back(d, k, j);
      }
    Pairing returns(missing.size(), ids_after.size());
    returns.take(std::move(pairs));
    std::vector<MissingAttractor> still;
    for (std::size_t k = 0; k < missing.size(); ++k) {
      if (!returns.continued(k)) {
        still.push_back(missing[k]);
        continue;
      }
      ids_after[returns.heir(k)] = missing[k].id;
      if (events[missing[k].event].kind == AttractorEventKind::Death) events[missing[k].event].kind = AttractorEventKind::Vanished;
      event(AttractorEventKind::Return, missing[k].id, -1);
    }
    missing = std::move(still);
  }

  // How far attractor i moved to j in the step: their distance, or for a pair only their basins or
  // a period doubling tie, how far either sticks out of the other.
  double step(std::size_t i, std::size_t j) const {
    if (distance_[i][j] < kInf) return distance_[i][j];
    if (doubling_[i][j].distance() < kInf) return doubling_[i][j].distance();
    const PointAttractor &a = before_.attractors[i], &b = after_.attractors[j];
    return std::max(attractor_excess(a, b, before_.scales), attractor_excess(b, a, before_.scales));
  }

  // Within the match distance is not enough for a part of a whole (an attractor born beside another
  // would read as split from it): it must stick out of the whole's region by no more than the whole
  // itself moved in that step.
  bool part_of(const PointAttractor& part, const PointAttractor& whole, double whole_step) const {
    return comparable_attractors(part, whole, before_.scales, settings_.across_kinds) &&
           attractor_excess(part, whole, before_.scales) <= whole_step;
  }

  const PointAttractors& before_;
  const PointAttractors& after_;
  const MatchSettings& settings_;
  const BasinOverlap* overlap_;
  std::vector<std::vector<double>> distance_;  // infinite between attractors that are not comparable
  std::vector<std::vector<DoublingGeometry>> doubling_;  // infinite unless one is a period doubling of the other
};

}  // namespace

bool comparable_attractors(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                           bool across_kinds) {
  if (across_kinds || (!a.periodic && !b.periodic)) return true;
  if (a.periodic && b.periodic) return orbit_classes_agree(a.class_code, b.class_code) && a.period == b.period;
  const PointAttractor& orbit = a.periodic ? a : b;
  const StrobeBox& region = a.periodic ? b.region : a.region;
  double extent = 0;
  for (std::size_t c = 0; c < scales.size(); ++c) extent = std::max(extent, (region.hi[c] - region.lo[c]) / scales[c]);
  return box_distance(box_of(orbit.orbit, scales.size()), region, scales) <= kWindowFill * extent;
}

bool holds_window(const PointAttractors& point, std::size_t k) {
  const PointAttractor& set = point.attractors[k];
  if (set.periodic) return false;
  return std::any_of(point.attractors.begin(), point.attractors.end(), [&](const PointAttractor& other) {
    return other.periodic && comparable_attractors(other, set, point.scales);
  });
}

double attractor_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales,
                          bool across_kinds) {
  if (!comparable_attractors(a, b, scales, across_kinds)) return kInf;
  if (a.periodic && b.periodic) return hausdorff_distance(a.orbit, b.orbit, scales);
  if (both_clouds(a, b)) return partial_hausdorff(a.cloud, b.cloud, scales, kBulk);
  // an orbit against an irregular attractor (or one known by its box alone): the box of its points against the region
  return box_distance(region_of(a, scales.size()), region_of(b, scales.size()), scales);
}

DoublingGeometry doubling_geometry(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales) {
  if (!a.periodic || !b.periodic) return {};
  const bool a_doubles = b.period == 2 * a.period;
  if (!a_doubles && a.period != 2 * b.period) return {};
  const std::vector<StatePoint>& single = a_doubles ? a.orbit : b.orbit;
  const std::vector<StatePoint>& doubled = a_doubles ? b.orbit : a.orbit;
  const std::size_t k = single.size();
  if (k == 0 || doubled.size() != 2 * k) return {};
  // Points i and i + k of the doubled orbit straddle the orbit it bifurcated from: their midpoint
  // stays on it while they move apart (as the square root of the distance past a supercritical flip).
  std::vector<StatePoint> middle(k);
  DoublingGeometry g{kInf, 0};
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t c = 0; c < scales.size(); ++c) middle[i][c] = 0.5 * (doubled[i][c] + doubled[i + k][c]);
    g.split = std::max(g.split, scaled_distance(middle[i], doubled[i], scales));
  }
  for (std::size_t shift = 0; shift < k; ++shift) {
    double worst = 0;
    for (std::size_t i = 0; i < k; ++i) worst = std::max(worst, scaled_distance(middle[i], single[(i + shift) % k], scales));
    g.midpoint = std::min(g.midpoint, worst);
  }
  return g;
}

double doubling_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales) {
  return doubling_geometry(a, b, scales).distance();
}

double change_distance(const PointAttractor& a, const PointAttractor& b, const std::vector<double>& scales) {
  if (a.periodic && b.periodic) return a.period == b.period ? kInf : hausdorff_distance(a.orbit, b.orbit, scales);
  if (a.periodic == b.periodic) return kInf;
  const PointAttractor& orbit = a.periodic ? a : b;
  const PointAttractor& set = a.periodic ? b : a;
  if (set.cloud.cells.empty()) return kInf;
  // every point of the orbit near the set, and the set's bulk near the orbit: the set gathers about
  // the orbit (or scatters from it), not an orbit somewhere inside a wider set
  const StrobeCloud points = cloud_of(orbit.orbit, scales);
  return std::max(cloud_reach(points, set.cloud, scales, 1.0), cloud_reach(set.cloud, points, scales, kBulk));
}

double attractor_excess(const PointAttractor& part, const PointAttractor& whole, const std::vector<double>& scales) {
  if (part.periodic && whole.periodic) return directed_distance(part.orbit, whole.orbit, scales);
  if (both_clouds(part, whole)) return cloud_reach(part.cloud, whole.cloud, scales, kBulk);
  return box_excess(region_of(part, scales.size()), region_of(whole, scales.size()), scales);
}

const char* attractor_event_name(AttractorEventKind kind) {
  switch (kind) {
    case AttractorEventKind::Birth: return "birth";
    case AttractorEventKind::Death: return "death";
    case AttractorEventKind::Merger: return "merger";
    case AttractorEventKind::Split: return "split";
    case AttractorEventKind::PeriodDoubling: return "period_doubling";
    case AttractorEventKind::PeriodHalving: return "period_halving";
    case AttractorEventKind::Vanished: return "vanished";
    case AttractorEventKind::Return: return "return";
    case AttractorEventKind::PeriodChange: return "period_change";
    case AttractorEventKind::ExtentChange: return "extent_change";
  }
  return "?";
}

const char* match_method_name(MatchMethod method) {
  return method == MatchMethod::BasinOverlap ? "basin_overlap" : "distance";
}

GlobalAttractors continue_attractors(const std::vector<PointAttractors>& points, const MatchSettings& settings,
                                     const std::vector<BasinOverlap>& overlaps) {
  GlobalAttractors out;
  out.ids.resize(points.size());
  if (points.empty()) return out;
  for (std::size_t k = 0; k < points[0].attractors.size(); ++k) out.ids[0].push_back(out.count++);  // present from the start
  std::vector<MissingAttractor> missing;
  for (std::size_t p = 1; p < points.size(); ++p) {
    const BasinOverlap* overlap = p < overlaps.size() ? &overlaps[p] : nullptr;
    out.ids[p] = IntervalMatch(points[p - 1], points[p], settings, overlap)
                     .apply(out.ids[p - 1], static_cast<int>(p), out.count, out.events, missing);
  }
  if (settings.windows && settings.vanished) bridge_chaotic_windows(points, overlaps, settings.distance, out);
  return out;
}

}  // namespace vibro
