#pragma once
// The dimer's declared inputs (Liu, Zhao and Brogliato 2008) and the constants derived from them.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/impulse/darboux_keller_impact.hpp"
#include "models/dimer/dimer_geometry.hpp"

namespace vibro::dimer {

const std::vector<ParameterSpec>& dimer_parameter_specs();

// How impacts are resolved: the impulse-domain solver, or total-impulse Newton restitution with
// impulse-level Coulomb friction (Moreau-Jean style; kept only to show it gets the drift sign wrong).
enum class ImpactLaw { DarbouxKeller, TotalImpulse };

// How the dimer is integrated: event-driven (closed-form flights, located events, DOPRI5 contact
// phases), or Moreau-Jean midpoint time stepping at steps_per_period (kept for comparison).
enum class DimerIntegrator { EventDriven, MoreauJean };

struct DimerConstants {
  DimerBody body;
  double f, omega, period;  // Hz, rad/s, s
  double Gamma, A, g;       // -, plate amplitude (m), m/s^2
  double e_s, mu_s, mu_c, mu_i;
  double closure_velocity;  // eps_c = closure_fraction * A omega, at least g h under time stepping (m/s)
  int steps_per_period;
  impulse::ImpactSettings impact;
  ImpactLaw impact_law;
  DimerIntegrator integrator;
  double impact_cap;        // impacts per period: time stepping fails the case, event-driven closes the contact
  double h0, theta0;        // initial lower-tip height (m) and tilt (rad)

  double time_step() const { return period / steps_per_period; }
  double plate_height(double t) const;    // y_p = -A sin(omega t) (Eq. 121)
  double plate_velocity(double t) const;

  static DimerConstants from(const ParameterSet& p);
};

}  // namespace vibro::dimer
