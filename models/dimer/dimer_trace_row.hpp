#pragma once
// The dimer's trace (vibro trace), shared by both integrators so their files read the same: the
// stroboscopic section (Y, theta, Xdot, Ydot, thetadot, in StrobeLayout order) and then the drift
// coordinate X.
#include <Eigen/Core>

#include "engine/core/trace_sink.hpp"

namespace vibro::dimer {

inline TraceLayout dimer_trace_layout() {
  return {{"Y", "theta", "Xdot", "Ydot", "thetadot", "X"}, {"m", "rad", "m/s", "m/s", "rad/s", "m"}};
}

// One trace row from the positions q = (X, Y, theta) and their rates v.
inline void dimer_trace_row(const Eigen::Vector3d& q, const Eigen::Vector3d& v, double* out) {
  out[0] = q(1);
  out[1] = q(2);
  out[2] = v(0);
  out[3] = v(1);
  out[4] = v(2);
  out[5] = q(0);
}

// ... from the state (X, Y, theta, Xdot, Ydot, thetadot).
inline void dimer_trace_row(const Eigen::Matrix<double, 6, 1>& y, double* out) {
  dimer_trace_row(y.head<3>(), y.tail<3>(), out);
}

}  // namespace vibro::dimer
