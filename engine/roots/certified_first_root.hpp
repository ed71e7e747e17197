#pragma once
// The first root of a smooth scalar function g(y) on [y0, y_max], never missed, grazing included.
//
// Sign-change tests on a grid miss pairs of close roots and every tangency. Instead each step is
// either *certified* root-free by a Taylor lower bound that holds on the whole step, or *bracketed*
// with a proof that g is strictly decreasing on it (so the root inside is unique and is the first),
// or halved. A step that shrinks below rounding without either proof is a tangency (grazing).
// Requirements on Fn: `Derivs operator()(double y)` giving g, g', g'' at y, and the global bounds
// |g'''| <= K, -g'' <= m_down, g'' <= m_up on the interval searched.
// Host-and-device (engine/core/host_device.hpp): the GPU back end runs the same search.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/core/host_device.hpp"
#include "engine/roots/halley_polish.hpp"
#if !VIBRO_DEVICE_PASS
#include "engine/core/case_budget.hpp"
#endif

namespace vibro {

struct RootBounds {
  double K;       // sup |g'''|
  double m_down;  // sup (-g'')
  double m_up;    // sup g''
};

enum class RootOutcome { Root, Grazing, NoRoot };

struct RootResult {
  RootOutcome outcome = RootOutcome::NoRoot;
  double y = 0;        // root, tangency point, or y_max
  int evaluations = 0;
};

struct RootSettings {
  double rtol = 1e-13;           // relative accuracy of the root in y
  double initial_step = 0.05;
  double grazing_step = 1e-15;   // step (relative to 1 + y) below which a non-certifiable point is a tangency
};

namespace detail {

// True when g > 0 is guaranteed on (0, s] by the quadratic or the cubic Taylor lower bound.
template <class Bounds>
VIBRO_HD inline bool certified_positive(const Derivs& d, double s, const Bounds& b) {
  if (d.g + d.g1 * s - 0.5 * b.m_down * s * s > 0) return true;
  const double l3 = d.g + s * (d.g1 + s * (0.5 * d.g2 - b.K * s / 6.0));
  if (!(l3 > 0)) return false;
  if (b.K <= 0) return true;  // L3 is then the exact quadratic, already checked at s and 0
  const double disc = d.g2 * d.g2 + 2.0 * b.K * d.g1;
  if (disc <= 0) return true;  // L3 is monotone decreasing: its minimum on [0, s] is at s
  const double rho = (d.g2 - std::sqrt(disc)) / b.K;  // local minimum of L3
  if (rho <= 0 || rho >= s) return true;
  return d.g + rho * (d.g1 + rho * (0.5 * d.g2 - b.K * rho / 6.0)) > 0;
}

// True when sup g' < 0 on [y, y + s] is proved from the derivatives at both ends.
template <class Bounds>
VIBRO_HD inline bool provably_decreasing(const Derivs& a, const Derivs& e, double s, const Bounds& b) {
  const double u1 = std::max(a.g1, a.g1 + a.g2 * s + 0.5 * b.K * s * s);
  const double u2 = std::max(a.g1, a.g1 + b.m_up * s);
  const double u3 = std::max(e.g1, e.g1 - e.g2 * s + 0.5 * b.K * s * s);
  const double u4 = e.g1 + b.m_down * s;
  return std::min(std::min(u1, u2), std::min(u3, u4)) < 0;
}

}  // namespace detail

// Searches [y0, y_max] for the first root of fn, given g(y0) > 0 (the caller's responsibility:
// use a start point certified from the event that began the segment).
template <class Fn, class Bounds, class Limit = double, class Settings = RootSettings>
VIBRO_HD RootResult certified_first_root(Fn&& fn, double y0, const Limit& y_max, const Bounds& bounds,
                                const Settings& settings = Settings{}) {
  RootResult result;
  double y = y0;
  Derivs d = fn(y);
  ++result.evaluations;
  if (!(d.g > 0)) {  // already touching: the caller's start point was not certified
    result.outcome = RootOutcome::Grazing;
    result.y = y;
    return result;
  }
  double s = settings.initial_step;
  while (true) {
#if !VIBRO_DEVICE_PASS
    charge_step();  // a search over a very long flight (a tiny gravity) is bounded by the case's budget
#endif
    if (y >= y_max) {
      result.outcome = RootOutcome::NoRoot;
      result.y = y_max;
      return result;
    }
    const bool last = s >= y_max - y;
    if (last) s = y_max - y;
    if (detail::certified_positive(d, s, bounds)) {
      y = last ? y_max : y + s;
      if (last) continue;
      d = fn(y);
      ++result.evaluations;
      s *= 2.0;
      continue;
    }
    const double ye = last ? y_max : y + s;
    const Derivs e = fn(ye);
    ++result.evaluations;
    if (e.g <= 0 && detail::provably_decreasing(d, e, s, bounds)) {
      if (e.g == 0) {
        result.outcome = RootOutcome::Root;
        result.y = ye;
        return result;
      }
      // The end on the far side of zero, so the caller's state is at or just past the root
      // and the next search cannot find the same root again.
      const double far_side = halley_root_far_side(fn, y, ye, d, e, settings.rtol, result.evaluations);
      result.outcome = RootOutcome::Root;
      result.y = far_side;
      return result;
    }
    s *= 0.5;
    if (s < settings.grazing_step * (1.0 + y)) {
      result.outcome = RootOutcome::Grazing;
      result.y = y;
      return result;
    }
  }
}

}  // namespace vibro
