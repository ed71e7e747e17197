// Attractor labels within parameter points: a periodic orbit seen at another phase is the same
// attractor, a different orbit is not, irregular cases share a label when their boxes overlap (with
// any box of the set, not only its first), unsettled cases have none, and the order of the cases
// does not matter.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>

#include "analysis/attractor_labels.hpp"
#include "analysis/collapsing_gap.hpp"
#include "analysis/orbit_limit.hpp"
#include "analysis/point_attractors.hpp"

using namespace vibro;

namespace {
OrbitSummary periodic(std::vector<std::pair<double, double>> points, const std::string& cls = "P2") {
  OrbitSummary s;
  s.valid = true;
  s.periodic = true;
  s.settled = true;
  s.period = static_cast<int>(points.size());
  s.class_code = cls;
  for (int repeat = 0; repeat < 3; ++repeat)
    for (const auto& [a, b] : points) {
      std::array<double, kMaxStrobeDims> p{};
      p[0] = a;
      p[1] = b;
      s.points.push_back(p);
    }
  return s;
}
// A steady irregular window: both halves fill [lo, hi] alike (the box of its points), and no period
// fits (the golden-ratio rotation never repeats).
OrbitSummary irregular(double lo, double hi) {
  OrbitSummary s;
  s.valid = true;
  s.class_code = "X";
  for (int i = 0; i < 24; ++i) {
    const double u = i == 0 ? 0.0 : i == 1 ? 1.0 : std::fmod(0.5 + 0.6180339887498949 * i, 1.0);
    std::array<double, kMaxStrobeDims> p{};
    p[0] = lo + (hi - lo) * u;
    p[1] = p[0];
    s.points.push_back(p);
  }
  return s;
}
// A window that drifts from lo to hi: a transient, no steady state.
OrbitSummary drifting(double lo, double hi) {
  OrbitSummary s;
  s.valid = true;
  s.class_code = "X";
  for (int k = 0; k <= 20; ++k) {
    std::array<double, kMaxStrobeDims> p{};
    p[0] = lo + (hi - lo) * k / 20.0;
    s.points.push_back(p);
  }
  return s;
}
}  // namespace

TEST_CASE("attractor labels: phase-shifted orbits match, different ones do not, groups are separate", "[analysis]") {
  std::vector<OrbitSummary> cases{
      periodic({{0.1, 0.2}, {0.3, 0.4}}),             // 0: orbit A
      periodic({{0.3, 0.4}, {0.1, 0.2 + 1e-5}}),      // 1: orbit A at the other phase, within tolerance
      periodic({{0.1, 0.2}, {0.35, 0.4}}),            // 2: another period-2 orbit
      irregular(1.0, 2.0),                            // 3: chaotic
      irregular(1.5, 3.0),                            // 4: overlaps 3
      irregular(5.0, 6.0),                            // 5: elsewhere
      OrbitSummary{},                                 // 6: failed
      periodic({{0.1, 0.2}, {0.3, 0.4}}),             // 7: orbit A, but another parameter point
  };
  const std::vector<long long> group{0, 0, 0, 0, 0, 0, 0, 1};
  const std::vector<std::vector<double>> scales{{1.0, 1.0}, {1.0, 1.0}};
  const AttractorLabels labels = label_attractors(cases, group, scales);
  CHECK(labels.label[0] == labels.label[1]);
  CHECK(labels.label[2] != labels.label[0]);
  CHECK(labels.label[3] == labels.label[4]);
  CHECK(labels.label[5] != labels.label[3]);
  CHECK(labels.label[6] == -1);
  CHECK(labels.label[7] == 0);  // labels count from 0 within each parameter point
  CHECK(labels.count[0] == 4);
  CHECK(labels.count[1] == 1);
  // Scales matter: the same difference is a different attractor at a finer scale.
  const AttractorLabels fine = label_attractors(cases, group, {{1e-3, 1e-3}, {1.0, 1.0}});
  CHECK(fine.label[1] != fine.label[0]);
}

