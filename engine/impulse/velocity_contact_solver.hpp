#pragma once
// Velocity-level frictional contact of a few rigid contacts (Signorini + Coulomb with a static
// coefficient), solved by enumerating the status of each contact (open, stick, slip +, slip -).
// Used for a Moreau-Jean time step of persistent contacts (target u_n+ = 0) and for total-impulse
// Newton impacts (target u_n+ = -e u_n-): the latter is kept only to compare against the
// impulse-domain solver (it gets the dimer's drift sign wrong at A_r = 3.9, as the dimer tests show).
// Among consistent status sets the one closest to the preferred motion wins: a slipping contact
// keeps its direction if it can, else sticks, else reverses; a stuck contact stays stuck if admissible.
#include <vector>

#include "engine/impulse/local_algebra.hpp"

namespace vibro::impulse {

enum class ContactStatus { Open, Stick, SlipPositive, SlipNegative };

struct VelocityContactLaw {
  double mu_slip = 0.0;
  double mu_static = 0.0;      // stick admissible while |P_t| <= mu_static P_n
  double normal_target = 0.0;  // required post-step normal velocity of a closed contact (>= 0)
  int preferred_slip = 0;      // +1 / -1: slipping that way; 0: at rest (stick preferred)
};

struct VelocityContactSolution {
  LocalVector impulse;   // (P_n, P_t)
  LocalVector velocity;  // u_free + W impulse
  std::vector<ContactStatus> status;
};

// u_free: local velocities without contact impulses. Up to kMaxContacts contacts. Throws
// CaseFailure when no status set is consistent.
VelocityContactSolution solve_velocity_contacts(const LocalMatrix& W, const LocalVector& u_free,
                                                const std::vector<VelocityContactLaw>& laws);

}  // namespace vibro::impulse
