// Global continuation of attractors on constructed per-point summaries: an orbit that moves a little
// keeps its id; one test per event kind (birth, death, merger, split, period doubling and halving,
// vanished and return), each placed in the interval where it happens; a period doubling continues the
// id only where the doubled orbit lies on the old one's points; irregular attractors are followed by
// the region they fill, through a periodic window (named, both ways, as period changes), and through
// a sudden widening or shrinking (extent changes); an attractor born or lost beside another, within
// the match distance but not within its region, is a birth or a death; matching by basin overlap.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/attractor_continuation.hpp"
#include "support/attractor_fixtures.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const std::vector<double>& kScales = kUnitScales;

PointAttractor orbit(std::vector<std::pair<double, double>> points, const std::string& cls = "P") {
  return orbit_through(points, cls, 1);
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
  return point_with(parameter, std::move(attractors), 10);
}

MatchSettings within(double distance) {
  MatchSettings m;
  m.distance = distance;
  return m;
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
  const GlobalAttractors g = continue_attractors(points, within(0.05));
  CHECK(g.count == 2);
  CHECK(g.ids[0] == std::vector<int>{0, 1});
  CHECK(g.ids[1] == std::vector<int>{1, 0});
  CHECK(g.ids[2] == std::vector<int>{0, 1});
  CHECK(g.events.empty());
  // The threshold is the user's: below the drift per step, A is a new attractor at every point.
  const GlobalAttractors strict = continue_attractors(points, within(0.005));
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
  const GlobalAttractors g = continue_attractors(points, within(0.1));
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
  const GlobalAttractors g = continue_attractors(points, within(0.1));
  REQUIRE(g.events.size() == 1);
  CHECK(g.events[0].kind == AttractorEventKind::Death);
  CHECK(g.events[0].id == 0);
  CHECK(g.events[0].from == 60.5);
  CHECK(g.events[0].to == 61.0);
  CHECK(g.ids[2] == std::vector<int>{1});
}

TEST_CASE("continuation: a period doubling continues the id, with its event, and a halving too", "[analysis][continuation]") {
  // The period-2 orbit is born on the period-1 orbit's point, of another class (the conveyor's H1
  // becomes P2): the id goes on, with the event period_doubling in the interval; back again, halving.
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.0, 0.0}}, "H1")}),
      at(2.0, {orbit({{0.0, 0.001}, {0.0, -0.001}}, "P2")}),
      at(3.0, {orbit({{0.0, 0.0}}, "H1")}),
  };
  const GlobalAttractors g = continue_attractors(points, within(0.1));
  CHECK(g.count == 1);
  CHECK(g.ids[1] == std::vector<int>{0});
  CHECK(g.ids[2] == std::vector<int>{0});
  REQUIRE(g.events.size() == 2);
  CHECK(g.events[0].kind == AttractorEventKind::PeriodDoubling);
  CHECK(g.events[0].id == 0);
  CHECK(g.events[0].from == 1.0);
  CHECK(g.events[0].to == 2.0);
  CHECK(g.events[1].kind == AttractorEventKind::PeriodHalving);
  CHECK(g.events[1].from == 2.0);
  CHECK(g.events[1].to == 3.0);
  CHECK(std::string(attractor_event_name(g.events[0].kind)) == "period_doubling");
  // Without matching doublings the period-1 orbit ends and the period-2 one begins.
  MatchSettings apart = within(0.1);
  apart.period_doublings = false;
  apart.vanished = false;
  const GlobalAttractors ended = continue_attractors(points, apart);
  CHECK(ended.count == 3);
  CHECK(of_kind(ended, AttractorEventKind::Death).size() == 2);
  CHECK(of_kind(ended, AttractorEventKind::Birth).size() == 2);
  // Matched across kinds, the period-2 orbit continues the period-1 id too, with the same event.
  MatchSettings across = apart;
  across.across_kinds = true;
  const GlobalAttractors any = continue_attractors(points, across);
  CHECK(any.count == 1);
  CHECK(of_kind(any, AttractorEventKind::PeriodDoubling).size() == 1);
}

