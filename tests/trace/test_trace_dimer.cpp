// The dimer's trace under its default event-driven integrator: grid states from the flights' closed
// form and the contact steps' dense output agree with the samples at t = k T, impacts jump the
// velocities at fixed positions, the grid rows between events follow the rates, a sink leaves every
// sample bit for bit as it was, and a restarted simulation keeps the sink's grid.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "models/dimer/dimer_trace_row.hpp"
#include "trace/trace_checks.hpp"

using namespace vibro;
using namespace vibro::trace_testing;

namespace {

const ParameterSet& dimer_values() {
  static const ParameterSet values =
      test_support::parameter_values(ModelRegistry::instance().get("dimer").parameters(), {});
  return values;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// An event at a time in [t0, t1] (a grid row at an event's time holds the state before it).
bool event_within(const CaseTrace& trace, double t0, double t1) {
  for (const auto& e : trace.events)
    if (e.time >= t0 && e.time <= t1) return true;
  return false;
}

// Keeps what the simulation reports (for a run that does not go through trace_case).
struct KeepingSink : TraceSink {
  std::vector<double> times;
  std::vector<std::vector<double>> rows;
  KeepingSink(double period, int per_period) : TraceSink(period, per_period) { set_dims(6); }
  void on_state(double t, int, const double* state) override {
    times.push_back(t);
    rows.emplace_back(state, state + 6);
  }
  void on_event(double, const std::string&, const double*, const double*) override {}
};

std::size_t count_kind(const CaseTrace& trace, const char* prefix) {
  std::size_t n = 0;
  for (const auto& e : trace.events) n += starts_with(e.kind, prefix);
  return n;
}

// The checks every event-driven dimer trace passes; returns the trace for the case's own counts.
CaseTrace checked_trace(const ParameterSet& values) {
  const Model& model = ModelRegistry::instance().get("dimer");
  const CaseTrace trace = trace_case(model, values, {12, 100});
  REQUIRE(trace.strobe.size() == 12);
  REQUIRE(trace.time.size() == 12 * 100 + 1);  // t = 0 .. 12 T, each grid time once
  CHECK(trace.components == dimer::dimer_trace_layout().components);
  const double mismatch = strobe_mismatch(trace);
  INFO("largest difference at t = k T: " << mismatch << " scales");
  CHECK(mismatch >= 0);
  CHECK(mismatch < 1e-9);

  // Every event keeps the positions (up to the rounding of the projection onto the plate); an
  // impact jumps a velocity.
  const std::vector<double>& scales = trace.layout.state_scales;  // Y, theta, Xdot, Ydot, thetadot
  const double length = scales[0];
  for (const auto& e : trace.events) {
    INFO(e.kind << " at t = " << e.time);
    CHECK(e.after[0] == Approx(e.before[0]).margin(1e-12 * length));     // Y
    CHECK(e.after[1] == Approx(e.before[1]).margin(1e-12 * scales[1]));  // theta
    CHECK(e.after[5] == e.before[5]);                                    // X
    if (!starts_with(e.kind, "impact")) continue;
    double jump = 0;
    for (std::size_t c = 2; c < 5; ++c) jump = std::max(jump, std::fabs(e.after[c] - e.before[c]) / scales[c]);
    CHECK(jump > 1e-6);
  }
  CHECK(count_kind(trace, "impact") > 5);

  // Between events, each position moves by the trapezoid of its rate over the grid step: within
  // 1e-4 of its scale (the trapezoid's own error in a contact phase, ~ (omega dt)^3 / 12 ~ 2e-5 of
  // it; none in a flight), while a velocity jump between two rows would miss by ~ dt |jump| / 2.
  const double dt = trace.period / 100;
  const std::size_t pos[3] = {0, 1, 5}, rate[3] = {3, 4, 2};
  const double pos_scale[3] = {length, scales[1], length};
  std::size_t checked = 0;
  double worst = 0;
  for (std::size_t r = 0; r + 1 < trace.time.size(); ++r) {
    if (event_within(trace, trace.time[r], trace.time[r + 1])) continue;
    ++checked;
    for (int k = 0; k < 3; ++k) {
      const double moved = trace.state(r + 1, pos[k]) - trace.state(r, pos[k]);
      const double trapezoid = 0.5 * dt * (trace.state(r, rate[k]) + trace.state(r + 1, rate[k]));
      worst = std::max(worst, std::fabs(moved - trapezoid) / pos_scale[k]);
    }
  }
  INFO("rows checked " << checked << ", worst trapezoid miss " << worst << " scales");
  CHECK(checked > trace.time.size() / 2);
  CHECK(worst < 1e-4);
  return trace;
}

}  // namespace

TEST_CASE("the event-driven dimer's trace: samples, impacts, continuity", "[trace][dimer]") {
  checked_trace(dimer_values());  // the default case: impacts of a hopping dimer
}

TEST_CASE("the event-driven dimer's trace names its closures, detachments and stick-slip switches", "[trace][dimer]") {
  // A dimer dropped tilted at Gamma = 1.3: the second tip closes onto the plate, then the dimer lands,
  // slides, sticks and leaves the plate each period (flat, so later landings are double impacts).
  const CaseTrace trace = checked_trace(test_support::parameter_values(
      ModelRegistry::instance().get("dimer").parameters(),
      {{"Gamma", "1.3"}, {"e_s", "0.1"}, {"mu_s", "1.0"}, {"h0", "0"}, {"theta0", "10"}}));
  CHECK(count_kind(trace, "closure") > 0);
  CHECK(count_kind(trace, "detachment") > 0);
  CHECK(count_kind(trace, "slip_to_stick") > 0);
  CHECK(count_kind(trace, "impacts_tip2") > 0);  // both tips land
  // A detachment or a stick only switches the law: the state is the same on both sides.
  for (const auto& e : trace.events)
    if (e.kind == "detachment" || e.kind == "slip_to_stick")
      for (std::size_t c = 0; c < 6; ++c) CHECK(e.after[c] == Approx(e.before[c]).margin(1e-9 * std::fabs(e.before[c]) + 1e-15));
}

TEST_CASE("the event-driven dimer's samples are bit for bit the same with a sink attached", "[trace][dimer]") {
  const Model& model = ModelRegistry::instance().get("dimer");
  const CaseTrace trace = trace_case(model, dimer_values(), {12, 100});
  auto plain = model.start(dimer_values());
  test_support::Recorder keep(12);
  plain->run(keep);
  REQUIRE(keep.samples.size() == trace.strobe.size());
  for (std::size_t k = 0; k < keep.samples.size(); ++k) {
    const StrobeSample &a = keep.samples[k], &b = trace.strobe[k];
    CHECK(a.state == b.state);
    CHECK(a.drift_position == b.drift_position);
    CHECK(a.counters == b.counters);
    CHECK(a.aux == b.aux);
    CHECK(a.mode == b.mode);
    CHECK(a.time == b.time);
  }
}

TEST_CASE("a restarted event-driven dimer traces from the restart's grid time", "[trace][dimer]") {
  const Model& model = ModelRegistry::instance().get("dimer");
  auto first = model.start(dimer_values());
  test_support::Recorder keep(5);
  first->run(keep);
  const StrobeSample& from = keep.samples.back();  // t = 5 T
  auto restarted = model.start(dimer_values());
  REQUIRE(restarted->restart_from(from));
  const double period = restarted->layout().period;
  KeepingSink sink(period, 20);
  restarted->attach_trace(&sink);
  test_support::Recorder more(2);
  restarted->run(more);
  REQUIRE(sink.times.size() >= 2 * 20 + 1);
  CHECK(sink.times.front() == 5 * period);  // no grid time before the restart, none skipped after it
  for (std::size_t j = 1; j < sink.times.size(); ++j) CHECK(sink.times[j] == Approx(sink.times[j - 1] + period / 20).epsilon(1e-12));
  // The restart's state, its closed tips projected onto the plate (rounding of the projection only).
  const auto& scales = restarted->layout().state_scales;
  for (std::size_t c = 0; c < 5; ++c) CHECK(sink.rows.front()[c] == Approx(from.state[c]).margin(1e-12 * scales[c]));
  CHECK(sink.rows.front()[5] == from.drift_position);
}

TEST_CASE("both dimer integrators trace the same components", "[trace][dimer]") {
  const Model& model = ModelRegistry::instance().get("dimer");
  const ParameterSet values =
      test_support::parameter_values(model.parameters(), {{"integrator", "moreau_jean"}, {"steps_per_period", "400"}});
  const CaseTrace trace = trace_case(model, values, {2, 50});
  CHECK(trace.components == dimer::dimer_trace_layout().components);
  CHECK(trace.units == dimer::dimer_trace_layout().units);
  CHECK(strobe_mismatch(trace) >= 0);
  CHECK(strobe_mismatch(trace) < 1e-9);
  CHECK(same_orbit_without_trace(model, values, trace));
}
