// Every model's trace: the dense state at t = k T is the stroboscopic sample, attaching the sink
// leaves the orbit bit for bit as it was, and each event's states before and after satisfy the
// model's reset law (restitution across an impact, positions unchanged by an impulse).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/hybrid_model/hybrid_frame.hpp"
#include "trace/trace_checks.hpp"

using namespace vibro;
using namespace vibro::trace_testing;

namespace {

CaseTrace traced(const std::string& name, std::initializer_list<test_support::Setting> settings, TraceRequest request,
                 ParameterSet* values_out = nullptr) {
  const Model& model = ModelRegistry::instance().get(name);
  const ParameterSet values = test_support::parameter_values(model.parameters(), settings);
  CaseTrace trace = trace_case(model, values, request);
  CHECK(trace.components.size() == trace.units.size());
  CHECK(trace.states.size() == trace.time.size() * trace.components.size());
  CHECK(trace.modes.size() == trace.time.size());
  CHECK(strobe_mismatch(trace) >= 0);    // every sample has its grid row
  CHECK(strobe_mismatch(trace) < 1e-9);  // and agrees with it (scales of the layout)
  CHECK(same_orbit_without_trace(model, values, trace));
  for (std::size_t r = 1; r < trace.time.size(); ++r) REQUIRE(trace.time[r] > trace.time[r - 1]);
  if (values_out) *values_out = values;
  return trace;
}

std::size_t count_kind(const CaseTrace& trace, const std::string& prefix) {
  std::size_t n = 0;
  for (const auto& e : trace.events) n += e.kind.rfind(prefix, 0) == 0;
  return n;
}

// Impacts in (t0, t1].
std::size_t impacts_between(const CaseTrace& trace, double t0, double t1) {
  std::size_t n = 0;
  for (const auto& e : trace.events) n += e.kind.rfind("impact", 0) == 0 && e.time > t0 && e.time <= t1;
  return n;
}

}  // namespace

TEST_CASE("Model A's trace: restitution across every impact, impacts as the samples count them", "[trace][two_body]") {
  const double e = 0.8;
  const CaseTrace trace = traced("gap_oscillator", {{"law", "restitution"}, {"e", "0.8"}}, {30, 100});
  REQUIRE(count_kind(trace, "impact") > 5);
  const std::size_t x1 = column(trace, "x1"), v1 = column(trace, "v1"), u2 = column(trace, "u2"), v2 = column(trace, "v2");
  for (const auto& event : trace.events) {
    if (event.kind.rfind("impact", 0) != 0) continue;
    const double closing = event.before[v1] - event.before[v2], opening = event.after[v1] - event.after[v2];
    if (event.kind == "impact") CHECK(opening == Approx(-e * closing).margin(1e-9));
    CHECK(event.before[x1] == Approx(event.before[u2] + 0.05).margin(1e-9));  // at contact: x1 = x2 = u2 + D
    CHECK(event.after[x1] == event.before[x1]);
    // Momentum is kept: m1 v1 + m2 v2 (1000 and 100 kg).
    CHECK(1000 * event.after[v1] + 100 * event.after[v2] ==
          Approx(1000 * event.before[v1] + 100 * event.before[v2]).margin(1e-9));
  }
  // The impacts between consecutive samples are those the samples' impact counter adds.
  const std::size_t impacts = static_cast<std::size_t>(
      std::find(trace.layout.counter_names.begin(), trace.layout.counter_names.end(), "impacts") -
      trace.layout.counter_names.begin());
  for (std::size_t k = 1; k < trace.strobe.size(); ++k) {
    const auto counted = trace.strobe[k].counters[impacts] - trace.strobe[k - 1].counters[impacts];
    CHECK(impacts_between(trace, trace.strobe[k - 1].time, trace.strobe[k].time) == static_cast<std::size_t>(counted));
  }
}

TEST_CASE("a compliant Model A traces its contact phases", "[trace][two_body]") {
  const CaseTrace trace = traced("gap_oscillator", {}, {20, 100});  // Hertz contact (the default)
  CHECK(count_kind(trace, "impact") > 0);
  CHECK(count_kind(trace, "contact_to_free") > 0);
}

TEST_CASE("the vibro platform's trace", "[trace][two_body]") {
  const CaseTrace trace = traced("vibro_platform", {}, {10, 100});
  CHECK(trace.components.front() == "y1");
}

