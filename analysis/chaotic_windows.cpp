#include "analysis/chaotic_windows.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace vibro {

namespace {

// Where one id is found: (point, label) in point order.
using Occurrences = std::vector<std::pair<std::size_t, std::size_t>>;

std::map<int, Occurrences> occurrences_of(const GlobalAttractors& global) {
  std::map<int, Occurrences> out;
  for (std::size_t p = 0; p < global.ids.size(); ++p)
    for (std::size_t k = 0; k < global.ids[p].size(); ++k) out[global.ids[p][k]].emplace_back(p, k);
  return out;
}

// The label of `id` at point p, if it is found there.
std::optional<std::size_t> label_at(const GlobalAttractors& global, std::size_t p, int id) {
  const auto& ids = global.ids[p];
  const auto it = std::find(ids.begin(), ids.end(), id);
  if (it == ids.end()) return std::nullopt;
  return static_cast<std::size_t>(it - ids.begin());
}

std::size_t event_index(const GlobalAttractors& global, AttractorEventKind kind, std::size_t point, int id) {
  for (std::size_t e = 0; e < global.events.size(); ++e) {
    const AttractorEvent& ev = global.events[e];
    if (ev.kind == kind && ev.point == static_cast<int>(point) && ev.id == id) return e;
  }
  return global.events.size();
}

long long shared(const std::vector<BasinOverlap>& overlaps, std::size_t p, std::size_t i, std::size_t j) {
  if (p >= overlaps.size() || i >= overlaps[p].size() || j >= overlaps[p][i].size()) return 0;
  return overlaps[p][i][j];
}

// How far the farthest point of an orbit lies from an irregular set's points (scaled max-norm).
double orbit_off_set(const PointAttractor& orbit, const PointAttractor& set, const std::vector<double>& scales) {
  if (!orbit.periodic || set.periodic || set.cloud.cells.empty()) return std::numeric_limits<double>::infinity();
  return cloud_reach(cloud_of(orbit.orbit, scales), set.cloud, scales, 1.0);
}

struct Window {
  int window_id = -1, set_id = -1;
  std::size_t first = 0, last = 0;  // the points p..q where the orbit replaces the set
};

class WindowSearch {
 public:
  WindowSearch(const std::vector<PointAttractors>& points, const std::vector<BasinOverlap>& overlaps, double distance,
               const GlobalAttractors& global)
      : points_(points), overlaps_(overlaps), distance_(distance), global_(global) {}

  // The first window (in id order) and the set it belongs to, if any.
  std::optional<Window> find() const {
    const auto all = occurrences_of(global_);
    for (const auto& [id, where] : all) {
      const std::size_t p = where.front().first, q = where.back().first;
      if (p == 0 || q + 1 >= global_.ids.size() || where.size() != q - p + 1) continue;  // one attractor a point, no gap
      if (!std::all_of(where.begin(), where.end(), [&](const auto& w) { return at(w.first, w.second).periodic; })) continue;
      if (event_index(global_, AttractorEventKind::Birth, p, id) == global_.events.size() ||
          event_index(global_, AttractorEventKind::Death, q + 1, id) == global_.events.size())
        continue;
      std::optional<Window> best;
      long long best_shared = 0;
      for (const int set : global_.ids[p - 1]) {
        const long long s = flanks(set, id, p, q, where.front().second, where.back().second);
        if (s > best_shared) best = Window{id, set, p, q}, best_shared = s;
      }
      if (best) return best;
    }
    return std::nullopt;
  }

 private:
  const PointAttractor& at(std::size_t p, std::size_t k) const { return points_[p].attractors[k]; }

  // The initial conditions the set `set` shares with the window at both ends, when it flanks the window
  // (irregular at p - 1 and q + 1, missing in between, the orbit on it at both ends); 0 otherwise.
  long long flanks(int set, int window, std::size_t p, std::size_t q, std::size_t entry, std::size_t exit) const {
    const auto before = label_at(global_, p - 1, set), after = label_at(global_, q + 1, set);
    if (!before || !after || set == window) return 0;
    for (std::size_t t = p; t <= q; ++t)
      if (label_at(global_, t, set)) return 0;
    if (event_index(global_, AttractorEventKind::Vanished, p, set) == global_.events.size() ||
        event_index(global_, AttractorEventKind::Return, q + 1, set) == global_.events.size())
      return 0;
    const PointAttractor &set_before = at(p - 1, *before), &set_after = at(q + 1, *after);
    if (set_before.periodic || set_after.periodic) return 0;
    if (orbit_off_set(at(p, entry), set_before, points_[p - 1].scales) > distance_ ||
        orbit_off_set(at(q, exit), set_after, points_[q].scales) > distance_)
      return 0;
    const long long in = shared(overlaps_, p, *before, entry), out = shared(overlaps_, q + 1, exit, *after);
    return in > 0 && out > 0 ? in + out : 0;
  }

  const std::vector<PointAttractors>& points_;
  const std::vector<BasinOverlap>& overlaps_;
  double distance_;
  const GlobalAttractors& global_;
};

// The window's points take the set's id; its birth and death go, the set's vanished and return
// become the period changes at the window's entry and exit.
void bridge(const Window& w, GlobalAttractors& global) {
  for (std::size_t t = w.first; t <= w.last; ++t)
    for (int& id : global.ids[t])
      if (id == w.window_id) id = w.set_id;
  const std::size_t birth = event_index(global, AttractorEventKind::Birth, w.first, w.window_id);
  const std::size_t death = event_index(global, AttractorEventKind::Death, w.last + 1, w.window_id);
  global.events[event_index(global, AttractorEventKind::Vanished, w.first, w.set_id)].kind = AttractorEventKind::PeriodChange;
  global.events[event_index(global, AttractorEventKind::Return, w.last + 1, w.set_id)].kind = AttractorEventKind::PeriodChange;
  std::vector<AttractorEvent> kept;
  for (std::size_t e = 0; e < global.events.size(); ++e) {
    if (e == birth || e == death) continue;
    AttractorEvent ev = global.events[e];
    if (ev.id == w.window_id) ev.id = w.set_id;
    if (ev.partner == w.window_id) ev.partner = w.set_id;
    kept.push_back(ev);
  }
  global.events = std::move(kept);
}

// Ids without a point left are dropped, the rest numbered 0.. in their old order.
void renumber(GlobalAttractors& global) {
  std::vector<int> next(static_cast<std::size_t>(global.count), -1);
  for (const auto& ids : global.ids)
    for (const int id : ids) next[static_cast<std::size_t>(id)] = 0;
  int count = 0;
  for (int& n : next)
    if (n == 0) n = count++;
  for (auto& ids : global.ids)
    for (int& id : ids) id = next[static_cast<std::size_t>(id)];
  for (AttractorEvent& ev : global.events) {
    ev.id = next[static_cast<std::size_t>(ev.id)];
    if (ev.partner >= 0) ev.partner = next[static_cast<std::size_t>(ev.partner)];
  }
  global.count = count;
}

}  // namespace

void bridge_chaotic_windows(const std::vector<PointAttractors>& points, const std::vector<BasinOverlap>& overlaps,
                            double distance, GlobalAttractors& global) {
  if (overlaps.empty()) return;
  bool changed = false;
  while (const auto window = WindowSearch(points, overlaps, distance, global).find()) {
    bridge(*window, global);
    changed = true;
  }
  if (changed) renumber(global);
}

}  // namespace vibro
