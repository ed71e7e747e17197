// Global continuation of attractors on constructed per-point summaries: an orbit that moves a little
// keeps its id; one test per event kind (birth, death, merger, split), each placed in the interval
// where it happens; a change of period ends one orbit and begins another; irregular attractors are
// followed by the region they fill, through a periodic window; an attractor born or lost beside
// another, within the match distance but not within its region, is a birth or a death.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/attractor_continuation.hpp"

using namespace vibro;

namespace {

const std::vector<double> kScales{1.0, 1.0};

PointAttractor orbit(std::vector<std::pair<double, double>> points, const std::string& cls = "P") {
  PointAttractor a;
  a.periodic = true;
  a.period = static_cast<int>(points.size());
  a.class_code = cls;
  for (const auto& [x, y] : points) {
    StatePoint p{};
    p[0] = x;
    p[1] = y;
    a.orbit.push_back(p);
  }
  a.region = box_of(a.orbit, 2);
  a.cases = 1;
  return a;
}

PointAttractor chaotic(double lo, double hi) {
  PointAttractor a;
  a.class_code = "X";
  StatePoint p{}, q{};
  p[0] = p[1] = lo;
  q[0] = q[1] = hi;
  a.region = box_of({p, q}, 2);
  a.cases = 1;
  return a;
}

PointAttractors at(double parameter, std::vector<PointAttractor> attractors) {
  PointAttractors p;
  p.parameter = parameter;
  p.scales = kScales;
  p.cases_run = 10;
  p.attractors = std::move(attractors);
  return p;
}

std::vector<AttractorEvent> of_kind(const GlobalAttractors& g, AttractorEventKind kind) {
  std::vector<AttractorEvent> out;
  for (const auto& e : g.events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("continuation: a slowly moving orbit keeps its id, whatever its label at each point", "[analysis][continuation]") {
  // Orbit A drifts by 0.01 per point; B stays put; their labels swap at the second point.
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.0, 0.0}}), orbit({{1.0, 1.0}})}),
      at(1.5, {orbit({{1.0, 1.0}}), orbit({{0.01, 0.0}})}),
      at(2.0, {orbit({{0.02, 0.0}}), orbit({{1.0, 1.0}})}),
  };
  const GlobalAttractors g = continue_attractors(points, 0.05);
  CHECK(g.count == 2);
  CHECK(g.ids[0] == std::vector<int>{0, 1});
  CHECK(g.ids[1] == std::vector<int>{1, 0});
  CHECK(g.ids[2] == std::vector<int>{0, 1});
  CHECK(g.events.empty());
  // The threshold is the user's: below the drift per step, A is a new attractor at every point.
  const GlobalAttractors strict = continue_attractors(points, 0.005);
  CHECK(strict.count == 4);
  CHECK(of_kind(strict, AttractorEventKind::Birth).size() == 2);
  CHECK(of_kind(strict, AttractorEventKind::Death).size() == 2);
}

TEST_CASE("continuation: a birth is placed in the interval where the attractor first appears", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(30.0, {orbit({{0.0, 0.0}})}),
      at(30.5, {orbit({{0.0, 0.0}})}),
      at(31.0, {orbit({{0.0, 0.0}}), orbit({{2.0, 2.0}})}),
      at(31.5, {orbit({{2.0, 2.01}}), orbit({{0.0, 0.0}})}),
  };
  const GlobalAttractors g = continue_attractors(points, 0.1);
  REQUIRE(g.events.size() == 1);
  const auto& e = g.events[0];
  CHECK(e.kind == AttractorEventKind::Birth);
  CHECK(e.id == 1);
  CHECK(e.partner == -1);
  CHECK(e.point == 2);
  CHECK(e.from == 30.5);
  CHECK(e.to == 31.0);
  CHECK(g.ids[3] == std::vector<int>{1, 0});
}

TEST_CASE("continuation: a death is placed in the interval where the attractor is last seen", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(60.0, {orbit({{0.0, 0.0}}), orbit({{2.0, 2.0}})}),
      at(60.5, {orbit({{0.0, 0.0}}), orbit({{2.0, 2.0}})}),
      at(61.0, {orbit({{2.0, 2.0}})}),
  };
  const GlobalAttractors g = continue_attractors(points, 0.1);
  REQUIRE(g.events.size() == 1);
  CHECK(g.events[0].kind == AttractorEventKind::Death);
  CHECK(g.events[0].id == 0);
  CHECK(g.events[0].from == 60.5);
  CHECK(g.events[0].to == 61.0);
  CHECK(g.ids[2] == std::vector<int>{1});
}

