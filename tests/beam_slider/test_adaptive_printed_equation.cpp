// The free slider under the paper's printed Eq. (6) (base_load = off, as every example that reproduces a
// figure runs it): R4 (125 Hz, Figs. 3b-5b) and R15 (the sine sweeps of Fig. 13), as restated in
// docs/models/beam_slider.md.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "beam_slider/sweep_cases.hpp"

using namespace vibro;

namespace {
using test_support::Case;
using test_support::adaptive_case;
using test_support::run_example;

constexpr int kXMean = 0, kXFinal = 1, kP1 = 6, kP2 = 7, kP3 = 8, kP4 = 9;

// R4's checks on one run: the window's mean location in [0.70, 0.80] l, P3 the least in contact.
void check_R4(const Case& c) {
  const auto& o = c.observables;
  INFO("x_C_mean = " << o[kXMean] << " l, P1..P4 = " << o[kP1] << " / " << o[kP2] << " / " << o[kP3] << " / "
                     << o[kP4]);
  CHECK(o[kXMean] >= 0.70);
  CHECK(o[kXMean] <= 0.80);
  CHECK(o[kP3] < std::min({o[kP1], o[kP2], o[kP4]}));
}
}  // namespace

TEST_CASE("R4: at 125 Hz the slider from 0.6 l drifts out to [0.70, 0.80] l (mean over 30-40 s), P3 least in "
          "contact",
          "[beam_slider]") {
  // Measured 0.714 l; it passes 0.695 l only at about 20 s (the drift from 0.6 l is slow).
  const Case c = adaptive_case("f = 125\nbase_load = off\n", 0.6,
                               "max_periods = 5000\nwindow_periods = 1250\nsteady_state = fixed\n");
  check_R4(c);  // the window is 30-40 s
}

TEST_CASE("R4: at 125 Hz the slider from 0.8 l settles in [0.70, 0.80] l (mean over 8-10 s) at dt and dt/2, P3 "
          "least in contact",
          "[beam_slider]") {
  // With the modal base load (base_load = on) the same runs creep on to 0.65 l (docs/models/beam_slider.md).
  for (const char* steps_per_mode : {"5", "10"}) {
    const Case c = adaptive_case(std::string("f = 125\nbase_load = off\n[numerics]\nsteps_per_mode = ") +
                                     steps_per_mode + "\n",
                                 0.8, "max_periods = 1250\nwindow_periods = 250\nsteady_state = fixed\n");
    INFO("steps_per_mode = " << steps_per_mode << ", window 8-10 s");
    check_R4(c);
  }
}

TEST_CASE("R15: the shipped Fig. 13 sweeps: up ends within 0.05 l of the centre, down goes out beyond 0.6 l in "
          "110-150 Hz and ends at the centre",
          "[beam_slider]") {
  const auto up = run_example("beam_slider_fig13_up.ini", {}, "f");
  const auto down = run_example("beam_slider_fig13_down.ini", {}, "f");
  REQUIRE(up.size() == 81);
  REQUIRE(down.size() == 81);
  const auto at = [](const std::vector<Case>& cases, double f) {
    return *std::find_if(cases.begin(), cases.end(), [f](const Case& c) { return std::abs(c.axis_value - f) < 0.5; });
  };
  // The up-sweep's last step is 150 Hz; measured 0.456 l there (the slider reaches the centre at
  // about 88 Hz and drifts slowly left above 115 Hz).
  const double up_end = at(up, 150).observables[kXFinal];
  INFO("up-sweep: x_C(150 Hz) = " << up_end << " l, x_C(100 Hz) = " << at(up, 100).observables[kXMean]);
  CHECK(std::abs(up_end - 0.5) <= 0.05);
  CHECK(std::abs(at(up, 100).observables[kXMean] - 0.5) < 0.02);  // near the centre after passing 85 Hz
  // Down: from 0.6 l at 150 Hz out to about 0.71 l near 120 Hz, back to the centre before 85 Hz.
  double farthest = 0;
  for (const auto& c : down)
    if (c.axis_value >= 110) farthest = std::max(farthest, c.observables[kXMean]);
  const double down_end = at(down, 70).observables[kXFinal];
  INFO("down-sweep: largest x_C_mean in 110-150 Hz = " << farthest << " l, x_C(70 Hz) = " << down_end << " l");
  CHECK(farthest > 0.6);
  CHECK(std::abs(down_end - 0.5) < 0.02);
}