TEST_CASE("attractor labels: an unsettled case belongs to no attractor and is counted apart", "[analysis]") {
  const std::vector<OrbitSummary> cases{irregular(1.0, 2.0), drifting(1.0, 2.0), drifting(5.0, 6.0), OrbitSummary{}};
  const AttractorLabels labels = label_attractors(cases, {0, 0, 0, 0}, {{1.0, 1.0}});
  CHECK(labels.label[0] == 0);
  CHECK(labels.label[1] == -1);  // its box overlaps the attractor's, but it never settled
  CHECK(labels.label[2] == -1);
  CHECK(labels.label[3] == -1);  // failed: not counted as unsettled
  CHECK(labels.count[0] == 1);
  CHECK(labels.unsettled[0] == 2);
  CHECK(irregular_window_steady(irregular(1.0, 2.0).points, {1.0, 1.0}));
  CHECK_FALSE(irregular_window_steady(drifting(1.0, 2.0).points, {1.0, 1.0}));
  // Alternating about a point with a slowly changing amplitude: near a period-2 orbit, not steady.
  OrbitSummary near_orbit = irregular(1.0, 2.0);
  for (std::size_t i = 0; i < near_orbit.points.size(); ++i)
    near_orbit.points[i][0] = near_orbit.points[i][1] = 1.5 + (i % 2 ? 0.3 : -0.3) * (1 + 1e-3 * static_cast<double>(i));
  CHECK_FALSE(irregular_window_steady(near_orbit.points, {1.0, 1.0}));
}

TEST_CASE("attractor labels: an irregular set is every box it gathered, and sets that overlap are one", "[analysis]") {
  // A and B are disjoint; C overlaps both. The first-visited case alone would keep A and B apart
  // when B comes before C; as sets, all three are one attractor whatever the order.
  const std::vector<OrbitSummary> cases{irregular(1.0, 2.0), irregular(3.0, 4.0), irregular(1.5, 3.5), irregular(8.0, 9.0)};
  const AttractorLabels labels = label_attractors(cases, {0, 0, 0, 0}, {{1.0, 1.0}});
  CHECK(labels.label[0] == labels.label[1]);
  CHECK(labels.label[0] == labels.label[2]);
  CHECK(labels.label[3] != labels.label[0]);
  CHECK(labels.count[0] == 2);
}

TEST_CASE("attractor labels do not depend on the order of the cases", "[analysis]") {
  std::vector<OrbitSummary> cases{
      periodic({{0.1, 0.2}, {0.3, 0.4}}),        periodic({{0.3, 0.4}, {0.1, 0.2 + 1e-5}}),
      periodic({{0.1, 0.2}, {0.35, 0.4}}),       periodic({{0.7, 0.7}}, "P1"),
      irregular(1.0, 2.0),                       irregular(3.0, 4.0),
      irregular(1.5, 3.5),                       irregular(8.0, 9.0),
      irregular(8.5, 8.7),                       drifting(1.0, 2.0),
      OrbitSummary{},                            periodic({{0.7, 0.7 + 2e-4}}, "P1"),
  };
  // slowly converging: matches the settled P1 at 100 tol only
  cases.push_back(periodic({{0.7, 0.75}}, "P1"));
  cases.back().settled = false;
  // the P1 orbit read as period 2: joins it
  cases.push_back(periodic({{0.7, 0.7 + 5e-4}, {0.7, 0.7}}, "P2"));
  // a slowly converging window the model could not class, on the P1 orbit: joins it
  cases.push_back(periodic({{0.7, 0.7 + 0.02}}, "X"));
  cases.back().settled = false;
  // one on both P2 orbits (0.05 apart, within the slowly converging tolerance): joins neither
  cases.push_back(periodic({{0.1, 0.2}, {0.32, 0.4}}, "X"));
  cases.back().settled = false;
  const std::vector<double> unit{1.0, 1.0};
  const AttractorLabels reference = label_attractors(cases, std::vector<long long>(cases.size(), 0), {unit});
  CHECK(reference.count[0] == 6);
  CHECK(reference.unsettled[0] == 1);
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<OrbitSummary> permuted;
    for (const auto i : order) permuted.push_back(cases[i]);
    const AttractorLabels labels = label_attractors(permuted, std::vector<long long>(cases.size(), 0), {unit});
    CHECK(labels.count == reference.count);
    CHECK(labels.unsettled == reference.unsettled);
    for (std::size_t k = 0; k < order.size(); ++k) CHECK(labels.label[k] == reference.label[order[k]]);
  }
}

