// Housner's rocking block as a model file (examples/models/rocking_block.vibro) against the
// independent event-driven solution of rocking_reference.hpp: free decay and the time the block comes
// to rest (the accumulation point of its impacts), the uplift threshold a = tan(alpha), the
// chatter-then-rest motion at a = 0.26 released towards the side the forcing pushes, a steady rocking
// orbit and toppling. Impact, rest and release times agree to 1e-8 s.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/core/model_registry.hpp"
#include "jobs/trace/case_trace.hpp"
#include "model_files/load_model_file.hpp"
#include "model_files/rocking_reference.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
namespace ref = rocking_reference;

namespace {

constexpr double kSignificant = 1e-4;  // impacts compared one by one: arriving faster than this (rad/s)

const Model& rocking_model() {
  static const std::string name = load_model_file(std::string(VIBRO_SOURCE_DIR) + "/examples/models/rocking_block.vibro");
  return ModelRegistry::instance().get(name);
}

std::string text(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// vibro's trace of the block, read as the reference's events.
struct Run {
  std::vector<ref::Event> events;
  std::vector<std::array<double, 2>> samples;
  long impacts = 0;
};

Run vibro_run(const ref::Block& b, double theta0, int periods) {
  const Model& model = rocking_model();
  const ParameterSet values = test_support::parameter_values(
      model.parameters(), {{"p", text(b.p)}, {"alpha", text(b.alpha)}, {"r", text(b.r)}, {"a", text(b.a)}, {"w", text(b.w)},
                           {"theta0", text(theta0)}, {"omega0", "0"}, {"rtol", "1e-13"}, {"atol", "1e-15"}, {"v_eps", "1e-12"}});
  const CaseTrace trace = trace_case(model, values, {periods, 8});
  Run run;
  for (const auto& e : trace.events) {
    const auto starts = [&](const char* prefix) { return e.kind.rfind(prefix, 0) == 0; };
    if (starts("switch to left") || starts("switch to right")) {
      run.events.push_back({e.time, ref::Kind::Impact, e.before[1], starts("switch to left") ? -1 : 1});
      ++run.impacts;
    } else if (starts("switch+sticking")) {
      ++run.impacts;
      run.events.push_back({e.time, ref::Kind::Rest, 0.0, 0});
    } else if (starts("release to")) {
      run.events.push_back({e.time, ref::Kind::Release, 0.0, e.kind == "release to left" ? -1 : 1});
    } else if (starts("switch to toppled")) {
      run.events.push_back({e.time, ref::Kind::Topple, e.before[1], 0});
    } else {
      FAIL("unexpected event '" << e.kind << "' at t = " << e.time);
    }
  }
  for (const auto& s : trace.strobe) run.samples.push_back({s.state[0], s.state[1]});
  return run;
}

std::vector<ref::Event> significant(const std::vector<ref::Event>& events) {
  std::vector<ref::Event> out;
  for (const auto& e : events)
    if (e.kind != ref::Kind::Impact || std::fabs(e.omega_before) > kSignificant) out.push_back(e);
  return out;
}

// The largest time difference between the two runs' significant events (impacts, rests, releases,
// toppling), which must match one to one in kind and side.
double compare(const Run& vibro, const ref::Solution& reference) {
  const auto a = significant(vibro.events), b = significant(reference.events);
  REQUIRE(a.size() == b.size());
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("event " << i << " at t = " << b[i].t);
    REQUIRE(a[i].kind == b[i].kind);
    REQUIRE(a[i].side_after == b[i].side_after);
    worst = std::max(worst, std::fabs(a[i].t - b[i].t));
  }
  return worst;
}

long count(const std::vector<ref::Event>& events, ref::Kind kind, int side = 0) {
  return std::count_if(events.begin(), events.end(), [&](const ref::Event& e) { return e.kind == kind && (side == 0 || e.side_after == side); });
}

}  // namespace

const double kAlpha = 0.25, kR = 1 - 1.5 * std::sin(kAlpha) * std::sin(kAlpha);  // Housner's r

TEST_CASE("rocking block file: free decay and the rest time against an independent solution", "[model_files][rocking]") {
  const ref::Block b{5, kAlpha, kR, 0, 3};
  const Run vibro = vibro_run(b, 0.05, 4);
  const ref::Solution reference = ref::Solver(b).run(0.05, 0, 4);
  const double worst = compare(vibro, reference);
  INFO("significant events " << significant(reference.events).size() << ", impacts vibro " << vibro.impacts << " reference "
                             << reference.impacts << ", worst time difference " << worst);
  CHECK(worst < 1e-8);
  REQUIRE(count(vibro.events, ref::Kind::Rest) == 1);
  REQUIRE(count(reference.events, ref::Kind::Rest) == 1);
  CHECK(count(vibro.events, ref::Kind::Release) == 0);
  CHECK(std::labs(vibro.impacts - reference.impacts) <= 1);  // both counted down to 1e-12 rad/s
  WARN("free decay: rest at " << text(reference.events.back().t) << " s, worst difference " << worst << " s, impacts vibro "
                              << vibro.impacts << " reference " << reference.impacts);
}

