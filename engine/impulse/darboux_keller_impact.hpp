#pragma once
// Frictional single and multiple impacts integrated in the impulse domain (Darboux-Keller), as in
// Liu, Zhao & Brogliato ("Variable structure dynamics in a bouncing dimer", INRIA report RR-6718, 2008, Section 4):
//  - the configuration is frozen, so local velocities move linearly with the impulse: du = W dP;
//  - normal law at energy level: Stronge's energetic restitution on the potential energy stored at
//    each contact (compression stores -u_n dP_n, expansion releases it at the rate -u_n dP_n / e^2);
//  - Coulomb friction on impulse increments: slip may stop, stick or reverse inside one impact; at
//    zero slip the increment ratio that sticking needs (the correlative coefficient) is compared
//    with mu_static;
//  - several contacts: the LZB distributing law dP_j = (K_j/K_i)^{1/(eta+1)} (E_j/E_i)^{eta/(eta+1)}
//    dP_i with the primary contact i (largest stored energy) as independent variable; a contact that
//    starts to compress with no stored energy enters through the one-step bootstrap;
//  - while a single contact takes impulse, every phase is linear and is integrated exactly.
// Any model with several frictional contacts supplies W = J M^-1 J^T and the pre-impact velocities.
#include <vector>

#include "engine/impulse/local_algebra.hpp"

namespace vibro::impulse {

struct ImpactContactLaw {
  double restitution = 1.0;  // Stronge's energetic coefficient e_s, (0, 1]
  double mu_slip = 0.0;      // Coulomb coefficient on slipping increments
  double mu_static = 0.0;    // stick holds while |dP_t| <= mu_static dP_n (mu_static >= mu_slip)
  double stiffness = 1.0;    // K_i of the LZB law; only ratios matter
};

struct ImpactSettings {
  double eta = 1.5;  // Hertz exponent of the distributing law
  int steps = 2000;  // primary-impulse steps over the first compression (multiple-contact phases)
};

enum class TangentState { Slip, Stick };

struct ImpactResult {
  LocalVector impulse;    // total (P_n, P_t) per contact
  LocalVector velocity;   // post-impact local velocities
  std::vector<TangentState> tangent;  // tangential state at the end of the impact
  int steps = 0;             // numerical LZB steps taken (0: exact single-contact phases only)
  int primary_switches = 0;  // times the primary contact changed
  int exact_phases = 0;      // linear phases integrated in closed form
};

// W: Delassus matrix in local ordering; u: pre-impact local velocities (relative to the obstacle).
// Contacts with u_n >= 0 and nothing stored take impulse only if the others drive them into
// compression. Throws CaseFailure on a Painleve configuration or a runaway impact.
ImpactResult resolve_impact(const LocalMatrix& W, const LocalVector& u, const std::vector<ImpactContactLaw>& laws,
                            const ImpactSettings& settings);

}  // namespace vibro::impulse