TEST_CASE("continuation: at a flip seen with both orbits, the one that inherits the basin continues the id",
          "[analysis][continuation]") {
  // Past the flip 2 initial conditions still end near the period-1 orbit (slow transients), 120 on
  // the period-2 orbit born on it: by their basins the period-2 orbit continues, the remnant splits off.
  auto one = orbit({{0.0, 0.0}}, "H1"), remnant = orbit({{0.0, 0.0001}}, "H1"), two = orbit({{0.0, 0.01}, {0.0, -0.01}}, "P2");
  one.cases = 150;
  remnant.cases = 2;
  two.cases = 120;
  const std::vector<PointAttractors> points{at(1.0, {one}), at(2.0, {remnant, two})};
  const GlobalAttractors g = continue_attractors(points, within(0.1), {{}, {{2, 120}}});
  CHECK(g.ids[1] == std::vector<int>{1, 0});
  REQUIRE(g.events.size() == 2);
  CHECK(g.events[0].kind == AttractorEventKind::PeriodDoubling);
  CHECK(g.events[0].id == 0);
  CHECK(g.events[1].kind == AttractorEventKind::Split);
  CHECK(g.events[1].id == 1);
  CHECK(g.events[1].partner == 0);
  // without the basins, the nearer orbit of the same kind continues it and the period-2 orbit is born
  const GlobalAttractors d = continue_attractors(points, within(0.1));
  CHECK(d.ids[1] == std::vector<int>{0, 1});
  CHECK(of_kind(d, AttractorEventKind::Birth).size() == 1);
}

TEST_CASE("continuation: a period-2 orbit split beyond the match distance within one step continues the id "
          "when its midpoints lie on the old orbit and its basin holds the old orbit's initial conditions",
          "[analysis][continuation]") {
  // Past a flip the halves move apart as the square root of the distance to it: here 0.12 from their
  // midpoint (match distance 0.1), the midpoint 0.01 from where the period-1 orbit was.
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.0, 0.0}}, "H1")}),
      at(2.0, {orbit({{0.01, 0.12}, {0.01, -0.12}}, "P2")}),
  };
  const GlobalAttractors inherited = continue_attractors(points, within(0.1), {{}, {{90}}});
  CHECK(inherited.count == 1);
  REQUIRE(inherited.events.size() == 1);
  CHECK(inherited.events[0].kind == AttractorEventKind::PeriodDoubling);
  // Geometry alone is not enough: without the basins, or with basins that share nothing, a birth and a death.
  for (const GlobalAttractors& g : {continue_attractors(points, within(0.1)), continue_attractors(points, within(0.1), {{}, {{0}}})}) {
    CHECK(g.count == 2);
    CHECK(of_kind(g, AttractorEventKind::PeriodDoubling).empty());
    CHECK(of_kind(g, AttractorEventKind::Birth).size() == 1);
  }
  // Nor a shared basin alone: halves whose midpoint lies 0.15 off the old orbit are another orbit.
  const std::vector<PointAttractors> off{
      at(1.0, {orbit({{0.0, 0.0}}, "H1")}),
      at(2.0, {orbit({{0.15, 0.12}, {0.15, -0.12}}, "P2")}),
  };
  const GlobalAttractors o = continue_attractors(off, within(0.1), {{}, {{90}}});
  CHECK(of_kind(o, AttractorEventKind::PeriodDoubling).empty());
  // The two terms: midpoint 0.01, half the split 0.12; the doubling distance is the larger.
  const DoublingGeometry d = doubling_geometry(points[0].attractors[0], points[1].attractors[0], kScales);
  CHECK(d.midpoint == Approx(0.01));
  CHECK(d.split == Approx(0.12));
  CHECK(doubling_distance(points[0].attractors[0], points[1].attractors[0], kScales) == Approx(0.12));
}