TEST_CASE("attractor labels: an orbit read at a multiple of its period is that orbit, whatever the model called it",
          "[analysis]") {
  // Near a flip the period test (1e-4) can still tell apart the two halves of a transient alternating
  // about the period-1 orbit, 5e-4 apart: the model calls it P2, yet at the labels' tolerance (1e-3)
  // its points repeat every period. Likewise a slowly converging P6 window on an H2 orbit's points.
  OrbitSummary slow_h2 = periodic({{1.0, 1.0}, {2.0, 2.0}}, "H2");
  OrbitSummary slow_p6 = periodic({{1.0, 1.0}, {2.0, 2.0}, {1.005, 1.0}, {2.0, 2.004}, {1.0, 1.003}, {2.002, 2.0}}, "P6");
  slow_h2.settled = slow_p6.settled = false;
  const std::vector<OrbitSummary> cases{
      periodic({{0.5, 0.5 + 5e-4}, {0.5, 0.5}}, "P2"),  // 0: H1 read as period 2
      periodic({{0.5, 0.5}}, "H1"),                     // 1: H1
      periodic({{0.5, 0.5}, {0.52, 0.5}}, "P2"),        // 2: a genuine period-2 orbit beside it
      slow_p6,                                          // 3: H2 read as period 6
      slow_h2,                                          // 4: H2
      periodic({{0.5, 0.5}}, "S"),                      // 5: H1's point, another class: another attractor
  };
  const std::vector<double> unit{1.0, 1.0};
  const AttractorLabels labels = label_attractors(cases, std::vector<long long>(cases.size(), 0), {unit});
  CHECK(labels.count[0] == 4);
  CHECK(labels.label[0] == labels.label[1]);
  CHECK(labels.label[2] != labels.label[1]);
  CHECK(labels.label[3] == labels.label[4]);
  CHECK(labels.label[5] != labels.label[1]);
  // The attractor is the orbit of the shortest period, described by its members of that period.
  const PointAttractors point = summarize_point(0.0, cases, labels.label, unit);
  const PointAttractor& h1 = point.attractors[static_cast<std::size_t>(labels.label[1])];
  CHECK(h1.class_code == "H1");
  CHECK(h1.period == 1);
  CHECK(h1.orbit.size() == 1);
  CHECK(h1.cases == 2);
  const PointAttractor& h2 = point.attractors[static_cast<std::size_t>(labels.label[4])];
  CHECK(h2.class_code == "H2");
  CHECK(h2.period == 2);
  CHECK(h2.cases == 2);
  // A genuine period-4 orbit whose points lie 0.03 from their partners two apart (the conveyor's P4 at
  // a_hat = 62, c_r = 0.6): a slowly converging window on it stays period 4 and joins the settled one,
  // within the slowly converging tolerance, rather than folding into a period-2 orbit of its own.
  OrbitSummary slow_p4 = periodic({{0.6202, 1.4517}, {0.3989, 1.0372}, {0.6115, 1.4184}, {0.4339, 1.1069}}, "P4");
  slow_p4.settled = false;
  const std::vector<OrbitSummary> p4{periodic({{0.4342, 1.1074}, {0.6202, 1.4519}, {0.3987, 1.0368}, {0.6114, 1.4181}}, "P4"),
                                     slow_p4};
  const AttractorLabels p4_labels = label_attractors(p4, {0, 0}, {unit});
  CHECK(p4_labels.count[0] == 1);
  CHECK(summarize_point(0.0, p4, p4_labels.label, unit).attractors[0].period == 4);
  // A slowly converging window that alternates about that P4 orbit every 4 samples, the gap between
  // samples 4 apart shrinking by 0.9 each time (near the P4 orbit's flip; the conveyor at a_hat = 70,
  // c_r = 0.6, where such P8~ windows all end on the P4 orbit after 2000 periods): read as period 8,
  // it is the P4 orbit.
  const std::vector<std::pair<double, double>> p4_points{{0.4342, 1.1074}, {0.6202, 1.4519}, {0.3987, 1.0368}, {0.6114, 1.4181}};
  OrbitSummary closing = periodic(p4_points, "P8");
  closing.points.clear();
  for (int j = 0; j < 51; ++j) {
    const double side = (j / 4) % 2 == 0 ? 1.0 : -1.0;
    std::array<double, kMaxStrobeDims> x{};
    x[0] = p4_points[static_cast<std::size_t>(j % 4)].first + side * 0.04 * std::pow(0.9, j / 4);
    x[1] = p4_points[static_cast<std::size_t>(j % 4)].second;
    closing.points.push_back(x);
  }
  closing.period = 8;
  closing.settled = false;
  const std::vector<OrbitSummary> near_flip{p4[0], closing};
  const AttractorLabels flip_labels = label_attractors(near_flip, {0, 0}, {unit});
  CHECK(flip_labels.count[0] == 1);
  // The same window with a gap that stays (a genuine period-8 orbit beside it) is not folded.
  OrbitSummary staying = closing;
  for (int j = 0; j < 51; ++j) {
    const double side = (j / 4) % 2 == 0 ? 1.0 : -1.0;
    staying.points[static_cast<std::size_t>(j)][0] = p4_points[static_cast<std::size_t>(j % 4)].first + side * 0.04;
  }
  const AttractorLabels staying_labels = label_attractors({p4[0], staying}, {0, 0}, {unit});
  CHECK(staying_labels.count[0] == 2);
  // A genuine period-2 orbit whose points are as far apart as the labels' tolerance allows stays period 2.
  const AttractorLabels alone = label_attractors({cases[2]}, {0}, {unit});
  CHECK(summarize_point(0.0, {cases[2]}, alone.label, unit).attractors[0].period == 2);
}

