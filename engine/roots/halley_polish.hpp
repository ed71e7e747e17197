#pragma once
// The root of a function proved strictly decreasing on [a, b] (g(a) > 0 >= g(b)), to a relative
// accuracy rtol, by Halley steps (Newton's method with the second derivative: cubic convergence) kept
// inside the bracket. certified_first_root's functions give g' and g'' with every value, so a root
// costs about three evaluations where TOMS 748, on values alone, took seven (on the conveyor's Fig. 6
// study, 100 periods: 6.17 evaluations an impact, the proof of the flight's first stretch included,
// against 7.23 with Newton steps and 10.37 with TOMS 748; a 300-period run of it took 0.58x the CPU
// time of TOMS 748's).
//
// Safeguards (as in rtsafe, Press et al., "Numerical Recipes", Section 9.4): a step that would leave
// the bracket, that goes uphill (g' >= 0 from rounding), or that is not at most half the step before it
// is replaced by bisection, so the bracket shrinks at least geometrically; where Halley's denominator
// is not positive the step is Newton's. The iterates converge from one side; once a step is below the
// accuracy asked for, the next point is put just past the root so that the bracket closes.
//
// Returns the bracket's upper end b (g(b) <= 0: the far side of zero), so that a search restarted
// there cannot find the same root again. Host-and-device (engine/core/host_device.hpp), and + - * /
// and fabs only: the same bits on a CPU and a GPU.
#include <cmath>

#include "engine/core/host_device.hpp"

namespace vibro {

// g, g', g'' at one point (what certified_first_root's functions return).
struct Derivs {
  double g, g1, g2;
};

namespace halley_polish_detail {
// Halley's step from d for a decreasing g, Newton's where Halley's denominator is not positive;
// `uphill` where g' >= 0 (no step can be trusted there).
VIBRO_HD inline double halley_step(const Derivs& d, double uphill) {
  if (!(d.g1 < 0)) return uphill;
  const double denominator = 2 * d.g1 * d.g1 - d.g * d.g2;
  return denominator > 0 ? -2 * d.g * d.g1 / denominator : -d.g / d.g1;
}
}  // namespace halley_polish_detail

// Tolerance: double, or a type whose value converts to one (certified_first_root's Settings).
template <class Fn, class Tolerance = double>
VIBRO_HD double halley_root_far_side(Fn& fn, double a, double b, const Derivs& at_a, const Derivs& at_b, Tolerance rtol,
                                     int& evaluations) {
  const double floor_abs = 1e-300;
  constexpr int kMaxEvaluations = 200;  // a bound on the loop whatever fn does (measured: at most 9)
  auto narrow = [&] { return b - a <= rtol * std::fabs(b) + floor_abs; };
  if (narrow()) return b;
  // The first step from the end whose own step is the shorter: the nearer to the root.
  using halley_polish_detail::halley_step;
  const double from_a = halley_step(at_a, b - a);
  const double from_b = halley_step(at_b, a - b);
  double x = std::fabs(from_a) <= std::fabs(from_b) ? a + from_a : b + from_b;
  double previous_step = b - a;
  for (int k = 0; k < kMaxEvaluations; ++k) {
    if (!(x > a && x < b)) x = 0.5 * (a + b);
    const Derivs d = fn(x);
    ++evaluations;
    if (d.g > 0) {
      a = x;
    } else {
      b = x;
      if (d.g == 0) return b;  // the root itself (unique: g is strictly decreasing)
    }
    if (narrow()) return b;
    // Closing the bracket: a step below half the accuracy asked for lands within rounding of the root,
    // on x's side of it (or on x itself, below x's last bit). Half of that accuracy more puts the
    // point past the root, and the bracket [x, point] (or [point, x]) is then narrower than rtol |b|.
    // The halving test is on the method's own step: the closing push may be longer than a step that
    // is already converged.
    const double own_step = halley_step(d, 0);
    double step = own_step;
    const double close = 0.5 * rtol * std::fabs(x);
    if (std::fabs(step) < close) step += d.g > 0 ? 0.5 * close : -0.5 * close;
    const double next = x + step;
    if (!(d.g1 < 0 && next > a && next < b && std::fabs(own_step) <= 0.5 * std::fabs(previous_step))) {
      previous_step = 0.5 * (b - a);
      x = a + previous_step;
      continue;
    }
    previous_step = own_step;
    x = next;
  }
  return b;
}

}  // namespace vibro
