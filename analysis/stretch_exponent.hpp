#pragma once
// The largest Lyapunov exponent of the stretches between resets. An event that makes the state
// forget its start in some direction (the conveyor's coupled phase absorbs the normal state) drives
// the ordinary exponents to -inf, so an orbit that hops chaotically between such resets shows no
// positive exponent at all. Here Benettin's tangent vector follows the stroboscopic map's Jacobian
// period by period, restarts after every period whose map passes a reset (MapStep::resets), and the
// log growth is averaged over the periods without one. Without resets it is the ordinary largest
// exponent.
#include <limits>

#include "engine/core/model.hpp"

namespace vibro {

struct StretchExponent {
  double exponent = std::numeric_limits<double>::quiet_NaN();  // 1/s; NaN: no map, or no stretch
  int resets = 0;          // periods whose map passed a reset
  int periods_counted = 0;  // periods averaged over
};

// Over `periods` periods from `from` (a stroboscopic sample); `period` in s.
StretchExponent largest_exponent_between_resets(Simulation& simulation, const StrobeSample& from, int periods,
                                                double period);

}  // namespace vibro