TEST_CASE("attractor labels: a periodic window the model could not class (X) joins the orbit it lies on", "[analysis]") {
  // A slowly converging period-3 window whose events per orbit are not yet a whole number: the model
  // calls it X, yet it lies on the P3 orbit's points within the slowly converging tolerance.
  const auto unread = [](std::vector<std::pair<double, double>> points) {
    OrbitSummary s = periodic(std::move(points), "X");
    s.settled = false;
    return s;
  };
  const std::vector<OrbitSummary> cases{
      unread({{0.1, 0.2}, {0.3, 0.4 + 0.02}, {0.5, 0.6}}),   // 0: X on P3's orbit
      periodic({{0.1, 0.2}, {0.3, 0.4}, {0.5, 0.6}}, "P3"),   // 1: P3
      periodic({{1.1, 1.2}, {1.3, 1.4}, {1.5, 1.6}}, "H3"),   // 2: another orbit, another class
      periodic({{1.1, 1.2}, {1.3, 1.4}, {1.55, 1.6}}, "P3"),  // 3: an orbit 0.05 from H3's
      unread({{1.1, 1.2}, {1.3, 1.4}, {1.52, 1.6}}),          // 4: X on both 2 and 3: joins neither
      unread({{2.1, 2.2}, {2.3, 2.4}, {2.5, 2.6}}),           // 5: X on no orbit of the point
      unread({{2.1, 2.2}, {2.3, 2.4}, {2.5, 2.6 + 0.01}}),    // 6: ... and another X beside it: one label
      unread({{0.1, 0.2}, {0.3, 0.4 + 0.02}}),                // 7: the X window's points, period 2: not P3
  };
  const std::vector<double> unit{1.0, 1.0};
  const AttractorLabels labels = label_attractors(cases, std::vector<long long>(cases.size(), 0), {unit});
  CHECK(labels.label[0] == labels.label[1]);
  CHECK(labels.label[2] != labels.label[3]);
  CHECK(labels.label[4] != labels.label[2]);
  CHECK(labels.label[4] != labels.label[3]);
  CHECK(labels.label[5] == labels.label[6]);
  CHECK(labels.label[5] != labels.label[1]);
  CHECK(labels.label[7] != labels.label[1]);
  CHECK(labels.count[0] == 6);
  // The attractor takes the class its read members give, whichever member comes first.
  const PointAttractors point = summarize_point(0.0, cases, labels.label, unit);
  CHECK(point.attractors[static_cast<std::size_t>(labels.label[1])].class_code == "P3");
  CHECK(point.attractors[static_cast<std::size_t>(labels.label[5])].class_code == "X");
  // And in any order of the cases.
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<OrbitSummary> permuted;
    for (const auto i : order) permuted.push_back(cases[i]);
    const AttractorLabels again = label_attractors(permuted, std::vector<long long>(cases.size(), 0), {unit});
    for (std::size_t k = 0; k < order.size(); ++k) CHECK(again.label[k] == labels.label[order[k]]);
    const PointAttractors shuffled = summarize_point(0.0, permuted, again.label, unit);
    CHECK(shuffled.attractors[static_cast<std::size_t>(labels.label[1])].class_code == "P3");
  }
}

namespace {
// A slowly converging window of `samples` points read at period `period` (class `cls`):
// point(j) gives its j-th stroboscopic point.
template <class Point>
OrbitSummary slow_window(int period, const std::string& cls, Point point, int samples = 51) {
  OrbitSummary s = periodic({{0.0, 0.0}}, cls);
  s.points.clear();
  for (int j = 0; j < samples; ++j) {
    const auto [a, b] = point(j);
    std::array<double, kMaxStrobeDims> x{};
    x[0] = a;
    x[1] = b;
    s.points.push_back(x);
  }
  s.period = period;
  s.settled = false;
  return s;
}
}  // namespace