TEST_CASE("continuation: an orbit that goes on keeps its id, and a period-2 orbit beside it or off its points is born",
          "[analysis][continuation]") {
  // Period-1 continues as period 1 (the same kind is matched first); the period-2 orbit is new even
  // though it lies within the match distance.
  const std::vector<PointAttractors> beside{
      at(1.0, {orbit({{0.0, 0.0}})}),
      at(2.0, {orbit({{0.0, 0.05}, {0.0, -0.05}}), orbit({{0.01, 0.0}})}),
  };
  const GlobalAttractors g = continue_attractors(beside, within(0.1));
  CHECK(g.ids[1] == std::vector<int>{1, 0});
  REQUIRE(g.events.size() == 1);
  CHECK(g.events[0].kind == AttractorEventKind::Birth);
  // A period-2 orbit with one point on the old point and the other 0.2 away (0.1 from their midpoint):
  // not born on the old orbit's point at a threshold of 0.05, so a birth (and the period-1 orbit's death).
  const std::vector<PointAttractors> off{
      at(1.0, {orbit({{0.0, 0.0}})}),
      at(2.0, {orbit({{0.0, 0.0}, {0.2, 0.0}})}),
  };
  const GlobalAttractors o = continue_attractors(off, within(0.05));
  CHECK(o.count == 2);
  CHECK(of_kind(o, AttractorEventKind::PeriodDoubling).empty());
}

TEST_CASE("continuation: the doubling distance follows the orbits' order in time", "[analysis][continuation]") {
  const PointAttractor two = orbit({{0, 0}, {1, 0}});
  // a period-4 orbit whose points i and i + 2 straddle point i of the period-2 one
  // (the midpoint of the pair about (0, 0) lies 0.005 from it, either point 0.015 from the midpoint)
  CHECK(doubling_distance(two, orbit({{1, 0.01}, {0, 0.01}, {1, -0.01}, {0, -0.02}}), kScales) == Approx(0.015));
  CHECK(doubling_distance(orbit({{1, 0.01}, {0, 0.01}, {1, -0.01}, {0, -0.02}}), two, kScales) == Approx(0.015));
  // the midpoint counts, not the distance of each point: a pair 0.6 apart about a point that moved 0.1
  CHECK(doubling_distance(orbit({{0, 0}}), orbit({{0.4, 0}, {-0.2, 0}}), kScales) == Approx(0.3));
  // the same four points in another order: not the doubled orbit
  CHECK(doubling_distance(two, orbit({{0, 0.01}, {0, -0.01}, {1, 0.01}, {1, -0.01}}), kScales) >= 0.5);
  CHECK(std::isinf(doubling_distance(two, orbit({{0, 0}, {1, 0}, {0, 0}}), kScales)));  // period 3
  CHECK(std::isinf(doubling_distance(two, chaotic(0, 1), kScales)));
}

TEST_CASE("continuation: an attractor missing at some points keeps its id when it returns", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.0, 0.0}}), orbit({{2.0, 2.0}})}),
      at(1.5, {orbit({{0.0, 0.0}})}),
      at(2.0, {orbit({{0.0, 0.0}})}),
      at(2.5, {orbit({{2.05, 2.0}}), orbit({{0.0, 0.0}})}),
  };
  const GlobalAttractors g = continue_attractors(points, within(0.1));
  CHECK(g.count == 2);
  CHECK(g.ids[3] == std::vector<int>{1, 0});
  REQUIRE(g.events.size() == 2);
  CHECK(g.events[0].kind == AttractorEventKind::Vanished);
  CHECK(g.events[0].id == 1);
  CHECK(g.events[0].from == 1.0);
  CHECK(g.events[0].to == 1.5);
  CHECK(g.events[1].kind == AttractorEventKind::Return);
  CHECK(g.events[1].id == 1);
  CHECK(g.events[1].from == 2.0);
  CHECK(g.events[1].to == 2.5);
  // compared as last seen: beyond the match distance from there, it is another attractor
  std::vector<PointAttractors> far = points;
  far[3].attractors[0] = orbit({{2.2, 2.0}});
  const GlobalAttractors f = continue_attractors(far, within(0.1));
  CHECK(f.count == 3);
  CHECK(of_kind(f, AttractorEventKind::Death).size() == 1);
  // an orbit of twice the period on its point is no return (it went missing and changed meanwhile)
  std::vector<PointAttractors> doubled = points;
  doubled[3].attractors[0] = orbit({{2.0, 2.01}, {2.0, 1.99}});
  CHECK(continue_attractors(doubled, within(0.1)).count == 3);
  // switched off: a new id, a death and a birth
  MatchSettings off = within(0.1);
  off.vanished = false;
  const GlobalAttractors n = continue_attractors(points, off);
  CHECK(n.count == 3);
  CHECK(n.ids[3] == std::vector<int>{2, 0});
  CHECK(of_kind(n, AttractorEventKind::Death).size() == 1);
  CHECK(of_kind(n, AttractorEventKind::Birth).size() == 1);
}

