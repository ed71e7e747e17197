// The surrogate's mean axial force F_x(x_C) at 130 Hz (Krack et al. 2017, Fig. 11a):
// - cross-check with a separate prototype (a separate implementation of the same model): with its solver setting (atol 1e-7) and protocol (4 s, mean over the last 1.6 s) the table
//   of section 7 is reproduced: every sign, the magnitudes away from the zero within a factor 1.5;
// - the model's mirror symmetry: with a tight solver F_x(l - x) = -F_x(x), which shows that F_x > 0 just
//   right of the centre is the model's, not noise (the centre repels at 130 Hz);
// - R12 as restated for the paper's printed Eq. (6) (base_load = off), at dt and dt/2, and the centre
//   repelling at 130 and 180 Hz under it (docs/models/beam_slider.md).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "beam_slider/sweep_cases.hpp"

using vibro::test_support::run;

namespace {
constexpr int kEnergy = 3, kFx = 10, kUnconverged = 12;
// Held at x_C0 (the axis), 130 Hz; the [numerics] section follows.
const std::string kSurrogate130 = "model = beam_slider\n[parameters]\nvariant = surrogate\nf = 130\n[numerics]\n";
// The surrogate under the paper's printed Eq. (6), and the 4 s run (mean over the last 2 s) of the figure.
const std::string kSurrogatePrinted = "model = beam_slider\n[parameters]\nvariant = surrogate\nbase_load = off\n";
const std::string kRun4s = "[run]\nsteady_state = fixed\nmax_periods = 520\nwindow_periods = 260\n";
}

TEST_CASE("R12 cross-check: the surrogate's F_x at 130 Hz matches the separate prototype's table", "[beam_slider]") {
  const auto cases = run(kSurrogate130 + R"(solver_atol = 1e-7
[axes]
x_C0 = 0.55, 0.6, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8
[run]
steady_state = fixed
max_periods = 520
window_periods = 208
)", "x_C0");
  // The separate prototype's F_x [N] at the same x_C / l (two digits).
  const std::vector<double> prototype = {8.6e-5, 1.2e-4, 4.2e-4, 4.0e-4, 2.7e-4, -1.3e-3, -4.4e-2, -3.7e-2};
  REQUIRE(cases.size() == prototype.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double x = cases[i].axis_value, F = cases[i].observables[kFx];
    INFO("x_C = " << x << " l: F_x = " << F << " N, prototype " << prototype[i]);
    // Same sign everywhere, so the stable zero lies in (0.74, 0.76) l as the prototype's. The motion is
    // not periodic and the window short: perturbing the solver's rtol or atol by 1-10 % moves F_x by up to
    // 28 % at these points (measured), and by up to 60 % at 0.74 / 0.76 l, next to the zero, where only
    // the sign is compared. Elsewhere the magnitude within a factor 1.5.
    CHECK(F * prototype[i] > 0);
    if (std::abs(x - 0.75) > 0.015) {
      CHECK(std::abs(F) <= 1.5 * std::abs(prototype[i]));
      CHECK(std::abs(F) >= std::abs(prototype[i]) / 1.5);
    }
  }
  // The energies the prototype quotes: 1.9e-5 J at 0.74 l, 9.4e-4 J at 0.78 l.
  CHECK(cases[4].observables[kEnergy] == Approx(1.9e-5).epsilon(0.1));
  CHECK(cases[6].observables[kEnergy] == Approx(9.4e-4).epsilon(0.1));
}

TEST_CASE("The surrogate's mean axial force is odd about the centre, at 130 Hz it pushes away from it",
          "[beam_slider]") {
  // A tight solver: the Gauss-Seidel sweep order (P1..P4) is not mirror-symmetric, a converged solution is.
  const auto cases = run(kSurrogate130 + R"(solver_rtol = 1e-10
solver_atol = 1e-16
solver_max_sweeps = 100000
[axes]
x_C0 = 0.495, 0.5, 0.505
[run]
steady_state = fixed
max_periods = 520
window_periods = 260
)", "x_C0");
  REQUIRE(cases.size() == 3);
  const double left = cases[0].observables[kFx], centre = cases[1].observables[kFx], right = cases[2].observables[kFx];
  INFO("F_x(0.495 / 0.5 / 0.505 l) = " << left << " / " << centre << " / " << right << " N");
  CHECK(std::abs(left + right) <= 1e-3 * std::abs(right));
  // Not asserted: F_x(l/2) itself. Its symmetric motion is unstable, so whether it stays symmetric over
  // 4 s depends on rounding (measured -2e-11 N at solver rtol 1e-10, -1.8e-5 N at 3e-10), while the two
  // mirrored cases agree to 5 digits at rtol 5e-11 .. 2e-10 and atol 1e-16 .. 1e-15.
  // Measured 2.0e-5 N here (3.4e-5 over 8 s, 4.4e-5 / 3.1e-5 at dt/2 / dt/4): the centre repels, so this
  // model has no unstable zero in (0.5, 0.56] l (docs/models/beam_slider.md, R12).
  CHECK(right > 1e-5);
}

