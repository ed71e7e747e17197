#pragma once
// Windows of stroboscopic samples of every kind the steady-state window tests tell apart, on a
// four-component layout (one of them an angle) with two counters: exact period-k orbits, geometric
// approaches, slow departures, a period-2 pattern collapsing onto period 1, chaos, NaN states and
// rotations on a circle. Each window is the samples of one case, first to last.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"

namespace vibro::test_support {

inline StrobeLayout four_component_layout() {
  StrobeLayout layout;
  layout.state_names = {"x", "v", "y", "phi"};
  layout.state_scales = {1.0, 0.5, 2e-3, 1.0};
  layout.angular = {false, false, false, true};
  layout.drift_scale = 0.25;
  layout.period = 0.1;
  layout.counter_names = {"impacts", "sticks"};
  return layout;
}

struct SampleWindow {
  std::string name;
  std::vector<StrobeSample> samples;
};

// A window of n samples whose state at sample i is state(i) (4 values), drift increment over the
// period before sample i drift_step(i), and counter increments events(i) (2 values).
template <class State, class Step, class Events>
SampleWindow make_window(std::string name, int n, State state, Step drift_step, Events events) {
  SampleWindow w{std::move(name), {}};
  double drift = 0.75;
  std::int64_t counts[2] = {3, 11};
  for (int i = 0; i < n; ++i) {
    StrobeSample s;
    s.period = 100 + i;
    const auto x = state(i);
    for (int c = 0; c < 4; ++c) s.state[static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c)];
    drift += drift_step(i);
    s.drift_position = drift;
    const auto e = events(i);
    counts[0] += e[0];
    counts[1] += e[1];
    s.counters[0] = counts[0];
    s.counters[1] = counts[1];
    w.samples.push_back(s);
  }
  return w;
}

// 1e-07 (std::to_string writes 0.000000).
inline std::string scientific(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0e", v);
  return text;
}