TEST_CASE("continuation: matched by basin overlap, attractors that share their initial conditions are one",
          "[analysis][continuation]") {
  // Both attractors move far (beyond any match distance) but keep their basins; a third at the later
  // point has no cases (a seed found it) and is matched by distance to nothing: a birth.
  auto a = orbit({{0.0, 0.0}}), b = orbit({{1.0, 1.0}});
  a.cases = 8;
  b.cases = 10;
  auto a2 = orbit({{5.0, 5.0}}), b2 = orbit({{6.0, 6.0}}), seeded = orbit({{9.0, 9.0}});
  a2.cases = 9;
  b2.cases = 9;
  seeded.cases = 0;
  const std::vector<PointAttractors> points{at(1.0, {a, b}), at(2.0, {b2, a2, seeded})};
  MatchSettings overlap = within(0.1);
  overlap.method = MatchMethod::BasinOverlap;
  // earlier a: 7 of its 8 cases reach a2, 1 reaches b2; b: 1 to a2, 8 to b2 (rows: a, b; columns: b2, a2, seeded)
  const std::vector<BasinOverlap> shared{{}, {{1, 7, 0}, {8, 1, 0}}};
  const GlobalAttractors g = continue_attractors(points, overlap, shared);
  CHECK(g.ids[1] == std::vector<int>{1, 0, 2});
  REQUIRE(g.events.size() == 1);
  CHECK(g.events[0].kind == AttractorEventKind::Birth);
  CHECK(g.events[0].id == 2);
  // by distance, every one of them is a new attractor
  const GlobalAttractors d = continue_attractors(points, within(0.1));
  CHECK(d.count == 5);
  CHECK(std::string(match_method_name(MatchMethod::BasinOverlap)) == "basin_overlap");
}

TEST_CASE("continuation: two chaotic attractors whose regions grow into one merge", "[analysis][continuation]") {
  const std::vector<PointAttractors> points{
      at(1.0, {chaotic(0.0, 1.0), chaotic(1.2, 2.2)}),
      at(1.1, {chaotic(0.0, 1.05), chaotic(1.15, 2.2)}),
      at(1.2, {chaotic(0.0, 2.2)}),
  };
  // The merged region is 1.15 from the first box and 1.15 from the second (Hausdorff, max-norm):
  // a threshold of 1.2 lets both reach it, so one continues and the other merges into it.
  const GlobalAttractors g = continue_attractors(points, within(1.2));
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
  const GlobalAttractors g = continue_attractors(points, within(1.5));
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
  const GlobalAttractors g = continue_attractors(points, within(1.0));
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
  const GlobalAttractors m = continue_attractors(inside, within(1.0));
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
  const GlobalAttractors g = continue_attractors(points, within(1.0));
  CHECK(g.ids[1] == std::vector<int>{0});
  CHECK(g.ids[2] == std::vector<int>{0});
  CHECK(g.ids[3] == std::vector<int>{1});
  // the window taking the band's id and the chaos returning after it are named, as period changes
  // (before, the id went on through both without an event)
  REQUIRE(g.events.size() == 4);
  CHECK(g.events[0].kind == AttractorEventKind::PeriodChange);
  CHECK(g.events[0].id == 0);
  CHECK(g.events[0].to == 2.0);
  CHECK(g.events[1].kind == AttractorEventKind::PeriodChange);
  CHECK(g.events[1].id == 0);
  CHECK(g.events[1].to == 3.0);
  CHECK(g.events[2].kind == AttractorEventKind::Birth);
  CHECK(g.events[3].kind == AttractorEventKind::Death);
}