TEST_CASE("rocking block file: the uplift threshold a = tan(alpha)", "[model_files][rocking]") {
  // From rest: just below the threshold the block stays at rest; just above it is lifted at the
  // closed-form instants a cos(w t) = -+ tan(alpha), towards the side the ground acceleration pushes.
  for (const double factor : {1 - 1e-3, 1 + 1e-3}) {
    const ref::Block b{2, kAlpha, kR, std::tan(kAlpha) * factor, 3};
    const Run vibro = vibro_run(b, 0, 4);
    const ref::Solution reference = ref::Solver(b).run(0, 0, 4);
    INFO("a / tan(alpha) = " << factor);
    const double worst = compare(vibro, reference);
    CHECK(worst < 1e-8);
    if (factor < 1) {
      CHECK(vibro.events.empty());
    } else {
      CHECK(count(vibro.events, ref::Kind::Release, -1) > 0);
      CHECK(count(vibro.events, ref::Kind::Release, +1) > 0);
    }
    WARN("uplift a/tan(alpha) = " << factor << ": releases " << count(vibro.events, ref::Kind::Release) << ", worst " << worst << " s");
  }
}

TEST_CASE("rocking block file: chatter, rest and release towards the pushing side at a = 0.26", "[model_files][rocking]") {
  for (const double w : {2.0, 3.0, 5.0}) {
    const ref::Block b{2, kAlpha, kR, 0.26, w};
    const Run vibro = vibro_run(b, 0, 10);
    const ref::Solution reference = ref::Solver(b).run(0, 0, 10);
    INFO("w = " << w);
    const double worst = compare(vibro, reference);
    CHECK(worst < 1e-8);
    CHECK(count(vibro.events, ref::Kind::Release, -1) == 10);  // lifted on each side once a period
    CHECK(count(vibro.events, ref::Kind::Release, +1) == 10);
    CHECK(std::labs(vibro.impacts - reference.impacts) <= count(reference.events, ref::Kind::Rest));
    WARN("a = 0.26, w = " << w << ": impacts vibro " << vibro.impacts << " reference " << reference.impacts << ", rests "
                          << count(vibro.events, ref::Kind::Rest) << ", releases left " << count(vibro.events, ref::Kind::Release, -1)
                          << " right " << count(vibro.events, ref::Kind::Release, 1) << ", worst " << worst << " s");
  }
}

TEST_CASE("rocking block file: a steady rocking orbit", "[model_files][rocking]") {
  const ref::Block b{2, kAlpha, kR, 0.6, 15};
  const int periods = 150;
  const Run vibro = vibro_run(b, 0.01, periods);
  const ref::Solution reference = ref::Solver(b).run(0.01, 0, periods);
  const double worst = compare(vibro, reference);
  CHECK(worst < 1e-8);
  REQUIRE(vibro.samples.size() >= 2);
  const auto& last = vibro.samples.back();
  const auto& before = vibro.samples[vibro.samples.size() - 2];
  const auto& exact = reference.samples.back();
  const double settled = std::hypot(last[0] - before[0], last[1] - before[1]);
  const double apart = std::hypot(last[0] - exact[0], last[1] - exact[1]);
  CHECK(settled < 1e-8);  // a period-1 rocking orbit: two impacts per forcing period
  CHECK(apart < 1e-8);
  WARN("steady orbit: theta(kT) " << text(last[0]) << ", omega(kT) " << text(last[1]) << "; vs reference " << apart
                                  << ", period to period " << settled << ", worst event time " << worst << " s, impacts " << vibro.impacts);
}

TEST_CASE("rocking block file: toppling under a long push", "[model_files][rocking]") {
  const ref::Block b{2, kAlpha, kR, 0.26, 3};
  const Run vibro = vibro_run(b, 0.001, 3);
  const ref::Solution reference = ref::Solver(b).run(0.001, 0, 3);
  const double worst = compare(vibro, reference);
  CHECK(worst < 1e-8);
  REQUIRE(count(vibro.events, ref::Kind::Topple) == 1);
  WARN("toppling at " << text(reference.events.back().t) << " s, difference " << worst << " s");
}
