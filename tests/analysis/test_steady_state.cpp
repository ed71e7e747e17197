// The model-independent steady-state detector (our rule: the papers give none) on synthetic
// stroboscopic sequences, and adaptive stopping.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "analysis/collapsing_gap.hpp"
#include "analysis/steady_state.hpp"
#include "support/synthetic_strobe.hpp"

using namespace vibro;
using namespace vibro::test_support;

TEST_CASE("constant, period-2, period-3, slowly converging and random sequences", "[analysis]") {
  const Synthetic constant{[](int) { return std::array<double, 4>{0.3, 0.1, 0.01, 1}; }};
  auto s = detect(constant, fixed_mode());
  CHECK(s.periodicity == Periodicity::Periodic);
  CHECK(s.period == 1);
  CHECK(s.drift_velocity(1.0) == Approx(0.01));
  CHECK(s.counter_per_orbit(0) == 1);

  const Synthetic two{[](int k) { return std::array<double, 4>{k % 2 ? 0.3 : 0.5, 0.1, k % 2 ? 0.01 : 0.03, 1}; }};
  s = detect(two, fixed_mode());
  CHECK(s.periodicity == Periodicity::Periodic);
  CHECK(s.period == 2);
  CHECK(s.counter_per_orbit(0) == 2);

  const Synthetic three{[](int k) { return std::array<double, 4>{0.1 * (k % 3), 0.0, 0.02, k % 3 == 0 ? 0.0 : 1.0}; }};
  s = detect(three, fixed_mode());
  CHECK(s.period == 3);
  CHECK(s.counter_per_orbit(0) == 2);  // 2 impacts per 3 periods

  const Synthetic slow{[](int k) { return std::array<double, 4>{0.5 + 0.5 * std::pow(0.93, k), 0.0, 0.01, 1}; }};
  s = detect(slow, fixed_mode());
  CHECK(s.periodicity == Periodicity::SlowlyConverging);
  CHECK(s.period == 1);

  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  const Synthetic noise{[&](int) { return std::array<double, 4>{u(rng), u(rng), u(rng), 1}; }};
  s = detect(noise, fixed_mode());
  CHECK(s.periodicity == Periodicity::NotConverged);
  CHECK(s.period == 0);
}

TEST_CASE("the fixed-mode window is the last window_periods periods", "[analysis]") {
  const Synthetic constant{[](int) { return std::array<double, 4>{0.3, 0.1, 0.01, 1}; }};
  int run = 0;
  const auto s = detect(constant, fixed_mode(), &run);
  CHECK(run == 100);
  CHECK(s.window_periods() == 50);
  CHECK(s.window.front().period == 50);
  CHECK(s.window.back().period == 100);
  CHECK_FALSE(s.stopped_early);
}

TEST_CASE("adaptive mode stops a fast-converging orbit early, with the same answer", "[analysis]") {
  const Synthetic fast{[](int k) {
    return std::array<double, 4>{0.2 + std::pow(0.3, k), 0.0, 0.01 + 0.01 * std::pow(0.3, k), 1};
  }};
  int run = 0;
  const auto adaptive = detect(fast, SteadyStateSettings{}, &run);
  const auto fixed = detect(fast, fixed_mode());
  CHECK(adaptive.stopped_early);
  CHECK(run < 40);
  CHECK(adaptive.period == fixed.period);
  CHECK(adaptive.drift_velocity(1.0) == Approx(fixed.drift_velocity(1.0)).margin(1e-6));
  CHECK(adaptive.window_periods() % adaptive.period == 0);
}

TEST_CASE("adaptive mode does not stop a slowly contracting orbit whose small steps still add up", "[analysis]") {
  // Differences of 1e-7 per period, but contracting only by 0.999: 1e-4 of drift is still to come.
  const Synthetic creeping{[](int k) {
    return std::array<double, 4>{0.2 + 1e-4 * std::pow(0.999, k), 0.0, 0.01, 1};
  }};
  int run = 0;
  const auto s = detect(creeping, SteadyStateSettings{}, &run);
  CHECK_FALSE(s.stopped_early);
  CHECK(run == 100);
}

TEST_CASE("a period-4 orbit is stopped with a window of whole orbits", "[analysis]") {
  const Synthetic four{[](int k) { return std::array<double, 4>{0.1 * (k % 4), 0.0, 0.005 * (k % 4), 1}; }};
  int run = 0;
  const auto s = detect(four, SteadyStateSettings{}, &run);
  CHECK(s.stopped_early);
  CHECK(s.period == 4);
  CHECK(s.window_periods() % 4 == 0);
  CHECK(s.drift_velocity(1.0) == Approx(0.0075));
}

