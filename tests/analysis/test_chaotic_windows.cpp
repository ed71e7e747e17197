// Periodic windows of a chaotic set over the whole line (analysis/chaotic_windows): an orbit found only
// where an irregular set vanished, gone where the same set returns, lying on it and sharing initial
// conditions with it at both ends, takes the set's id with period changes at its entry and exit; an
// orbit born where a set ends for good (it does not return), one that sticks out of the set, one
// without shared initial conditions, or one beside a set that is still there is a birth and a death.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "analysis/attractor_continuation.hpp"
#include "support/attractor_fixtures.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const std::vector<double>& kScales = kUnitScales;

// An irregular set filling [0, 4] x [0, 4], its points spread over it.
PointAttractor band() {
  std::vector<StatePoint> points;
  for (int i = 0; i < 400; ++i) {
    StatePoint p{};
    p[0] = 4.0 * std::fmod(0.5 + 0.618034 * i, 1.0);
    p[1] = 4.0 * std::fmod(0.25 + 0.754878 * i, 1.0);
    points.push_back(p);
  }
  return irregular_over(points, 300);
}

// A period-3 orbit in a corner of the band (neither spanning it nor gathering its bulk: the
// interval's own stages leave it unmatched), shifted by `shift` in both components.
PointAttractor corner_orbit(double shift = 0.0) {
  return orbit_through({{0.5, 0.5}, {1.0, 1.2}, {0.8, 0.3}}, "P", 400, shift);
}

PointAttractors at(double parameter, std::vector<PointAttractor> attractors) {
  return point_with(parameter, std::move(attractors), 400);
}

std::size_t count_of(const GlobalAttractors& g, AttractorEventKind kind) {
  return static_cast<std::size_t>(std::count_if(g.events.begin(), g.events.end(), [&](const auto& e) { return e.kind == kind; }));
}

// band at 1.0, 1.5; the window at the points given; band again after them (if `returns`)
std::vector<PointAttractors> line(std::vector<PointAttractor> window, bool returns = true) {
  std::vector<PointAttractors> out{at(1.0, {band()}), at(1.5, {band()})};
  double p = 2.0;
  for (auto& w : window) out.push_back(at((p += 0.5) - 0.5, {w}));
  if (returns) out.push_back(at(p, {band()}));
  return out;
}

// every initial condition of one attractor reaches the one attractor of the next point
std::vector<BasinOverlap> all_shared(std::size_t points) {
  std::vector<BasinOverlap> out(points);
  for (std::size_t p = 1; p < points; ++p) out[p] = {{300}};
  return out;
}

}  // namespace

TEST_CASE("windows: an orbit where a chaotic set vanished and returned, on the set at both ends, takes its id",
          "[analysis][continuation][windows]") {
  const auto points = line({corner_orbit()});
  const auto shared = all_shared(points.size());
  MatchSettings off;
  off.windows = false;
  const GlobalAttractors interval_only = continue_attractors(points, off, shared);
  REQUIRE(interval_only.count == 2);  // the interval's stages alone: a birth and a death beside the set's vanished / return
  REQUIRE(count_of(interval_only, AttractorEventKind::Vanished) == 1);
  REQUIRE(count_of(interval_only, AttractorEventKind::Return) == 1);

  const GlobalAttractors g = continue_attractors(points, MatchSettings{}, shared);
  CHECK(g.count == 1);
  for (const auto& ids : g.ids) CHECK(ids == std::vector<int>{0});
  REQUIRE(g.events.size() == 2);
  for (const auto& e : g.events) {
    CHECK(e.kind == AttractorEventKind::PeriodChange);
    CHECK(e.id == 0);
  }
  CHECK(g.events[0].from == 1.5);
  CHECK(g.events[0].to == 2.0);
  CHECK(g.events[1].from == 2.0);
  CHECK(g.events[1].to == 2.5);
}

TEST_CASE("windows: a window over two points, continued as an orbit between them, takes the set's id",
          "[analysis][continuation][windows]") {
  const auto points = line({corner_orbit(), corner_orbit(0.05)});
  const GlobalAttractors g = continue_attractors(points, MatchSettings{}, all_shared(points.size()));
  CHECK(g.count == 1);
  CHECK(count_of(g, AttractorEventKind::PeriodChange) == 2);
  CHECK(g.events.size() == 2);
}

TEST_CASE("windows: an orbit born where a chaotic set ends for good is a new id (grazing, crisis)",
          "[analysis][continuation][windows]") {
  // Model A's (1,1) orbit born at grazing where the impacting band ends: the band does not return
  const auto points = line({corner_orbit(), corner_orbit()}, false);
  const GlobalAttractors g = continue_attractors(points, MatchSettings{}, all_shared(points.size()));
  CHECK(g.count == 2);
  CHECK(count_of(g, AttractorEventKind::Birth) == 1);
  CHECK(count_of(g, AttractorEventKind::Death) == 1);
  CHECK(count_of(g, AttractorEventKind::PeriodChange) == 0);
}

TEST_CASE("windows: an orbit off the set, without shared initial conditions, or beside the set stays its own id",
          "[analysis][continuation][windows]") {
  SECTION("a point of the orbit 2 scales off the set") {
    PointAttractor off_set = corner_orbit();
    off_set.orbit[2][0] = 6.0;
    off_set.region = box_of(off_set.orbit, 2);
    const auto points = line({off_set});
    CHECK(continue_attractors(points, MatchSettings{}, all_shared(points.size())).count == 2);
  }
  SECTION("no initial condition reaches both the window and the returning set") {
    const auto points = line({corner_orbit()});
    auto shared = all_shared(points.size());
    shared.back() = {{0}};
    CHECK(continue_attractors(points, MatchSettings{}, shared).count == 2);
    CHECK(continue_attractors(points, MatchSettings{}).count == 2);  // no grid of initial conditions at all
  }
  SECTION("the set is still found beside the orbit") {
    std::vector<PointAttractors> points{at(1.0, {band()}), at(1.5, {band(), corner_orbit()}), at(2.0, {band()})};
    const std::vector<BasinOverlap> shared{{}, {{250, 50}}, {{250}, {50}}};
    const GlobalAttractors g = continue_attractors(points, MatchSettings{}, shared);
    CHECK(g.count == 2);
    CHECK(count_of(g, AttractorEventKind::Birth) == 1);
  }
  SECTION("without returns (analysis.match_vanished = false) there is no line to see the set return") {
    const auto points = line({corner_orbit()});
    MatchSettings no_returns;
    no_returns.vanished = false;
    CHECK(continue_attractors(points, no_returns, all_shared(points.size())).count == 3);
  }
}
