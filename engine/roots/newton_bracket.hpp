#pragma once
// The root of a function proved strictly decreasing on [a, b] (g(a) > 0 >= g(b)), to a relative
// accuracy rtol, by Newton steps kept inside the bracket. certified_first_root's functions give g' with
// every value, so this needs about four evaluations a root where TOMS 748, on values alone, took seven
// (the conveyor's Fig. 6 study: 4.08 against 7.07 a root; a 300-period run of it took 0.61x the CPU time).
//
// Safeguards (as in rtsafe, Press et al., "Numerical Recipes", Section 9.4): a Newton step that would
// leave the bracket, that goes uphill (g' >= 0 from rounding), or that is not at most half the step
// before it is replaced by bisection, so the bracket shrinks at least geometrically. Newton converges
// from one side; once its step is below the accuracy asked for, the next point is put just past the
// root so that the bracket closes.
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

template <class Fn>
VIBRO_HD double newton_root_far_side(Fn& fn, double a, double b, const Derivs& at_a, const Derivs& at_b, double rtol,
                                     int& evaluations) {
  const double floor_abs = 1e-300;
  constexpr int kMaxEvaluations = 200;  // bisection alone reaches any double bracket's width in < 2100 / 2
  auto narrow = [&] { return b - a <= rtol * std::fabs(b) + floor_abs; };
  if (narrow()) return b;
  // The first step from the end whose Newton step is the shorter: the nearer to the root.
  const double from_a = at_a.g1 < 0 ? -at_a.g / at_a.g1 : b - a;
  const double from_b = at_b.g1 < 0 ? -at_b.g / at_b.g1 : a - b;
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
    // The halving test is on Newton's own step: the closing push may be longer than a step that is
    // already converged.
    const double newton_step = d.g1 < 0 ? -d.g / d.g1 : 0;
    double step = newton_step;
    const double close = 0.5 * rtol * std::fabs(x);
    if (std::fabs(step) < close) step += d.g > 0 ? 0.5 * close : -0.5 * close;
    const double next = x + step;
    if (!(d.g1 < 0 && next > a && next < b && std::fabs(newton_step) <= 0.5 * std::fabs(previous_step))) {
      previous_step = 0.5 * (b - a);
      x = a + previous_step;
      continue;
    }
    previous_step = newton_step;
    x = next;
  }
  return b;
}

}  // namespace vibro