inline std::vector<SampleWindow> window_families() {
  constexpr double kPi = 3.14159265358979323846;
  const double golden = (std::sqrt(5.0) - 1) / 2;
  const int n = 51;  // the default window: 50 periods
  using S = std::array<double, 4>;
  using E = std::array<std::int64_t, 2>;
  std::vector<SampleWindow> out;
  // Exact period-k orbits, k = 1 .. 20 (17 .. 20 are longer than the longest period searched), with
  // phases that differ in one component at a time, and counters that do or do not divide evenly.
  for (int k = 1; k <= 20; ++k)
    for (int component = 0; component < 4; ++component)
      out.push_back(make_window(
          "period " + std::to_string(k) + " in component " + std::to_string(component), n,
          [=](int i) {
            S x{0.3, -0.2, 1e-3, 2.0};
            x[static_cast<std::size_t>(component)] += 0.1 * std::sin(1.0 + 2.3 * (i % k));
            return x;
          },
          [=](int i) { return 0.01 + (component == 0 ? 0.001 * (i % k) : 0.0); },
          [=](int i) { return E{i % k == 0 ? 1 : 0, i % 3 == 0 ? 1 : 0}; }));
  // Period 3 told apart by the drift increments alone.
  out.push_back(make_window(
      "period 3 in the drift", n, [](int) { return S{0.1, 0.2, 0.0, 1.0}; },
      [](int i) { return i % 3 == 0 ? 0.05 : 0.01; }, [](int) { return E{1, 0}; }));
  // Geometric approaches to a fixed point and to period-2 and period-3 orbits, at several rates and
  // stages (the window starting `offset` periods into the approach).
  for (const double rho : {0.3, 0.6, 0.8, 0.9, 0.93, 0.97, 0.99, 0.999})
    for (const int offset : {0, 40, 150})
      for (const int k : {1, 2, 3}) {
        const double amp = 0.05;
        out.push_back(make_window(
            "approach rho " + std::to_string(rho) + " offset " + std::to_string(offset) + " period " + std::to_string(k),
            n,
            [=](int i) {
              const double d = amp * std::pow(rho, i + offset);
              return S{0.4 + 0.1 * (i % k) + d, -0.1 - 0.5 * d, 1e-3 * (1 + d), 0.5 + d};
            },
            [=](int i) { return 0.02 + 0.1 * amp * std::pow(rho, i + offset); },
            [=](int i) { return E{i % k == 0 ? 2 : 0, 1}; }));
      }
  // Slow departures from an unstable fixed point (the gaps grow): a period test passes at first.
  for (const double growth : {1.01, 1.03, 1.06})
    for (const double start : {1e-8, 1e-7, 1e-6})
      out.push_back(make_window(
          "departure x" + std::to_string(growth) + " from " + scientific(start), n,
          [=](int i) {
            const double d = start * std::pow(growth, i);
            return S{0.2 + d, 0.1 - d, 1e-3, 1.0 + d};
          },
          [](int) { return 0.01; }, [](int) { return E{1, 0}; }));
  // A period-2 pattern collapsing onto period 1 (a multiplier near -1), and a period-4 pattern
  // collapsing onto period 2; and a genuine period-2 orbit approached slowly (stays apart).
  for (const double mu : {-0.9, -0.97, -0.99, -0.995, -0.999}) {
    out.push_back(make_window(
        "flip collapse mu " + std::to_string(mu), n,
        [=](int i) {
          const double d = 1e-3 * std::pow(mu, i);
          return S{0.3 + d, 0.2 - d, 1e-3 + 1e-6 * d, 2.0};
        },
        [](int) { return 0.01; }, [](int) { return E{1, 0}; }));
    out.push_back(make_window(
        "flip collapse onto period 2, mu " + std::to_string(mu), n,
        [=](int i) {
          const double d = 1e-3 * std::pow(-mu, i / 2) * (i % 4 < 2 ? 1 : -1);
          return S{0.3 + 0.05 * (i % 2) + d, 0.2, 1e-3, 2.0 - d};
        },
        [](int i) { return i % 2 ? 0.01 : 0.02; }, [](int) { return E{1, 0}; }));
    out.push_back(make_window(
        "period 2 approached, mu " + std::to_string(mu), n,
        [=](int i) {
          const double d = 1e-3 * std::pow(-mu, i);
          return S{0.3 + (i % 2 ? 0.01 : -0.01) + d, 0.2, 1e-3, 2.0};
        },
        [](int) { return 0.01; }, [](int) { return E{1, 0}; }));
  }
  // Chaos: the logistic map at several parameters (periodic windows among them), and noise.
  for (const double r : {3.2, 3.5, 3.56, 3.7, 3.83, 3.9, 4.0}) {
    std::vector<double> x{0.123};
    for (int i = 0; i < 600 + n; ++i) x.push_back(r * x.back() * (1 - x.back()));
    out.push_back(make_window(
        "logistic r " + std::to_string(r), n,
        [=](int i) { return S{x[static_cast<std::size_t>(600 + i)], 0.5 * x[static_cast<std::size_t>(601 + i)], 1e-3, 0.0}; },
        [=](int i) { return 0.01 * x[static_cast<std::size_t>(600 + i)]; }, [](int) { return E{1, 1}; }));
  }
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0, 1);
  for (int w = 0; w < 5; ++w) {
    std::vector<double> noise(4 * n);
    for (double& v : noise) v = u(rng);
    out.push_back(make_window(
        "noise " + std::to_string(w), n,
        [=](int i) { return S{noise[4 * i], noise[4 * i + 1], 1e-3 * noise[4 * i + 2], 6 * noise[4 * i + 3]}; },
        [=](int i) { return noise[4 * i] * 1e-2; }, [](int) { return E{1, 0}; }));
  }
  // NaN states: at one sample of a periodic orbit, everywhere, in the drift.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const int at : {0, 10, 25, 49, 50})
    out.push_back(make_window(
        "period 2 with a NaN at " + std::to_string(at), n,
        [=](int i) { return S{i == at ? nan : 0.1 * (i % 2), 0.2, 1e-3, 1.0}; }, [](int) { return 0.01; },
        [](int) { return E{1, 0}; }));
  out.push_back(make_window(
      "all NaN", n, [=](int) { return S{nan, nan, nan, nan}; }, [=](int) { return nan; }, [](int) { return E{0, 0}; }));
  out.push_back(make_window(
      "NaN drift", n, [](int) { return S{0.1, 0.2, 1e-3, 1.0}; }, [=](int i) { return i == 30 ? nan : 0.01; },
      [](int) { return E{1, 0}; }));
  // Rotations on a circle (quasi-periodic), over windows long enough for the Birkhoff test, in a plain
  // component pair and in an angle; a rational rotation (period 7) and a long period (23) among them.
  for (const int periods : {60, 120, 200})
    for (const double rotation : {golden, std::sqrt(2.0) - 1, 1.0 / 7.0, 5.0 / 23.0})
      out.push_back(make_window(
          "rotation " + std::to_string(rotation) + " over " + std::to_string(periods), periods + 1,
          [=](int i) {
            const double theta = 2 * kPi * (0.1 + rotation * i);
            return S{0.3 + 0.1 * std::cos(theta), 0.1 * std::sin(theta), 1e-3, std::fmod(theta, 2 * kPi)};
          },
          [=](int i) { return 0.01 + 0.001 * std::cos(2 * kPi * (0.1 + rotation * i)); }, [](int) { return E{1, 0}; }));
  // Chaos over the long windows too (no torus).
  {
    std::vector<double> x{0.321};
    for (int i = 0; i < 800; ++i) x.push_back(3.9 * x.back() * (1 - x.back()));
    out.push_back(make_window(
        "logistic over 200", 201, [=](int i) { return S{x[static_cast<std::size_t>(500 + i)], 0.0, 1e-3, 1.0}; },
        [](int) { return 0.01; }, [](int) { return E{1, 0}; }));
  }
  return out;
}

}  // namespace vibro::test_support