TEST_CASE("continuation: a chaotic set that shrinks onto a part of itself, or widens again, keeps its id where "
          "their basins share initial conditions", "[analysis][continuation]") {
  // The conveyor's band at c_r = 0.8 between a_hat = 52.5 and 53: a fifth of its points make
  // excursions far from the bulk at one amplitude and none at the next, so nine tenths of the wider
  // set lie 5 scales from the narrower one (beyond the two-sided match of stage 2) while the narrower
  // one lies wholly within the wider.
  const auto set_of = [](double lo, double hi, double far_share) {
    std::vector<StatePoint> points;
    for (int i = 0; i < 200; ++i) {
      StatePoint p{};
      const bool far = i < far_share * 200;
      p[0] = far ? 5.0 + std::fmod(0.618 * i, 1.0) : lo + (hi - lo) * std::fmod(0.5 + 0.618 * i, 1.0);
      p[1] = lo + (hi - lo) * std::fmod(0.25 + 0.755 * i, 1.0);
      points.push_back(p);
    }
    return irregular_over(points, 10);
  };
  const std::vector<PointAttractors> points{
      at(52.5, {set_of(0.0, 1.0, 0.2)}),
      at(53.0, {set_of(0.0, 1.0, 0.0)}),
      at(53.5, {set_of(0.0, 1.0, 0.2)}),
  };
  REQUIRE(attractor_distance(points[0].attractors[0], points[1].attractors[0], kScales) > 3.0);
  const std::vector<BasinOverlap> shared{{}, {{4}}, {{5}}};
  const GlobalAttractors g = continue_attractors(points, within(1.0), shared);
  CHECK(g.count == 1);
  const auto changes = of_kind(g, AttractorEventKind::ExtentChange);
  REQUIRE(changes.size() == 2);
  CHECK(g.events.size() == 2);
  CHECK(changes[0].from == 52.5);
  CHECK(changes[0].to == 53.0);
  CHECK(changes[1].to == 53.5);
  CHECK(std::string(attractor_event_name(AttractorEventKind::ExtentChange)) == "extent_change");
  // without shared initial conditions, without overlaps, or switched off: the narrow set is an id of its
  // own, born at 53 and dead at 53.5, where the wide one returns
  const auto split_in_two = [&](const GlobalAttractors& h) {
    return h.count == 2 && h.ids[1][0] != h.ids[0][0] && h.ids[2][0] == h.ids[0][0] &&
           of_kind(h, AttractorEventKind::ExtentChange).empty();
  };
  CHECK(split_in_two(continue_attractors(points, within(1.0), {{}, {{0}}, {{0}}})));
  CHECK(split_in_two(continue_attractors(points, within(1.0))));
  MatchSettings off = within(1.0);
  off.extent_changes = false;
  CHECK(split_in_two(continue_attractors(points, off, shared)));
  // a small set beside the wide one, not within it, is another attractor, shared initial conditions or not
  const std::vector<PointAttractors> beside{at(52.5, {set_of(0.0, 1.0, 0.2)}), at(53.0, {set_of(2.5, 3.0, 0.0)})};
  CHECK(continue_attractors(beside, within(1.0), {{}, {{4}}}).count == 2);
}

