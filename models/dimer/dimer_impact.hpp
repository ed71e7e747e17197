#pragma once
// One impact of the dimer on its active contact set (the impacting tip and the tips closed at that
// instant), shared by both integrators: local velocities relative to the plate, W = J M^-1 J^T, and
// either the impulse-domain solver (Darboux-Keller, Stronge restitution, incremental Coulomb, LZB) or
// the total-impulse Newton + Coulomb law kept for comparison.
#include <Eigen/Core>

#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

struct DimerImpact {
  Eigen::Vector3d velocity_jump = Eigen::Vector3d::Zero();  // of (Xdot, Ydot, thetadot)
  double normal_impulse[2] = {0, 0};                        // per tip (0 for tips not in the set)
  double approach[2] = {0, 0};                              // pre-impact normal velocity per active tip
};

// tips: 1 or 2 of {0, 1}; stuck[i]: tip i was stuck in the contact phase (it enters with zero slip,
// so the impact's stick test decides rather than the sign of a round-off residue). Two active tips
// means both touch the plate, i.e. theta = 0: that geometry is used (both tips slip together).
DimerImpact resolve_dimer_impact(const DimerConstants& c, const Eigen::Vector3d& velocity, double theta,
                                 double plate_velocity, const int* tips, int count, const bool stuck[2]);

}  // namespace vibro::dimer