TEST_CASE("continuation: a period doubling ends the period-1 attractor and begins a period-2 one", "[analysis][continuation]") {
  // The period-2 orbit is born on top of the period-1 one: near, but another kind of attractor.
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.0, 0.0}})}),
      at(2.0, {orbit({{0.0, 0.001}, {0.0, -0.001}})}),
  };
  const GlobalAttractors g = continue_attractors(points, 0.1);
  CHECK(of_kind(g, AttractorEventKind::Death).size() == 1);
  CHECK(of_kind(g, AttractorEventKind::Birth).size() == 1);
  CHECK(g.ids[1] == std::vector<int>{1});
  // Matched across kinds, the period-2 orbit continues the period-1 id.
  const GlobalAttractors across = continue_attractors(points, 0.1, true);
  CHECK(across.events.empty());
  CHECK(across.ids[1] == std::vector<int>{0});
}

TEST_CASE("continuation: two chaotic attractors whose regions grow into one merge", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(1.0, {chaotic(0.0, 1.0), chaotic(1.2, 2.2)}),
      at(1.1, {chaotic(0.0, 1.05), chaotic(1.15, 2.2)}),
      at(1.2, {chaotic(0.0, 2.2)}),
  };
  // The merged region is 1.15 from the first box and 1.15 from the second (Hausdorff, max-norm):
  // a threshold of 1.2 lets both reach it, so one continues and the other merges into it.
  const GlobalAttractors g = continue_attractors(points, 1.2);
  CHECK(g.ids[1] == std::vector<int>{0, 1});
  const auto mergers = of_kind(g, AttractorEventKind::Merger);
  REQUIRE(mergers.size() == 1);
  CHECK(g.events.size() == 1);
  CHECK(mergers[0].point == 2);
  CHECK(mergers[0].from == 1.1);
  CHECK(mergers[0].to == 1.2);
  CHECK(mergers[0].partner == g.ids[2][0]);
  CHECK(mergers[0].id != g.ids[2][0]);
  CHECK(g.count == 2);  // the merged attractor carries one of the two ids
}

TEST_CASE("continuation: a chaotic attractor that splits in two gives the new part a new id", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(5.0, {chaotic(0.0, 2.0)}),
      at(5.5, {chaotic(0.0, 0.9), chaotic(1.0, 2.0)}),
  };
  const GlobalAttractors g = continue_attractors(points, 1.5);
  const auto splits = of_kind(g, AttractorEventKind::Split);
  REQUIRE(splits.size() == 1);
  CHECK(g.events.size() == 1);
  CHECK(splits[0].partner == 0);
  CHECK(splits[0].id == 1);
  CHECK(splits[0].from == 5.0);
  CHECK(splits[0].to == 5.5);
  // the nearer part continues the parent: (0, 0.9) is 1.1 away, (1.0, 2.0) 1.0
  CHECK(g.ids[1] == std::vector<int>{1, 0});
}

TEST_CASE("continuation: an attractor born or lost beside another is a birth or a death, not a split or merger",
          "[analysis][continuation]") {
  // Model A near grazing: a fixed point (the impact-free orbit, moving 0.003 per step) and a band
  // born 0.8 away from it, well within the match distance of 1; the orbit later vanishes outside
  // the band's region.
  const std::vector<PointAttractors> points{
      at(0.55, {orbit({{0.5, 0.5}})}),
      at(0.5525, {chaotic(1.0, 1.3), orbit({{0.503, 0.5}})}),
      at(0.555, {chaotic(1.0, 1.31), orbit({{0.506, 0.5}})}),
      at(0.5575, {chaotic(1.0, 1.32)}),
  };
  const GlobalAttractors g = continue_attractors(points, 1.0);
  CHECK(g.ids[1] == std::vector<int>{1, 0});
  CHECK(g.ids[3] == std::vector<int>{1});
  REQUIRE(g.events.size() == 2);
  CHECK(g.events[0].kind == AttractorEventKind::Birth);
  CHECK(g.events[0].id == 1);
  CHECK(g.events[0].to == 0.5525);
  CHECK(g.events[1].kind == AttractorEventKind::Death);
  CHECK(g.events[1].id == 0);
  CHECK(g.events[1].to == 0.5575);
  // An orbit that vanishes inside the band's region does not merge into it either: a fixed point is
  // no window of the band (its basin may just have shrunk below the grid's resolution).
  std::vector<PointAttractors> inside = points;
  inside[2].attractors[1] = orbit({{1.1, 1.1}});
  inside[1].attractors[1] = orbit({{1.1, 1.1}});
  const GlobalAttractors m = continue_attractors(inside, 1.0);
  CHECK(of_kind(m, AttractorEventKind::Merger).empty());
  CHECK(of_kind(m, AttractorEventKind::Death).size() == 1);
}

