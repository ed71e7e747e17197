// The surrogate's mean axial force F_x(x_C) at 130 Hz (spec beam_slider.md R12, Fig. 11a):
// - cross-check with the spec's own prototype (section 7, an independent implementation of the same
//   spec): with its solver setting (atol 1e-7) and protocol (4 s, mean over the last 1.6 s) the table
//   of section 7 is reproduced: every sign, the magnitudes away from the zero within a factor 1.5;
// - the model's mirror symmetry: with a tight solver F_x(l - x) = -F_x(x), which shows that F_x > 0 just
//   right of the centre is the model's, not noise (the centre repels at 130 Hz).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "beam_slider/sweep_cases.hpp"

using vibro::test_support::run;

namespace {
constexpr int kEnergy = 3, kFx = 10;
// Held at x_C0 (the axis), 130 Hz; the [numerics] section follows.
const std::string kSurrogate130 = "model = beam_slider\n[parameters]\nvariant = surrogate\nf = 130\n[numerics]\n";
}

TEST_CASE("R12 cross-check: the surrogate's F_x at 130 Hz matches the spec prototype's table", "[beam_slider]") {
  const auto cases = run(kSurrogate130 + R"(solver_atol = 1e-7
[axes]
x_C0 = 0.55, 0.6, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8
[run]
steady_state = fixed
max_periods = 520
window_periods = 208
)", "x_C0");
  // Spec section 7: F_x [N] at the same x_C / l (two digits).
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

TEST_CASE("The surrogate's mean axial force is odd about the centre; at 130 Hz it pushes away from it",
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