TEST_CASE("attractor labels: a window closing in on an orbit at a multiple of its period is that orbit, however far "
          "from it the window ended",
          "[analysis][attractor_labels]") {
  const std::vector<double> unit{1.0, 1.0};
  // Near a flip of a period-2 orbit (multiplier -0.987 every 2 periods; the conveyor's H2 at a_hat = 58,
  // c_r = 0.8): a window alternating about its two points every 2 samples, its samples 2 apart 0.8 to
  // 0.58 scales apart over 51 samples (far beyond the slowly converging tolerance), is read as period 4.
  const std::vector<std::pair<double, double>> h2{{0.2, 1.0}, {0.9, 1.6}};
  const OrbitSummary near_flip = slow_window(4, "P4", [&](int j) {
    const double side = (j / 2) % 2 == 0 ? 1.0 : -1.0, amplitude = 0.4 * std::pow(0.987, j / 2);
    const auto& p = h2[static_cast<std::size_t>(j % 2)];
    return std::pair{p.first + side * amplitude, p.second + side * 0.5 * amplitude};
  });
  const std::vector<OrbitSummary> flip_cases{periodic(h2, "H2"), near_flip};
  const AttractorLabels flip = label_attractors(flip_cases, {0, 0}, {unit});
  CHECK(flip.count[0] == 1);
  CHECK(summarize_point(0.0, flip_cases, flip.label, unit).attractors[0].period == 2);
  // A period-3 orbit approached along a complex pair (modulus 0.8, angle 3 every 3 periods; the
  // conveyor's H3 at a_hat = 60, c_r = 0.8), with a faster mode (0.25 every 3 periods) dying out early
  // in the window, read as period 9: its gap between samples 3 apart shrinks by about 3 every 15
  // samples, though not evenly (the pair turns, the fast mode fades), and still exceeds the near-orbit
  // threshold (0.01) at the window's end; over 9 periods the window holds too few samples for its
  // three modes to be extrapolated.
  const std::vector<std::pair<double, double>> h3{{0.2, 1.0}, {0.9, 1.6}, {0.5, 0.3}};
  const OrbitSummary turning = slow_window(9, "P9", [&](int j) {
    const std::complex<double> z = 0.5 * std::pow(std::polar(0.8, 3.0), j / 3);
    const auto& p = h3[static_cast<std::size_t>(j % 3)];
    return std::pair{p.first + z.real(), p.second + 0.3 * z.imag() + std::pow(0.25, j / 3)};
  });
  const std::vector<OrbitSummary> h3_cases{periodic(h3, "H3"), turning};
  const AttractorLabels h3_labels = label_attractors(h3_cases, {0, 0}, {unit});
  CHECK(h3_labels.count[0] == 1);
  CHECK(summarize_point(0.0, h3_cases, h3_labels.label, unit).attractors[0].period == 3);
  // A genuine period-4 orbit whose points two apart are 0.5 scales apart, approached slowly (its
  // second pair of points 0.2 farther, shrinking by 0.95 every 4 samples): the gap between samples 2
  // apart shrinks too, towards 0.5, but its samples 2 apart alternate between the orbit's points, and
  // it does not contract onto a period-2 orbit; the two transients above do, onto theirs.
  const std::vector<std::pair<double, double>> p4{{0.0, 1.0}, {0.3, 1.2}, {0.5, 1.0}, {0.8, 1.2}};
  const OrbitSummary approaching = slow_window(4, "P4", [&](int j) {
    const auto& p = p4[static_cast<std::size_t>(j % 4)];
    return std::pair{p.first + (j % 4 >= 2 ? 0.2 * std::pow(0.95, j / 4) : 0.0), p.second};
  });
  std::vector<double> gap;
  for (std::size_t i = 0; i + 2 < approaching.points.size(); ++i)
    gap.push_back(scaled_distance(approaching.points[i], approaching.points[i + 2], unit));
  CHECK(shrinking_gap(gap, 2));
  CHECK_FALSE(contracts_to_period(approaching.points, 2, unit));
  CHECK(contracts_to_period(approaching.points, 4, unit));
  CHECK(contracts_to_period(near_flip.points, 2, unit));
  CHECK(contracts_to_period(turning.points, 3, unit));
  CHECK_FALSE(contracts_to_period(near_flip.points, 1, unit));
  CHECK_FALSE(contracts_to_period(turning.points, 1, unit));
}
