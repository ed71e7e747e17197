// Attractor labels within parameter points: a periodic orbit seen at another phase is the same
// attractor, a different orbit is not, irregular cases share a label when their boxes overlap.
#include <catch2/catch.hpp>

#include "analysis/attractor_labels.hpp"

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
OrbitSummary irregular(double lo, double hi) {
  OrbitSummary s;
  s.valid = true;
  s.class_code = "X";
  for (const double a : {lo, hi, 0.5 * (lo + hi)}) {
    std::array<double, kMaxStrobeDims> p{};
    p[0] = a;
    p[1] = a;
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