TEST_CASE("R12 under the paper's printed Eq. (6): at 130 Hz, at dt and dt/2, F_x > 0 on 0.56-0.70 l, a stable zero "
          "in [0.72, 0.78] l, F_x < 0 on 0.76-0.80 l, 10x stronger outside, odd about the centre",
          "[beam_slider]") {
  const auto cases = run(kSurrogatePrinted + R"(f = 130
[axes]
steps_per_mode = 5, 10
x_C0 = 0.48, 0.52, 0.56, 0.58, 0.6, 0.62, 0.64, 0.66, 0.68, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8
)" + kRun4s, "x_C0");
  constexpr std::size_t kPoints = 15;
  REQUIRE(cases.size() == 2 * kPoints);
  for (std::size_t step = 0; step < 2; ++step) {
    // One step size's F_x(x_C), in the axis order above.
    std::vector<double> x, F;
    for (std::size_t i = step * kPoints; i < (step + 1) * kPoints; ++i) {
      x.push_back(cases[i].axis_value);
      F.push_back(cases[i].observables[kFx]);
    }
    const auto at = [&](double xc) {
      const auto it = std::find_if(x.begin(), x.end(), [&](double v) { return std::abs(v - xc) < 1e-9; });
      REQUIRE(it != x.end());
      return F[static_cast<std::size_t>(it - x.begin())];
    };
    std::string table;
    for (std::size_t i = 0; i < x.size(); ++i) table += std::to_string(x[i]) + ": " + std::to_string(F[i]) + "\n";
    INFO((step == 0 ? "dt" : "dt/2") << ", F_x [N] at x_C / l:\n" << table);
    double inside = 0;
    bool stable_zero = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i] >= 0.56 - 1e-9 && x[i] <= 0.70 + 1e-9) CHECK(F[i] > 0);
      if (x[i] >= 0.76 - 1e-9) CHECK(F[i] < 0);
      if (x[i] >= 0.6 - 1e-9 && x[i] <= 0.7 + 1e-9) inside = std::max(inside, std::abs(F[i]));
      // F_x falling through zero between two samples inside [0.72, 0.78] l.
      if (i + 1 < x.size() && x[i] >= 0.72 - 1e-9 && x[i + 1] <= 0.78 + 1e-9 && F[i] > 0 && F[i + 1] < 0)
        stable_zero = true;
    }
    CHECK(stable_zero);
    CHECK(std::abs(at(0.78)) >= 10 * inside);
    CHECK(std::abs(at(0.48) + at(0.52)) <= 0.25 * std::abs(at(0.52)));
  }
}

TEST_CASE("Under the paper's printed Eq. (6) the centre repels at 130 and at 180 Hz: F_x(0.52 l) > 0 with a converged "
          "solver (no inner unstable zero, no centre regime above 175 Hz)",
          "[beam_slider]") {
  // The paper has a stable centre with an unstable zero just right of it at 130 Hz, and a centre regime
  // above 175 Hz; this model has neither (docs/models/beam_slider.md). Should a change of the model make
  // the centre attract, F_x just right of it turns negative and this test fails.
  const auto cases = run(kSurrogatePrinted + R"([initial]
x_C0 = 0.52
[numerics]
solver_rtol = 1e-10
solver_atol = 1e-16
solver_max_sweeps = 100000
[axes]
f = 130, 180
)" + kRun4s, "f");
  REQUIRE(cases.size() == 2);
  for (const auto& c : cases) {
    INFO(c.axis_value << " Hz: F_x(0.52 l) = " << c.observables[kFx] << " N, unconverged steps "
                      << c.observables[kUnconverged]);
    CHECK(c.observables[kUnconverged] == 0);
    CHECK(c.observables[kFx] > 0);
  }
}
