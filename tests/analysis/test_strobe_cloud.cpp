// Irregular attractors as weighted point sets: the same set whatever the order of its points, a few
// outlying points do not move it (they move its box), and two sets apart stay apart; global
// continuation follows a chaotic set by its points where its box jumps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "analysis/attractor_continuation.hpp"
#include "analysis/point_attractors.hpp"
#include "analysis/strobe_cloud.hpp"

using namespace vibro;

namespace {

const std::vector<double> kUnit{1.0, 1.0};

// n points of a chaotic-looking set filling [lo, lo + 1]^2 (a golden-ratio sequence), then `outliers`
// points at (far, far): a case that reached further than the rest.
std::vector<StatePoint> band(double lo, int n, int outliers = 0, double far = 5.0) {
  std::vector<StatePoint> out;
  for (int i = 0; i < n; ++i) {
    StatePoint p{};
    p[0] = lo + std::fmod(0.5 + 0.6180339887498949 * i, 1.0);
    p[1] = lo + std::fmod(0.25 + 0.7548776662466927 * i, 1.0);
    out.push_back(p);
  }
  for (int i = 0; i < outliers; ++i) {
    StatePoint p{};
    p[0] = p[1] = far;
    out.push_back(p);
  }
  return out;
}

// The point's irregular attractor from cases of 50 points each, as summarize_point gathers it.
PointAttractors point_with(double parameter, const std::vector<StatePoint>& points) {
  std::vector<OrbitSummary> cases;
  for (std::size_t first = 0; first < points.size(); first += 50) {
    OrbitSummary s;
    s.valid = true;
    s.class_code = "X";
    s.aperiodic_steady = true;
    s.points.assign(points.begin() + static_cast<long>(first),
                    points.begin() + static_cast<long>(std::min(points.size(), first + 50)));
    cases.push_back(s);
  }
  return summarize_point(parameter, cases, std::vector<int>(cases.size(), 0), kUnit);
}

}  // namespace

TEST_CASE("strobe cloud: the same cells and counts whatever the order of the points", "[analysis][continuation]") {
  std::vector<StatePoint> points = band(0.0, 500, 7);
  const StrobeCloud reference = cloud_of(points, kUnit);
  CHECK(reference.points() == 507);
  CHECK(reference.cell == 0.25);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(points.begin(), points.end(), rng);
    const StrobeCloud c = cloud_of(points, kUnit);
    REQUIRE(c.cells.size() == reference.cells.size());
    for (std::size_t k = 0; k < c.cells.size(); ++k) {
      CHECK(c.cells[k].centre == reference.cells[k].centre);
      CHECK(c.cells[k].points == reference.cells[k].points);
    }
    CHECK(partial_hausdorff(c, reference, kUnit, 0.9) == 0.0);
  }
  // more occupied cells than the cap: a coarser lattice
  std::vector<StatePoint> wide;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) {
      StatePoint p{};
      p[0] = 0.25 * i;
      p[1] = 0.25 * j;
      wide.push_back(p);
    }
  const StrobeCloud coarse = cloud_of(wide, kUnit);
  CHECK(coarse.cells.size() <= 2048);
  CHECK(coarse.cell == 1.0);
  CHECK(coarse.points() == 10000);
}

TEST_CASE("strobe cloud: an outlying case does not move the set, and a set elsewhere stays apart", "[analysis][continuation]") {
  const StrobeCloud set = cloud_of(band(0.0, 500), kUnit);
  // 10 of 510 points 4 scales beyond the set: its box's side moves by 4, its bulk not at all
  const StrobeCloud reached = cloud_of(band(0.0, 500, 10), kUnit);
  CHECK(partial_hausdorff(set, reached, kUnit, 0.9) == 0.0);
  CHECK(partial_hausdorff(set, reached, kUnit, 1.0) == Approx(4.25));  // q = 1: Hausdorff of the cells
  // the same set moved by 0.3: its cells move by one
  CHECK(partial_hausdorff(set, cloud_of(band(0.3, 500), kUnit), kUnit, 0.9) == Approx(0.25));
  // a set 3 scales away
  CHECK(partial_hausdorff(set, cloud_of(band(3.0, 500), kUnit), kUnit, 0.9) >= 2.0);
  CHECK(std::isinf(cloud_reach(StrobeCloud{}, set, kUnit, 0.9)));
}

TEST_CASE("continuation: a chaotic set keeps its id where one case reaches further", "[analysis][continuation]") {
  // Three points of one chaotic set; at the middle one a case (50 of 550 points) reaches 4 scales
  // beyond the rest, as the conveyor's band at c_r = 0.8 does between a_hat = 56 and 56.5.
  const std::vector<PointAttractors> points{point_with(1.0, band(0.0, 500)), point_with(1.5, band(0.0, 500, 50)),
                                            point_with(2.0, band(0.05, 500))};
  MatchSettings settings;
  settings.distance = 1.0;
  const GlobalAttractors g = continue_attractors(points, settings);
  CHECK(g.count == 1);
  CHECK(g.events.empty());
  // by their boxes alone (clouds dropped) the middle box is 4 scales from either: the middle point's
  // set is another id, and the first one vanishes there
  std::vector<PointAttractors> boxes = points;
  for (auto& p : boxes) p.attractors[0].cloud = StrobeCloud{};
  const GlobalAttractors b = continue_attractors(boxes, settings);
  CHECK(b.ids[1][0] != b.ids[0][0]);
  CHECK(b.count == 2);
  // a set 3 scales away at the next point is another attractor
  const std::vector<PointAttractors> apart{point_with(1.0, band(0.0, 500)), point_with(1.5, band(3.0, 500))};
  CHECK(continue_attractors(apart, settings).count == 2);
}
