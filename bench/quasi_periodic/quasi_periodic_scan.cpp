// Scans the steady-state detector's classes on synthetic stroboscopic windows of several lengths:
// rigid rotations and a smooth distorted invariant curve with random rotation numbers (should be
// QuasiPeriodic), logistic (r = 4) and Henon orbits from random starts (must never be). Prints, per
// window length, the share of each class and the smallest discrepancy seen on chaos.
//   build/bench/quasi_periodic/quasi_periodic_scan [cases per family, default 1000]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "analysis/steady_state.hpp"
#include "analysis/weighted_birkhoff.hpp"

using namespace vibro;

namespace {

constexpr double kPi = 3.14159265358979323846;
using Point = std::array<double, 2>;

StrobeLayout unit_layout() {
  StrobeLayout layout;
  layout.state_names = {"a", "b"};
  layout.state_scales = {1.0, 1.0};
  return layout;
}

std::vector<StrobeSample> window_of(const std::vector<Point>& points) {
  std::vector<StrobeSample> w(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    w[i].state[0] = points[i][0];
    w[i].state[1] = points[i][1];
    w[i].drift_position = 0.01 * static_cast<double>(i);
  }
  return w;
}

std::vector<Point> rotation(double rho, int n, bool distorted) {
  std::vector<Point> p;
  for (int k = 0; k < n; ++k) {
    const double t = 2 * kPi * (0.1 + rho * k);
    if (!distorted) {
      p.push_back({std::cos(t), std::sin(t)});
      continue;
    }
    const double r = 1 + 0.3 * std::cos(t) + 0.1 * std::sin(2 * t);
    p.push_back({r * std::cos(t + 0.2 * std::sin(t)), 0.5 * r * std::sin(t)});
  }
  return p;
}

std::vector<Point> logistic(double x, int n) {
  std::vector<Point> p;
  for (int k = 0; k < 100 + n; ++k) {
    const double next = 4 * x * (1 - x);
    if (k >= 100) p.push_back({x, next});
    x = next;
  }
  return p;
}

std::vector<Point> henon(double x, int n) {
  std::vector<Point> p;
  double y = 0;
  for (int k = 0; k < 1000 + n; ++k) {
    const double next = 1 - 1.4 * x * x + y;
    y = 0.3 * x;
    x = next;
    if (k >= 1000) p.push_back({x, y});
  }
  return p;
}

struct Tally {
  int periodic = 0, quasi = 0, other = 0;
  double smallest = std::numeric_limits<double>::infinity();
};

Tally scan(int window, int cases, const std::function<std::vector<Point>(std::mt19937&, int)>& family) {
  std::mt19937 rng(7);
  const StrobeLayout layout = unit_layout();
  SteadyStateSettings settings;
  Tally t;
  for (int c = 0; c < cases; ++c) {
    SteadyState state;
    state.window = window_of(family(rng, window + 1));
    classify_window(state, layout, settings);
    if (state.periodicity == Periodicity::QuasiPeriodic)
      ++t.quasi;
    else if (state.periodicity == Periodicity::NotConverged)
      ++t.other;
    else
      ++t.periodic;
    t.smallest = std::min(t.smallest, birkhoff_discrepancy(state.window, layout));
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const int cases = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::uniform_real_distribution<double> half(0, 0.5), unit(0.01, 0.99), henon_start(-0.5, 0.5);
  const auto rigid = [&](std::mt19937& g, int n) { return rotation(half(g), n, false); };
  const auto curve = [&](std::mt19937& g, int n) { return rotation(half(g), n, true); };
  const auto logi = [&](std::mt19937& g, int n) { return logistic(unit(g), n); };
  const auto hen = [&](std::mt19937& g, int n) { return henon(henon_start(g), n); };
  std::printf("quasi_tol = %g, quasi_min_window = %d, %d cases per family (rotation numbers uniform in (0, 0.5))\n",
              SteadyStateSettings{}.quasi_tol, SteadyStateSettings{}.quasi_min_window, cases);
  std::printf("%7s | %-24s | %-24s | %-28s | %-28s\n", "window", "rotation: Q / P / X", "distorted curve: Q / P / X",
              "logistic: Q, min discrepancy", "Henon: Q, min discrepancy");
  for (const int window : {50, 100, 200, 400, 1000, 2000}) {
    const Tally r = scan(window, cases, rigid), d = scan(window, cases, curve);
    const Tally l = scan(window, cases, logi), h = scan(window, cases, hen);
    const auto share = [cases](int k) { return 100.0 * k / cases; };
    std::printf(
        "%7d | %5.1f%% / %4.1f%% / %5.1f%% | %5.1f%% / %4.1f%% / %5.1f%% | %5.1f%%, %-20.2e | %5.1f%%, %-20.2e\n",
        window, share(r.quasi), share(r.periodic), share(r.other), share(d.quasi), share(d.periodic), share(d.other),
        share(l.quasi), l.smallest, share(h.quasi), h.smallest);
  }
}
