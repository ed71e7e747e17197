#pragma once
// Lyapunov exponents along the stroboscopic map (Simulation::stroboscopic_map, whose Jacobians carry
// the saltation matrices of every event), both from one pass over the same periods:
// - the spectrum, by Benettin's method: an orthonormal frame follows the tangent map period by period
//   and is re-orthonormalised by QR; the exponents are the mean logs of R's diagonal. A direction the
//   map annihilates (an impact that clamps a velocity) gives -inf.
// - the largest exponent of the stretches between resets. An event that makes the state forget its
//   start in some direction (the conveyor's coupled phase absorbs the normal state) drives the ordinary
//   exponents to -inf, so an orbit that hops chaotically between such resets shows no positive
//   exponent at all. Here one tangent vector restarts after every period whose map passes a reset
//   (MapStep::resets), and its log growth is averaged over the periods without one. Without resets it
//   is the ordinary largest exponent.
#include <limits>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

struct StretchExponent {
  double exponent = std::numeric_limits<double>::quiet_NaN();  // 1/s; NaN: no map, or no stretch
  int resets = 0;          // periods whose map passed a reset
  int periods_counted = 0;  // periods averaged over
};

struct MapLyapunov {
  std::vector<double> spectrum;    // 1/s, largest first; empty: the model has no map there
  StretchExponent between_resets;
};

// Over `periods` periods from `from` (a stroboscopic sample); `period` in s.
MapLyapunov lyapunov_along_map(Simulation& simulation, const StrobeSample& from, int periods, double period);

}  // namespace vibro
