#pragma once
// The first root, inside one integration step, of a guard a . x + b that is affine in the state: on
// the dense output it is a quartic in the step fraction theta, searched with the certified polynomial
// root finder. A root sitting at theta = 0 (the event just handled) is deflated, as often as it is
// multiple (a contact left with zero relative rate and acceleration: p ~ theta^3).
//
// A crossing within rounding of a step boundary is located on that boundary. The deflation would
// skip a guard that sits on its crossing at a step's start and moves across (an impact landing
// within rounding after t = k T, where every period's last step ends): with judge_start (the
// integrator's choice: not at an event just handled, where the system has judged its guards, and at
// a start or restart only a guard the system does not judge there, DescribedSystem::settle), such a
// guard is judged by its motion as settle() judges one:
// the sign of its first time derivative, or of its second where the first vanishes (then a tangency:
// a grazing), each against kGuardMotionTolerance of its terms; a crossing is reported at theta = 0.
// Likewise a tangency found in a step at whose end the guard is 0 within rounding and still moves
// across is the crossing at or just beyond the end, within rounding of it: reported at theta = 1, not
// as a grazing.
// Host-and-device code (engine/core/host_device.hpp).
#include <algorithm>
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/events/polynomial_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

inline constexpr double kGuardResolution = 1e-12;  // in theta: about 1e-12 of a step
inline constexpr double kGuardTouch = 1e-14;       // rounding level of a guard, relative to its terms
// A guard's time derivative counts as nonzero beyond this fraction of its terms (settle()'s tolerance).
inline constexpr double kGuardMotionTolerance = 1e-9;

namespace guard_root_detail {

// How the guard moves at theta = 0 or 1 of the step: +1 up, -1 down, 0 neither within the tolerance;
// `order` says which derivative decided (1 or 2, the second only where the first vanishes; 0: none).
template <int N>
VIBRO_HD int guard_motion(const DenseStep<N>& dense, const typename DenseStep<N>::State& a, double theta, int& order) {
  for (order = 1; order <= 2; ++order) {
    double value = 0, terms = 0;
    for (int i = 0; i < N; ++i) {
      if (a[i] == 0) continue;
      double c[5];
      dense.component_polynomial(i, c);
      // d^order/dtheta^order of c0 + c1 theta + ... + c4 theta^4 at theta (0 or 1).
      double d = 0;
      for (int k = order; k <= 4; ++k) {
        const double factor = order == 1 ? k : k * (k - 1);
        d += factor * c[k] * (theta == 0 ? (k == order ? 1.0 : 0.0) : 1.0);
      }
      value += a[i] * d;
      terms += std::fabs(a[i] * d);
    }
    if (std::fabs(value) > kGuardMotionTolerance * terms) return value > 0 ? 1 : -1;
  }
  order = 0;
  return 0;
}

// Whether a guard of value `start` (0 within rounding) moving by `motion` crosses as `crossing` asks.
VIBRO_HD inline bool moves_across(int motion, double start, Crossing crossing) {
  if (crossing == Crossing::Falling) return motion < 0;
  if (crossing == Crossing::Rising) return motion > 0;
  return motion != 0 && (start == 0 || (start > 0) != (motion > 0));
}

}  // namespace guard_root_detail

template <int N>
VIBRO_HD PolynomialRoot first_affine_guard_root(const DenseStep<N>& dense, const typename DenseStep<N>::State& a, double b,
                                       Crossing crossing, bool judge_start = false) {
  using namespace guard_root_detail;
  double c[5];
  dense.affine_polynomial(a, b, c);
  const double scale = std::fabs(b) + a.cwiseAbs().dot(dense.r1.cwiseAbs());
  double touch = kGuardTouch * scale;
  int order = 0;
  if (judge_start && std::fabs(c[0]) <= 10 * touch) {  // on the guard at the step's start
    const int motion = guard_motion(dense, a, 0.0, order);
    if (moves_across(motion, c[0], crossing)) return {true, order == 2, 0.0};
  }
  int low = 0, degree = 4;
  while (degree > 0 && std::fabs(c[low]) <= 10 * touch) {
    ++low;
    --degree;
    touch = 0;
    for (int k = low; k <= 4; ++k) touch = std::max(touch, kGuardTouch * std::fabs(c[k]));
  }
  PolynomialRoot root = polynomial_first_root(c + low, degree, crossing, kGuardResolution, touch);
  // A tangency found where the guard, at the step's end within rounding of 0, still moves across: the
  // first piece within rounding of 0 is reported, up to touch / |rate| before the end.
  const double end = c[0] + c[1] + c[2] + c[3] + c[4];
  if (root.found && root.grazing && std::fabs(end) <= kGuardTouch * scale) {
    const int motion = guard_motion(dense, a, 1.0, order);
    if (order == 1 && moves_across(motion, end, crossing)) root = {true, false, 1.0};
  }
  return root;
}

}  // namespace vibro
