#pragma once
// The Jacobian of the conveyor's stroboscopic map along a hopping orbit (free flights and impacts):
// the exact flight flow is affine in (h, u, vT) with constant coefficients, so its variational
// matrix is closed form, and each impact contributes its saltation matrix (the impact time moves
// with the state; the Coulomb impulse depends on the phase through the plate's velocity). Composed
// over the events the simulation itself located, so both follow the same trajectory.
#include <Eigen/Dense>
#include <vector>

#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor {

// d(h, u, vT) at the end / d(h, u, vT) at the start of a stretch of `phase_span` rad that began at
// phase 0 with tangential velocity vT_start, through `events` (phases measured from that start).
// False when an event other than an impact occurs (coupled motion has no tangent map here yet) or
// an impact is grazing (its saltation is unbounded).
bool hopping_tangent_map(const ConveyorConstants& c, const std::vector<ConveyorEvent>& events, double start_time,
                         double vT_start, double phase_span, Eigen::Matrix3d& jacobian);

}  // namespace vibro::conveyor