TEST_CASE("continuation: an irregular set that holds a periodic window of its own point is marked", "[analysis][continuation]") {
  // The conveyor at c_r = 0.6, a_hat = 72.5: 80 irregular cases beside the M11 window whose points span
  // their region (run on to 1000 periods, all 80 reach M11); a fixed point inside a band, or an orbit
  // across its middle only, is no window of it.
  const PointAttractors windowed = at(72.5, {orbit({{0.05, 0.05}, {0.95, 0.9}, {0.5, 0.3}}), chaotic(0.0, 1.0)});
  CHECK(holds_window(windowed, 1));
  CHECK_FALSE(holds_window(windowed, 0));  // the orbit itself
  CHECK_FALSE(holds_window(at(1.0, {orbit({{0.5, 0.5}}), chaotic(0.0, 1.0)}), 1));
  CHECK_FALSE(holds_window(at(1.0, {orbit({{0.3, 0.3}, {0.7, 0.7}}), chaotic(0.0, 1.0)}), 1));
  CHECK_FALSE(holds_window(at(1.0, {chaotic(0.0, 1.0)}), 0));
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

TEST_CASE("continuation: an attractor whose period changes by other than 2 keeps its id where it lies on the old one "
          "and shares its basin", "[analysis][continuation]") {
  // A period-3 orbit, then a period-5 orbit on nearly the same points (a periodic window of another
  // period, as the conveyor's microthrow orbits M9 then M5 at c_r = 0.6), then a chaotic set holding it.
  PointAttractor set = chaotic(0.0, 1.0);
  std::vector<StatePoint> inside;
  for (int i = 0; i < 40; ++i) {
    StatePoint p{};
    p[0] = std::fmod(0.5 + 0.618 * i, 1.0);
    p[1] = std::fmod(0.25 + 0.755 * i, 1.0);
    inside.push_back(p);
  }
  set.cloud = cloud_of(inside, kScales);
  const std::vector<PointAttractors> points{
      at(1.0, {orbit({{0.1, 0.1}, {0.5, 0.2}, {0.2, 0.6}})}),
      at(1.5, {orbit({{0.1, 0.15}, {0.5, 0.25}, {0.2, 0.6}, {0.3, 0.3}, {0.45, 0.2}})}),
      at(2.0, {set}),
  };
  const std::vector<BasinOverlap> shared{{}, {{8}}, {{6}}};
  const GlobalAttractors g = continue_attractors(points, within(1.0), shared);
  CHECK(g.count == 1);
  const auto changes = of_kind(g, AttractorEventKind::PeriodChange);
  REQUIRE(changes.size() == 2);
  CHECK(g.events.size() == 2);
  CHECK(changes[0].from == 1.0);
  CHECK(changes[0].to == 1.5);
  CHECK(changes[1].to == 2.0);
  CHECK(std::string(attractor_event_name(AttractorEventKind::PeriodChange)) == "period_change");
  // without a shared initial condition, or without overlaps at all: a death and a birth
  CHECK(continue_attractors(points, within(1.0), {{}, {{0}}, {{0}}}).count == 3);
  CHECK(continue_attractors(points, within(1.0)).count == 3);
  // switched off
  MatchSettings off = within(1.0);
  off.period_changes = false;
  CHECK(continue_attractors(points, off, shared).count == 3);
  // an orbit of another period 3 scales away is another attractor, shared initial conditions or not
  const std::vector<PointAttractors> apart{at(1.0, {orbit({{0.1, 0.1}, {0.5, 0.2}, {0.2, 0.6}})}),
                                           at(1.5, {orbit({{3.1, 3.1}, {3.5, 3.2}, {3.2, 3.6}, {3.3, 3.3}, {3.4, 3.2}})})};
  CHECK(continue_attractors(apart, within(1.0), {{}, {{8}}}).count == 2);
  // of two candidates on the old orbit, the one that shares more of its basin continues it
  std::vector<PointAttractors> two{
      at(1.0, {orbit({{0.1, 0.1}, {0.5, 0.2}, {0.2, 0.6}})}),
      at(1.5, {orbit({{0.1, 0.1}, {0.5, 0.2}, {0.2, 0.6}, {0.1, 0.1}, {0.5, 0.2}}),
               orbit({{0.1, 0.2}, {0.5, 0.3}, {0.2, 0.7}, {0.3, 0.3}, {0.4, 0.3}, {0.2, 0.2}, {0.2, 0.3}})})};
  two[0].attractors[0].cases = 10;  // 1 of its 10 initial conditions reach the nearer orbit, 9 the other
  two[1].attractors[0].cases = 1;
  two[1].attractors[1].cases = 9;
  const GlobalAttractors w = continue_attractors(two, within(1.0), {{}, {{1, 9}}});
  CHECK(w.ids[1][1] == w.ids[0][0]);
  CHECK(w.ids[1][0] != w.ids[0][0]);
}