TEST_CASE("the impact oscillator's trace: v_after = -r v_before at the stop, impact phases as sampled",
          "[trace][impact_oscillator]") {
  const CaseTrace trace = traced("impact_oscillator", {{"sigma", "0.2"}}, {30, 100});
  REQUIRE(count_kind(trace, "impact") > 5);
  for (const auto& event : trace.events) {
    if (event.kind != "impact") continue;
    CHECK(event.before[0] == Approx(0.2).margin(1e-9));
    CHECK(event.after[1] == Approx(-0.8 * event.before[1]).margin(1e-12));
  }
  // Each sample's aux holds the phase of its period's last impact.
  const double omega = 2 * M_PI / trace.period;
  for (std::size_t k = 1; k < trace.strobe.size(); ++k) {
    double last = std::nan("");
    for (const auto& e : trace.events)
      if (e.kind.rfind("impact", 0) == 0 && e.time > trace.strobe[k - 1].time && e.time <= trace.strobe[k].time)
        last = std::fmod(omega * e.time, 2 * M_PI);
    const double sampled = trace.strobe[k].aux[kAuxImpactPhase];
    CHECK(std::isnan(last) == std::isnan(sampled));
    if (!std::isnan(last)) CHECK(last == Approx(sampled).margin(1e-12));
  }
}

TEST_CASE("the dry-friction oscillator's trace: stick-slip switches keep the state", "[trace][dry_friction_oscillator]") {
  const CaseTrace trace = traced("dry_friction_oscillator", {}, {20, 100});
  REQUIRE(count_kind(trace, "switch") > 0);
  for (const auto& event : trace.events)
    for (std::size_t c = 0; c < event.before.size(); ++c) CHECK(event.after[c] == Approx(event.before[c]).margin(1e-9));
}

TEST_CASE("the declared gap oscillator's trace: restitution across every impact", "[trace][gap_oscillator_declared]") {
  const CaseTrace trace = traced("gap_oscillator_declared", {{"e", "0.8"}}, {30, 100});
  REQUIRE(count_kind(trace, "impact") > 5);
  for (const auto& event : trace.events) {
    if (event.kind != "impact") continue;
    CHECK(event.after[1] - event.after[3] == Approx(-0.8 * (event.before[1] - event.before[3])).margin(1e-9));
  }
}

TEST_CASE("the dimer's trace: impacts change velocities only", "[trace][dimer]") {
  const CaseTrace trace = traced("dimer", {}, {4, 50});
  CHECK(trace.components.back() == "X");
  REQUIRE(count_kind(trace, "impact") > 0);
  for (const auto& event : trace.events) {
    // The impact law changes velocities only; then the closed tip is projected onto the plate, which
    // removes the located contact's residual gap (below 1e-12 m at root_rtol 1e-13 and these speeds).
    CHECK(event.after[column(trace, "Y")] == Approx(event.before[column(trace, "Y")]).margin(1e-12));
    CHECK(event.after[column(trace, "theta")] == event.before[column(trace, "theta")]);
    CHECK(event.after[column(trace, "X")] == event.before[column(trace, "X")]);
  }
}

TEST_CASE("the ball balancer's trace", "[trace][ball_balancer]") {
  const CaseTrace trace = traced("ball_balancer", {}, {3, 50});
  CHECK(trace.components.back() == "s_1");
  for (const auto& event : trace.events)  // impulses and switches leave the positions where they are
    for (const std::size_t c : {column(trace, "x"), column(trace, "y")}) CHECK(event.after[c] == event.before[c]);
}

TEST_CASE("the beam slider's trace", "[trace][beam_slider]") {
  const CaseTrace trace = traced("beam_slider", {}, {2, 40});
  CHECK(trace.components.front() == "q_B1");
}

TEST_CASE("every built-in model traces, a model without traces is refused by name", "[trace]") {
  for (const auto& name : ModelRegistry::instance().names())
    if (ModelRegistry::instance().origin(name).built_in()) CHECK(ModelRegistry::instance().get(name).capabilities().trace);
  // A model that never reports a history (no ModelCapabilities::trace).
  struct Silent : Model {
    std::string name() const override { return "silent"; }
    std::string summary() const override { return ""; }
    const std::vector<ParameterSpec>& parameters() const override { return specs; }
    std::vector<ObservableSpec> observables() const override { return {}; }
    std::unique_ptr<Simulation> start(const ParameterSet&) const override { return nullptr; }
    CaseSummary summarize(const SteadyState&, const StrobeLayout&, const ParameterSet&) const override { return {}; }
    std::vector<ParameterSpec> specs;
  } silent;
  const ParameterSet values(&silent.specs);
  CHECK_THROWS_WITH(trace_case(silent, values, {1, 10}), Catch::Contains("'silent'") && Catch::Contains("vibro trace"));
}
