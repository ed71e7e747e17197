// The steady-state window tests over any sample type (analysis/window_classification): a window of
// compact samples (counters first, then the drift, then the state; 32-bit counters) is classified, and
// its statistics computed, exactly as the same window of StrobeSamples by classify_window and
// SteadyState; and the window families are classified as what they are.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "analysis/window_classification.hpp"
#include "support/window_families.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

struct CompactSample {
  std::int32_t impacts = 0, sticks = 0;
  double drift = 0;
  double x[4] = {};
};

struct CompactWindow {
  const CompactSample* rows = nullptr;
  int n = 0;
  int size() const { return n; }
  double state(int i, int c) const { return rows[i].x[c]; }
  double drift(int i) const { return rows[i].drift; }
  std::int64_t counter(int i, int c) const { return c == 0 ? rows[i].impacts : rows[i].sticks; }
};

std::vector<CompactSample> compact(const std::vector<StrobeSample>& samples) {
  std::vector<CompactSample> rows;
  for (const StrobeSample& s : samples) {
    CompactSample r;
    r.impacts = static_cast<std::int32_t>(s.counters[0]);
    r.sticks = static_cast<std::int32_t>(s.counters[1]);
    r.drift = s.drift_position;
    for (int c = 0; c < 4; ++c) r.x[c] = s.state[static_cast<std::size_t>(c)];
    rows.push_back(r);
  }
  return rows;
}

WindowClass classify_compact(const std::vector<CompactSample>& rows, const WindowRules& rules) {
  std::vector<double> scratch(rows.size());
  return classify_window_of(CompactWindow{rows.data(), static_cast<int>(rows.size())}, rules, scratch.data());
}

SteadyState classified(const std::vector<StrobeSample>& samples, const StrobeLayout& layout,
                       const SteadyStateSettings& settings) {
  SteadyState state;
  state.window = samples;
  classify_window(state, layout, settings);
  return state;
}

SteadyStateSettings strict_settings() {
  SteadyStateSettings s;
  s.tol = 1e-6;
  s.max_period = 8;
  s.quasi_min_window = 150;
  s.quasi_tol = 1e-5;
  return s;
}

}  // namespace

TEST_CASE("a window of compact samples gets the period, periodicity and statistics of its StrobeSamples",
          "[analysis][window_classification]") {
  const StrobeLayout layout = four_component_layout();
  const double period_seconds = layout.period;
  int periodic = 0, slow = 0, quasi = 0, not_converged = 0;
  for (const SteadyStateSettings& settings : {SteadyStateSettings{}, strict_settings()}) {
    const WindowRules rules = window_rules(layout, settings);
    for (const SampleWindow& w : window_families()) {
      INFO(w.name << ", tol " << settings.tol);
      const SteadyState reference = classified(w.samples, layout, settings);
      const std::vector<CompactSample> rows = compact(w.samples);
      const CompactWindow window{rows.data(), static_cast<int>(rows.size())};
      const WindowClass c = classify_compact(rows, rules);
      CHECK(c.periodicity == reference.periodicity);
      CHECK(c.period == reference.period);
      CHECK(same_bits(window_drift_velocity(window, c.period, period_seconds), reference.drift_velocity(period_seconds)));
      for (int half : {0, 1})
        CHECK(same_bits(window_drift_velocity_half(window, period_seconds, half),
                        reference.drift_velocity_half(period_seconds, half)));
      for (int counter : {0, 1}) {
        CHECK(window_counter_in_window(window, counter) == reference.counter_in_window(counter));
        CHECK(same_bits(window_counter_per_orbit(window, c.period, counter), reference.counter_per_orbit(counter)));
      }
      periodic += reference.periodicity == Periodicity::Periodic;
      slow += reference.periodicity == Periodicity::SlowlyConverging;
      quasi += reference.periodicity == Periodicity::QuasiPeriodic;
      not_converged += reference.periodicity == Periodicity::NotConverged;
    }
  }
  // Every kind of answer is among them.
  CHECK(periodic > 50);
  CHECK(slow > 10);
  CHECK(quasi >= 2);
  CHECK(not_converged > 20);
}

TEST_CASE("the window families are classified as what they are", "[analysis][window_classification]") {
  const StrobeLayout layout = four_component_layout();
  const WindowRules rules = window_rules(layout, SteadyStateSettings{});
  const auto expect = [&](const std::string& name, Periodicity periodicity, int period) {
    for (const SampleWindow& w : window_families())
      if (w.name == name) {
        INFO(name);
        const WindowClass c = classify_compact(compact(w.samples), rules);
        CHECK(c.periodicity == periodicity);
        CHECK(c.period == period);
        return;
      }
    FAIL("no window named " << name);
  };
  for (int k = 1; k <= 20; ++k)
    for (int component = 0; component < 4; ++component)
      expect("period " + std::to_string(k) + " in component " + std::to_string(component),
             k <= 16 ? Periodicity::Periodic : Periodicity::NotConverged, k <= 16 ? k : 0);
  expect("period 3 in the drift", Periodicity::Periodic, 3);
  expect("approach rho 0.930000 offset 0 period 1", Periodicity::SlowlyConverging, 1);
  for (int k = 1; k <= 3; ++k)
    expect("approach rho 0.300000 offset 40 period " + std::to_string(k), Periodicity::Periodic, k);
  for (const std::string growth : {"1.010000", "1.030000", "1.060000"})
    for (const std::string start : {"1e-07", "1e-06"})
      expect("departure x" + growth + " from " + start, Periodicity::NotConverged, 0);
  for (const std::string mu : {"-0.900000", "-0.970000", "-0.990000", "-0.995000", "-0.999000"})
    expect("flip collapse mu " + mu, Periodicity::SlowlyConverging, 1);
  expect("logistic r 3.200000", Periodicity::Periodic, 2);
  expect("logistic r 3.500000", Periodicity::Periodic, 4);
  expect("logistic r 3.830000", Periodicity::Periodic, 3);
  expect("logistic r 3.900000", Periodicity::NotConverged, 0);
  expect("logistic r 4.000000", Periodicity::NotConverged, 0);
  expect("noise 0", Periodicity::NotConverged, 0);
  expect("rotation 0.618034 over 200", Periodicity::QuasiPeriodic, 0);
  expect("rotation 0.414214 over 200", Periodicity::QuasiPeriodic, 0);
  expect("rotation 0.618034 over 60", Periodicity::NotConverged, 0);  // too short for the Birkhoff test
  expect("rotation 0.142857 over 200", Periodicity::Periodic, 7);
  expect("rotation 0.217391 over 200", Periodicity::NotConverged, 0);  // period 23: a locked orbit, no torus
  expect("logistic over 200", Periodicity::NotConverged, 0);
}