TEST_CASE("continuation: a chaotic band keeps its id through a periodic window", "[analysis][continuation]") {
  // (14,11)-like window whose points fill nearly the band's box; an orbit of another period next to
  // the band's end is not the band (its box lies beyond the match distance).
  PointAttractor window = orbit({{1.0, 1.0}, {1.29, 1.29}, {1.1, 1.2}}, "(3,2)");
  const std::vector<PointAttractors> points{
      at(1.0, {chaotic(1.0, 1.3)}),
      at(2.0, {window}),
      at(3.0, {chaotic(1.0, 1.3)}),
      at(4.0, {orbit({{3.0, 3.0}}, "(1,1)")}),
  };
  const GlobalAttractors g = continue_attractors(points, 1.0);
  CHECK(g.ids[1] == std::vector<int>{0});
  CHECK(g.ids[2] == std::vector<int>{0});
  CHECK(g.ids[3] == std::vector<int>{1});
  REQUIRE(g.events.size() == 2);
  CHECK(g.events[0].kind == AttractorEventKind::Birth);
  CHECK(g.events[1].kind == AttractorEventKind::Death);
}

TEST_CASE("continuation: distances between attractors", "[analysis][continuation]") {
  // Hausdorff distance of orbits: the farthest point of either from the other.
  CHECK(attractor_distance(orbit({{0, 0}, {1, 0}}), orbit({{0, 0.1}, {1.3, 0}}), kScales) == Approx(0.3));
  CHECK(std::isinf(attractor_distance(orbit({{0, 0}}, "A"), orbit({{0, 0}}, "B"), kScales)));
  CHECK(std::isinf(attractor_distance(orbit({{0, 0}}), orbit({{0, 0}, {0, 0.01}}), kScales)));  // another period
  // an orbit and an irregular attractor, by the boxes they fill, when the orbit spans its region (a
  // periodic window); a period-1 orbit amid a small cloud of unsettled points (a period doubling not
  // yet resolved) or an orbit across the middle of a band does not
  CHECK(attractor_distance(orbit({{0.1, 0.1}, {0.9, 0.9}}), chaotic(0, 1), kScales) == Approx(0.1));
  CHECK(std::isinf(attractor_distance(orbit({{0.5, 0.5}}), chaotic(0.49, 0.51), kScales)));
  CHECK(std::isinf(attractor_distance(orbit({{0.3, 0.3}, {0.7, 0.7}}), chaotic(0, 1), kScales)));
  CHECK(attractor_distance(chaotic(0, 1), chaotic(0.2, 1.1), kScales) == Approx(0.2));
  // across kinds: an orbit against a chaotic region by the box of its points
  CHECK(attractor_distance(orbit({{0.1, 0.1}, {0.9, 0.9}}), chaotic(0, 1), kScales, true) == Approx(0.1));
  CHECK(attractor_distance(orbit({{0, 0}}, "A"), orbit({{0, 0.2}}, "B"), kScales, true) == Approx(0.2));
  // scales divide each component
  CHECK(attractor_distance(orbit({{0, 0}}), orbit({{0, 0.1}}), {1.0, 0.01}) == Approx(10.0));
}

TEST_CASE("basin fractions: share, binomial standard error, basin stability", "[analysis][continuation]") {
  const BasinFraction f = basin_fraction(100, 400, 380);
  CHECK(f.fraction == Approx(0.25));
  CHECK(f.standard_error == Approx(std::sqrt(0.25 * 0.75 / 400)));
  CHECK(f.stability == Approx(100.0 / 380));
}

TEST_CASE("point summary: attractors by label, with their cases, orbits and regions", "[analysis][continuation]") {
  const auto window = [](double x, bool settled) {
    OrbitSummary s;
    s.valid = true;
    s.periodic = true;
    s.settled = settled;
    s.period = 1;
    s.class_code = "P";
    for (const double v : {x + 0.5, x + 0.2, x}) {
      StatePoint p{};
      p[0] = v;
      s.points.push_back(p);
    }
    return s;
  };
  const std::vector<OrbitSummary> orbits{window(1.0, false), window(1.1, true), OrbitSummary{}, window(5.0, true)};
  const PointAttractors p = summarize_point(7.0, orbits, {0, 0, -1, 1}, {1.0});
  CHECK(p.parameter == 7.0);
  CHECK(p.cases_run == 4);
  REQUIRE(p.attractors.size() == 2);
  CHECK(p.attractors[0].cases == 2);
  REQUIRE(p.attractors[0].orbit.size() == 1);
  CHECK(p.attractors[0].orbit[0][0] == 1.1);  // the settled case's orbit
  CHECK(p.attractors[0].region.lo[0] == 1.0);
  CHECK(p.attractors[0].region.hi[0] == Approx(1.6));
  CHECK(p.attractors[1].cases == 1);
}
