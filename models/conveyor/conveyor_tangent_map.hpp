#pragma once
// The Jacobian of the conveyor's stroboscopic map: exact flights are affine in (h, u, vT) with
// constant coefficients, so their variational matrix is closed form; every state-dependent event
// contributes its saltation matrix:
// - an impact (the impact time moves with the state; the Coulomb impulse depends on the phase
//   through the plate's velocity, and clamps vT where it can bring it to the plate's);
// - an impact that ends a microthrow sequence (accumulation): the normal state is absorbed into
//   contact (rows h, u become 0) and the tangential vector field switches from flight (vT' = 0) to
//   friction sliding or sticking;
// - a friction reversal in coupled motion: vT' jumps from s mu N to -s mu N where the relative
//   velocity crosses zero, at a time that moves with vT; a stick there makes vT the plate's.
// Lift-off and break-away happen at phases fixed by the plate alone: no saltation. Composed over the
// events the simulation itself located, so both follow the same trajectory.
#include <Eigen/Dense>
#include <vector>

#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor {

// d(h, u, vT) at the end / d(h, u, vT) at the start of a stretch of `phase_span` rad that began at
// phase 0 with tangential velocity vT_start (in coupled motion if `coupled_start`: then the normal
// state is held at zero and only vT can vary), through `events` (times from `start_time`). False
// through a grazing impact (its saltation is unbounded).
bool stroboscopic_tangent_map(const ConveyorConstants& c, const std::vector<ConveyorEvent>& events, double start_time,
                              double vT_start, bool coupled_start, double phase_span, Eigen::Matrix3d& jacobian);

}  // namespace vibro::conveyor
