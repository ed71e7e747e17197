// The detector's history is bounded by what its tests look at, not by run.max_periods: a million-
// period case holds at most history_span() samples, and its window is still the last samples.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "analysis/steady_state.hpp"
#include "support/synthetic_strobe.hpp"

using namespace vibro;
using vibro::test_support::unit_layout;

namespace {

// Sample k of a sequence that never settles (no period up to 16 fits, no jump).
StrobeSample irregular(int k) {
  StrobeSample s;
  s.period = k;
  s.time = k;
  s.state[0] = std::sin(1.7 * k) * std::cos(0.31 * k * k);
  s.state[1] = std::cos(0.9 * k);
  s.drift_position = 0.01 * k;
  s.counters[0] = 3 * static_cast<std::int64_t>(k);
  return s;
}

}  // namespace

TEST_CASE("steady-state history: a million periods are held in a window of fixed size", "[analysis][steady_history]") {
  for (const SteadyMode mode : {SteadyMode::Fixed, SteadyMode::Adaptive}) {
    SteadyStateSettings settings;
    settings.mode = mode;
    settings.max_periods = mode == SteadyMode::Fixed ? 1000000 : 100000;
    settings.max_jumps = 0;  // the loop below runs one simulation stretch
    const StrobeLayout layout = unit_layout();
    SteadyStateDetector detector(layout, settings);
    const auto bound = static_cast<std::size_t>(detector.history_span());
    CHECK(detector.history_span() < 200);  // the 50-period window, not the million-period budget
    std::size_t most = 0;
    int k = 1;
    while (detector.on_sample(irregular(k))) {
      most = std::max(most, detector.stored_samples());
      ++k;
    }
    CHECK(k == settings.max_periods);
    CHECK(most == bound);  // it did fill up to the bound: the test exercised the dropping
    const SteadyState s = detector.finish();
    REQUIRE(s.window_periods() == settings.window_periods);
    // The window is the newest samples, in order.
    for (int i = 0; i <= settings.window_periods; ++i) {
      const StrobeSample expected = irregular(k - settings.window_periods + i);
      CHECK(s.window[static_cast<std::size_t>(i)].period == expected.period);
      CHECK(s.window[static_cast<std::size_t>(i)].state[0] == expected.state[0]);
    }
    CHECK(s.counter_in_window(0) == 3 * settings.window_periods);
    CHECK(s.periodicity == Periodicity::NotConverged);
  }
}

TEST_CASE("steady-state history: the span covers the longest window any test reads", "[analysis][steady_history]") {
  const StrobeLayout layout = unit_layout();
  SteadyStateSettings settings;
  settings.max_periods = 100000000;
  settings.window_periods = 3000;
  CHECK(SteadyStateDetector(layout, settings).history_span() == 3001);
  settings.window_periods = 10;
  settings.max_period = 200;  // adaptive windows of 3 orbits of period 200
  CHECK(SteadyStateDetector(layout, settings).history_span() == 601);
  settings.max_period = 16;
  settings.mode = SteadyMode::Means;
  settings.means_window = 1000;
  settings.means_checks = 4;  // 5 windows compared
  CHECK(SteadyStateDetector(layout, settings).history_span() == 5001);
  // Fixed mode reads its window only: the adaptive windows do not lengthen its history.
  settings.mode = SteadyMode::Fixed;
  settings.window_periods = 10;
  CHECK(SteadyStateDetector(layout, settings).history_span() == 11);
}

TEST_CASE("steady-state history: fixed mode's periods before its window need no samples",
          "[analysis][steady_history]") {
  const StrobeLayout layout = unit_layout();
  SteadyStateSettings settings;
  settings.mode = SteadyMode::Fixed;
  settings.max_periods = 100;
  settings.window_periods = 50;
  const int unread = unread_leading_periods(settings);
  CHECK(unread == 49);  // samples 50 .. 100 make the window
  // Fed every sample, or told that the unread ones were stepped: the same periods, the same window.
  SteadyStateDetector fed(layout, settings), skipping(layout, settings);
  int fed_stop = 0;
  for (int k = 1; fed.on_sample(irregular(k)); ++k) fed_stop = k + 1;
  skipping.skip(unread);
  int skipping_stop = 0;
  for (int k = unread + 1; skipping.on_sample(irregular(k)); ++k) skipping_stop = k + 1;
  CHECK(skipping_stop == fed_stop);
  CHECK(skipping.samples_seen() == fed.samples_seen());
  const SteadyState a = fed.finish(), b = skipping.finish();
  REQUIRE(a.window.size() == b.window.size());
  REQUIRE(a.window_periods() == 50);
  for (std::size_t i = 0; i < a.window.size(); ++i) {
    CHECK(b.window[i].period == a.window[i].period);
    CHECK(std::memcmp(b.window[i].state.data(), a.window[i].state.data(), sizeof a.window[i].state) == 0);
    CHECK(b.window[i].counters == a.window[i].counters);
  }
  CHECK(b.periodicity == a.periodicity);

  // Only the leading periods, before any sample, and only in fixed mode.
  SteadyStateDetector late(layout, settings);
  late.on_sample(irregular(1));
  CHECK_THROWS_AS(late.skip(1), std::logic_error);
  CHECK_THROWS_AS(SteadyStateDetector(layout, settings).skip(unread + 1), std::logic_error);
  settings.window_periods = 100;  // the window is the whole run
  CHECK(unread_leading_periods(settings) == 0);
  settings.window_periods = 50;
  for (const SteadyMode mode : {SteadyMode::Adaptive, SteadyMode::Means}) {
    settings.mode = mode;
    CHECK(unread_leading_periods(settings) == 0);
  }
}
