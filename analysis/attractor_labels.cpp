#include "analysis/attractor_labels.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "analysis/collapsing_gap.hpp"
#include "analysis/content_order.hpp"
#include "analysis/orbit_limit.hpp"
#include "engine/core/model_legend.hpp"

namespace vibro {

namespace {

// A window whose points k apart (k <= kNearPeriods) all lie within kNearOrbit scales of each other is
// near a periodic orbit (the slowly converging test's threshold).
constexpr std::size_t kNearPeriods = 16;
constexpr double kNearOrbit = 1e-2;

// Union-find over nodes 0, 1, ...; a set's root is its smallest node, so the roots do not depend on
// the order in which sets are united.
class DisjointSets {
 public:
  std::size_t add() {
    parent_.push_back(parent_.size());
    return parent_.size() - 1;
  }
  std::size_t root(std::size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(std::size_t a, std::size_t b) {
    a = root(a);
    b = root(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> parent_;
};

// The tolerance two orbits match at: tol between settled ones, 100 tol when either is still slowly
// converging (its window is a transient on its way to the orbit).
double match_tolerance(const OrbitSummary& a, const OrbitSummary& b, double tol) { return a.settled && b.settled ? tol : 100 * tol; }

bool repeats_within(const std::vector<StatePoint>& orbit, std::size_t d, const std::vector<double>& scales, double match) {
  for (std::size_t i = 0; i + d < orbit.size(); ++i)
    if (!(scaled_distance(orbit[i], orbit[i + d], scales) < match)) return false;
  return true;
}

// Whether the window's samples d apart close in on each other (analysis/collapsing_gap's shrinking_gap)
// at a rate its phases measure (analysis/orbit_limit's contracts_to_period): a transient on its way to
// the period-d orbit, however far from it the window ended (near a flip it alternates about it with a
// multiplier close to -1, a gap that shrinks by about 1 % every two periods and is still large after
// 100). A window near an orbit of a multiple of d keeps its gaps d apart: its samples d apart
// alternate among that orbit's points (multipliers of modulus 1), however slowly it converges.
bool closing_in(const std::vector<StatePoint>& window, std::size_t d, const std::vector<double>& scales) {
  std::vector<double> gap;
  for (std::size_t i = 0; i + d < window.size(); ++i) gap.push_back(scaled_distance(window[i], window[i + d], scales));
  return shrinking_gap(gap, static_cast<int>(d)) && contracts_to_period(window, static_cast<int>(d), scales);
}

// The shortest d dividing the orbit's length whose points repeat. A period-2k reading whose halves the
// period test (1e-4 scales) still told apart but the labels' tolerance does not is the period-k
// orbit: a transient alternating about it near a flip, or a slow convergence that the window saw as a
// longer period. A settled window repeats within the labels' tolerance; a slowly converging one within
// the slowly converging test's near-orbit threshold (kNearOrbit), or its samples d apart are closing
// in on each other (closing_in; closing: set). Its points near each other alone are not enough: a
// genuine period-4 orbit's points may lie 0.03 scales from their partners two apart, a gap that stays.
std::size_t repeating_period(const OrbitSummary& s, const std::vector<StatePoint>& orbit, const std::vector<double>& scales,
                             double tol, bool& closing) {
  const std::size_t k = orbit.size();
  closing = false;
  for (std::size_t d = 1; d < k; ++d) {
    if (k % d != 0) continue;
    if (s.settled ? repeats_within(orbit, d, scales, tol) : repeats_within(orbit, d, scales, kNearOrbit)) return d;
    if (!s.settled && closing_in(s.points, d, scales)) {
      closing = true;
      return d;
    }
  }
  return k;
}

// A periodic window's orbit where it is going (analysis/orbit_limit), starting at its
// lexicographically smallest point: the same list whatever the phase at which the window ended.
// Cut to its repeating period when it has a shorter one (period: set to it); a window closing in on
// that shorter orbit is carried to it at that period (near -1 the limit is well placed, where the
// reading's period sees a multiplier near +1 and leaves the points where they are).
std::vector<StatePoint> canonical_orbit(const OrbitSummary& s, const std::vector<double>& scales, double tol, int& period) {
  std::vector<StatePoint> orbit = orbit_limit(s.points, s.period, scales);
  bool closing = false;
  const std::size_t d = repeating_period(s, orbit, scales, tol, closing);
  if (closing) orbit = orbit_limit(s.points, static_cast<int>(d), scales);
  orbit.resize(d);
  period = static_cast<int>(d);
  std::rotate(orbit.begin(), std::min_element(orbit.begin(), orbit.end()), orbit.end());
  return orbit;
}

// Points of each orbit and window that the contents' hash reads (order_by_contents): enough to tell
// most cases apart.
constexpr std::size_t kHashedPoints = 4;

// The cases of one parameter point, in an order of their contents (settled orbits before slowly
// converging ones, so that those are the representatives), which labels are numbered in; cases with
// equal contents by index.
std::vector<std::size_t> periodic_order(const std::vector<OrbitSummary>& cases, std::vector<std::size_t> members,
                                        const std::vector<std::vector<StatePoint>>& orbit) {
  using Key = std::tuple<const std::string&, const int&, bool, const std::vector<StatePoint>&, const std::vector<StatePoint>&>;
  const auto key = [&](std::size_t i) {  // settled before slowly converging
    return Key(cases[i].class_code, cases[i].period, !cases[i].settled, orbit[i], cases[i].points);
  };
  const auto hash = [&](std::size_t i) {
    ContentHash h;
    h.add(cases[i].class_code);
    h.add(static_cast<std::uint64_t>(cases[i].period) * 2 + (cases[i].settled ? 1 : 0));
    h.add_first(orbit[i], kHashedPoints);
    h.add_first(cases[i].points, kHashedPoints);
    return h.value();
  };
  return order_by_contents(std::move(members), key, hash);
}

std::vector<std::size_t> irregular_order(const std::vector<OrbitSummary>& cases, std::vector<std::size_t> members,
                                         const std::vector<StrobeBox>& box) {
  using Key = std::tuple<const std::string&, const StatePoint&, const StatePoint&, const std::vector<StatePoint>&>;
  const auto key = [&](std::size_t i) { return Key(cases[i].class_code, box[i].lo, box[i].hi, cases[i].points); };
  const auto hash = [&](std::size_t i) {
    ContentHash h;
    h.add(cases[i].class_code);
    for (const double v : box[i].lo) h.add(v);
    for (const double v : box[i].hi) h.add(v);
    h.add_first(cases[i].points, kHashedPoints);
    return h.value();
  };
  return order_by_contents(std::move(members), key, hash);
}

// Periodic cases: each is compared with one representative of every orbit found so far; a case that
// matches several joins their orbits into one. set[i]: the node of case i. period[i]: the period of
// case i's orbit (shorter than the model's when its points repeat): orbits of the same period match;
// their classes must agree too (orbit_classes_agree), unless one was read at a multiple of its period
// (the model's class then says what it saw over the longer period, not what the orbit is). A case whose
// class the model could not read joins the one orbit of a read class it lies on; lying on several
// (within the slowly converging tolerance, which may span two nearby orbits), it joins none of them,
// so that it never makes two orbits one. Those left are labelled among themselves.
void periodic_sets(const std::vector<OrbitSummary>& cases, const std::vector<std::size_t>& order,
                   const std::vector<std::vector<StatePoint>>& orbit, const std::vector<int>& period,
                   const std::vector<double>& scales, double tol, DisjointSets& sets, std::vector<std::size_t>& set) {
  std::vector<std::size_t> representative;  // per node: its case
  const auto reread = [&](std::size_t i) { return period[i] != cases[i].period; };
  const auto matches = [&](std::size_t i, std::size_t r) {
    const OrbitSummary &s = cases[i], &t = cases[r];
    const bool same_class = orbit_classes_agree(s.class_code, t.class_code) || reread(i) || reread(r);
    return period[i] == period[r] && same_class && directed_distance(orbit[i], orbit[r], scales) < match_tolerance(s, t, tol);
  };
  // Case i joins every orbit from node `first` on whose representative it matches, or starts one.
  const auto join = [&](std::size_t i, std::size_t first) {
    bool joined = false;
    for (std::size_t node = first; node < representative.size(); ++node) {
      if (!matches(i, representative[node])) continue;
      if (joined) sets.unite(set[i], node);
      else set[i] = node;
      joined = true;
    }
    if (!joined) {
      set[i] = sets.add();
      representative.push_back(i);
    }
  };
  const std::string& unread = not_converged_class().code;
  std::vector<std::size_t> unread_cases;
  for (const auto i : order) {
    if (cases[i].class_code == unread) unread_cases.push_back(i);
    else join(i, 0);
  }
  const std::size_t read_nodes = representative.size();
  std::vector<std::size_t> left;
  for (const auto i : unread_cases) {
    constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t root = kNone;
    bool several = false;
    for (std::size_t node = 0; node < read_nodes; ++node) {
      if (!matches(i, representative[node])) continue;
      const std::size_t r = sets.root(node);
      several = several || (root != kNone && r != root);
      root = r;
    }
    if (root != kNone && !several) set[i] = root;
    else left.push_back(i);
  }
  for (const auto i : left) join(i, read_nodes);
}

// Irregular cases: the connected components of "their boxes overlap" (same class only). A box inside
// a box already kept adds nothing to what overlaps the set, so it is not kept.
void irregular_sets(const std::vector<OrbitSummary>& cases, const std::vector<std::size_t>& order,
                    const std::vector<StrobeBox>& box, const std::vector<double>& scales, DisjointSets& sets,
                    std::vector<std::size_t>& set) {
  std::vector<std::size_t> kept;  // cases whose boxes are kept
  for (const auto i : order) {
    set[i] = sets.add();
    bool inside = false;
    for (const auto k : kept) {
      if (cases[k].class_code != cases[i].class_code || !boxes_overlap(box[i], box[k], scales)) continue;
      sets.unite(set[i], set[k]);
      inside = inside || box_excess(box[i], box[k], scales) <= 0;
    }
    if (!inside) kept.push_back(i);
  }
}

// Labels one group's members into `label`; returns how many attractors it has and counts its
// unsettled cases.
int label_group(const std::vector<OrbitSummary>& cases, const std::vector<std::size_t>& members,
                const std::vector<double>& scales, double tol, std::vector<int>& label, long long& unsettled) {
  std::vector<std::size_t> periodic, irregular;
  std::vector<StrobeBox> box(cases.size());
  for (const auto i : members) {
    const OrbitSummary& s = cases[i];
    if (!s.valid) continue;
    if (s.periodic) {
      periodic.push_back(i);
    } else if (s.aperiodic_steady || irregular_window_steady(s.points, scales)) {
      irregular.push_back(i);
      box[i] = box_of(s.points, scales.size());
    } else {
      ++unsettled;
    }
  }
  std::vector<std::vector<StatePoint>> orbit(cases.size());
  std::vector<int> period(cases.size(), 0);
  for (const auto i : periodic) orbit[i] = canonical_orbit(cases[i], scales, tol, period[i]);
  DisjointSets sets;
  std::vector<std::size_t> set(cases.size());
  const std::vector<std::size_t> by_orbit = periodic_order(cases, periodic, orbit);
  const std::vector<std::size_t> by_box = irregular_order(cases, irregular, box);
  periodic_sets(cases, by_orbit, orbit, period, scales, tol, sets, set);
  irregular_sets(cases, by_box, box, scales, sets, set);
  // Numbered in the contents' order: orbits first, then irregular sets.
  std::vector<int> label_of_root;
  int count = 0;
  for (const auto* order : {&by_orbit, &by_box})
    for (const auto i : *order) {
      const std::size_t root = sets.root(set[i]);
      if (root >= label_of_root.size()) label_of_root.resize(root + 1, -1);
      if (label_of_root[root] < 0) label_of_root[root] = count++;
      label[i] = label_of_root[root];
    }
  return count;
}

}  // namespace

bool orbit_classes_agree(const std::string& a, const std::string& b) {
  static const std::string unread = not_converged_class().code;
  return a == b || a == unread || b == unread;
}

bool irregular_window_steady(const std::vector<StatePoint>& points, const std::vector<double>& scales) {
  const std::size_t n = points.size(), half = n / 2;
  if (n < 8) return false;
  // Close to a period-k orbit without passing the period test: a transient on its way to or from it.
  for (std::size_t k = 1; k <= kNearPeriods && 2 * k < n; ++k) {
    bool near = true;
    for (std::size_t i = 0; i + k < n && near; ++i) near = scaled_distance(points[i], points[i + k], scales) < kNearOrbit;
    if (near) return false;
  }
  // The halves' ranges in each component: a drift moves them apart, a contraction shrinks the later one.
  const StrobeBox first = box_of({points.begin(), points.begin() + static_cast<long>(half)}, scales.size());
  const StrobeBox last = box_of({points.end() - static_cast<long>(half), points.end()}, scales.size());
  for (std::size_t c = 0; c < scales.size(); ++c) {
    const double a = first.hi[c] - first.lo[c], b = last.hi[c] - last.lo[c];
    const double overlap = std::max(0.0, std::min(first.hi[c], last.hi[c]) - std::max(first.lo[c], last.lo[c]));
    if (!(overlap >= 0.5 * std::min(a, b) && 3 * std::min(a, b) >= std::max(a, b))) return false;
  }
  return true;
}

AttractorLabels label_attractors(const std::vector<OrbitSummary>& cases, const std::vector<long long>& group,
                                 const std::vector<std::vector<double>>& group_scales, double tol) {
  const std::size_t groups = group_scales.size();
  AttractorLabels out;
  out.label.assign(cases.size(), -1);
  out.count.assign(groups, 0);
  out.unsettled.assign(groups, 0);
  std::vector<std::vector<std::size_t>> members(groups);
  for (std::size_t i = 0; i < cases.size(); ++i) members[static_cast<std::size_t>(group[i])].push_back(i);
  for (std::size_t g = 0; g < groups; ++g)
    out.count[g] = label_group(cases, members[g], group_scales[g], tol, out.label, out.unsettled[g]);
  return out;
}

}  // namespace vibro