TEST_CASE("linear transients are jumped to their exact limit: rho > 0, rho < 0, two real modes, a spiral",
          "[analysis]") {
  // Every transient converges to (0.2, 0.5).
  auto geometric = [](double rho) {
    return Synthetic{[rho](int k) {
      return std::array<double, 4>{0.2 + 0.1 * std::pow(rho, k), 0.5 - 0.05 * std::pow(rho, k), 0.01, 1};
    }};
  };
  const std::vector<Synthetic> transients{
      geometric(0.9), geometric(-0.93),
      Synthetic{[](int k) { return std::array<double, 4>{0.2 + 0.1 * std::pow(0.9, k), 0.5 + 0.1 * std::pow(0.7, k), 0.01, 1}; }},
      Synthetic{[](int k) {
        const double r = 0.1 * std::pow(0.85, k);  // a complex pair of modulus 0.85
        return std::array<double, 4>{0.2 + r * std::cos(0.5 * k), 0.5 + r * std::sin(0.5 * k), 0.01, 1};
      }}};
  for (const auto& transient : transients) {
    const StrobeLayout layout = unit_layout();
    SteadyStateDetector detector(layout, SteadyStateSettings{});
    int seen = 0;
    for (const auto& sample : transient.samples(100)) {
      ++seen;
      if (!detector.on_sample(sample)) break;
    }
    REQUIRE(detector.jump_target() != nullptr);
    CHECK(seen < 12);
    CHECK(detector.jump_target()->state[0] == Approx(0.2).margin(1e-12));
    CHECK(detector.jump_target()->state[1] == Approx(0.5).margin(1e-12));
    detector.jump_done(true);
    CHECK(detector.jumps() == 1);
    CHECK(detector.jump_target() == nullptr);
  }
}

TEST_CASE("no jump when the differences follow no low-degree recurrence (three modes of similar size)", "[analysis]") {
  // Modes 0.9, 0.8 and 0.7 in the two states and the drift increment: no polynomial of degree <= 2
  // annihilates the differences, so no extrapolation is trusted.
  const Synthetic three_modes{[](int k) {
    return std::array<double, 4>{0.2 + 0.1 * std::pow(0.9, k), 0.5 + 0.1 * std::pow(0.8, k), 0.01 + 0.1 * std::pow(0.7, k), 1};
  }};
  const StrobeLayout layout = unit_layout();
  SteadyStateDetector detector(layout, SteadyStateSettings{});
  for (const auto& sample : three_modes.samples(14)) detector.on_sample(sample);
  CHECK(detector.jump_target() == nullptr);
}

TEST_CASE("near a flip, a slow approach to period 1 is not a period-2 orbit, a period-2 orbit stays apart",
          "[analysis]") {
  SteadyStateSettings settings = fixed_mode();
  settings.max_periods = 1000;
  // x_k = 0.2 + c mu^k with mu = -0.9956: over the last 50 periods, samples two apart differ by
  // under 1e-4 (a period-2 test passes), samples one apart by about 0.01, closing in on each other.
  const double mu = -0.9956;
  const Synthetic flip{[&](int k) { return std::array<double, 4>{0.2 + 0.33 * std::pow(mu, k), 0.1, 0.01, 1}; }};
  SteadyState s = detect(flip, settings);
  CHECK(s.periodicity == Periodicity::SlowlyConverging);
  CHECK(s.period == 1);
  // The doubled orbit, approached slowly along another direction: its points stay 0.02 apart.
  const Synthetic doubled{[&](int k) {
    return std::array<double, 4>{0.2 + 0.01 * (k % 2 ? 1 : -1) + 0.05 * std::pow(0.995, k), 0.1, 0.01, 1};
  }};
  s = detect(doubled, settings);
  CHECK(s.periodicity == Periodicity::Periodic);
  CHECK(s.period == 2);
}

TEST_CASE("collapsing gap: geometric decay to 0 with its multiplier, a positive limit or a constant gap is not",
          "[analysis]") {
  std::vector<double> gap, offset, constant(51, 0.02);
  for (int i = 0; i < 51; ++i) {
    gap.push_back(0.01 * std::pow(0.9956, i));
    offset.push_back(0.02 + 0.01 * std::pow(0.97, i));
  }
  const CollapsingGap c = collapsing_gap(gap, 1);
  CHECK(c.collapsing);
  CHECK(c.multiplier == Approx(-0.9956).margin(1e-6));
  CHECK(collapsing_gap(gap, 2).multiplier == Approx(-0.9956 * 0.9956).margin(1e-6));  // per two periods
  CHECK_FALSE(collapsing_gap(offset, 1).collapsing);
  CHECK_FALSE(collapsing_gap(constant, 1).collapsing);
  CHECK_FALSE(collapsing_gap({0.1, 0.05, 0.02}, 1).collapsing);  // too short to tell
}

TEST_CASE("a period-6 orbit in a short window is period 6, not a slow approach to period 3", "[analysis]") {
  // The conveyor's P6 orbit at c_r = 0.8, a_hat = 57 (h, u in scales): 19 samples, as an adaptive stop
  // leaves them. The gaps between samples 3 apart repeat with period 3; thirds of 5 gaps cut that
  // pattern at three phases and their means fell, which read as a gap collapsing to 0.
  const double h[6] = {9.3914, 0.20945, 1.96631, 10.40571, 1.06981, 0.53674};
  const double u[6] = {-2.78448, 2.21316, -4.07003, -2.42374, -1.92645, -4.10609};
  const Synthetic six{[&](int k) { return std::array<double, 4>{h[k % 6], u[k % 6], 0.05, 1}; }};
  SteadyState s;
  s.window = six.samples(19);
  classify_window(s, unit_layout(), SteadyStateSettings{});
  CHECK(s.periodicity == Periodicity::Periodic);
  CHECK(s.period == 6);
  // The gap pattern alone: constant over whole periods of 3, whatever the phase its thirds would start at.
  std::vector<double> gap;
  for (int i = 0; i < 15; ++i) gap.push_back(3.0 - i % 3);
  CHECK_FALSE(collapsing_gap(gap, 3).collapsing);
  CHECK_FALSE(growing_gap(std::vector<double>{1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0}, 3));
}

TEST_CASE("a window that jumps onto an orbit is no gap collapsing towards half its period", "[analysis]") {
  // The conveyor at c_r = 0.6, a_hat = 70 (scales): a 51-sample window whose samples 3 apart differ by
  // the pattern below, which changes when the window jumps onto the M6 orbit (its samples 6 apart then
  // agree); no value of the pattern shrinks, yet its thirds' means fall. Run on to 2000 periods the case
  // ends on M6: it is not a slow approach to period 3.
  std::vector<double> gap;
  const double before[6] = {0.586, 0.0678, 0.1014, 0.586, 0.2786, 0.1499};
  for (int i = 0; i < 32; ++i) gap.push_back(before[i % 6]);
  const double after[3] = {0.1403, 0.586, 0.0678};
  for (int i = 0; i < 16; ++i) gap.push_back(i == 0 ? after[0] : i % 3 == 1 ? after[1] : i % 3 == 2 ? after[2] : 0.1499);
  CHECK_FALSE(collapsing_gap(gap, 3).collapsing);
  // A geometric collapse of a period-3 pattern of those values is one.
  std::vector<double> shrinking;
  for (int i = 0; i < 48; ++i) shrinking.push_back(before[i % 3] * std::pow(0.97, i / 3));
  CHECK(collapsing_gap(shrinking, 3).collapsing);
}

TEST_CASE("a window that departs slowly from an unstable orbit is not converged, though a period test passes",
          "[analysis]") {
  SteadyStateSettings settings = fixed_mode();
  settings.max_periods = 1000;
  // Just past a flip: x_k = 0.2 + c mu^k with mu = -1.0009: samples two apart differ by under 1e-4
  // and that difference grows over the window.
  const Synthetic departing{[](int k) { return std::array<double, 4>{0.2 + 1e-3 * std::pow(-1.0009, k), 0.1, 0.01, 1}; }};
  const SteadyState s = detect(departing, settings);
  CHECK(s.periodicity == Periodicity::NotConverged);
  CHECK(s.period == 0);
  CHECK(growing_gap(std::vector<double>{1.0, 1.0, 1.0, 1.01, 1.01, 1.01, 1.02, 1.02, 1.02}));
  CHECK_FALSE(growing_gap(std::vector<double>(9, 1.0)));
}
