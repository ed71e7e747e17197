#include "models/dimer/dimer_parameters.hpp"

#include <algorithm>
#include <cmath>

namespace vibro::dimer {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
using G = ParameterGroup;

std::vector<ParameterSpec> make_specs() {
  return {
      ParameterSpec::real("A_r", G::Physics, "-", 3.9, 2, 20, "aspect ratio 1 + l / (2 r) (l: centre-to-centre distance)"),
      ParameterSpec::real("f", G::Physics, "Hz", 25, 0, 1e4, "plate frequency").open_below(),
      ParameterSpec::real("Gamma", G::Physics, "-", 0.9, 0, 20, "dimensionless plate acceleration A omega^2 / g"),
      ParameterSpec::real("e_s", G::Physics, "-", 0.65, 0, 1, "Stronge energetic coefficient of restitution")
          .open_below(),
      ParameterSpec::real("mu_s", G::Physics, "-", 0.24, 0, 10, "static friction (contacts and impacts)"),
      ParameterSpec::real("mu_c", G::Physics, "-", 0.12, 0, 10, "slip friction in contact phases (<= mu_s)"),
      ParameterSpec::real("mu_i", G::Physics, "-", 0.08, 0, 10, "slip friction inside impacts (<= mu_s)"),
      ParameterSpec::real("r", G::Physics, "m", 4.75e-3, 0, 1, "sphere radius").open_below(),
      ParameterSpec::real("rho_ball", G::Physics, "kg/m^3", 7.8e3, 0, 1e5, "sphere density (steel)").open_below(),
      ParameterSpec::real("rho_rod", G::Physics, "kg/m^3", 1.0e3, 0, 1e5,
                          "rod density (the report's 1.0e3; real glass ~2.5e3: kept to reproduce the report)"),
      ParameterSpec::real("d_rod", G::Physics, "m", 4e-3, 0, 1, "rod diameter"),
      ParameterSpec::real("g", G::Physics, "m/s^2", 9.81, 0, 1e3, "gravity").open_below(),
      ParameterSpec::real("eta", G::Physics, "-", 1.5, 0, 10, "Hertz exponent of the LZB distributing law").open_below(),
      ParameterSpec::real("h0", G::Initial, "m", 0.25e-3, 0, 1, "initial height of the lower tip above the plate's mean position"),
      ParameterSpec::real("theta0", G::Initial, "deg", 5, -80, 80, "initial tilt (> 0: ball 2, the right ball, higher)"),
      ParameterSpec::choice("integrator", G::Numerics, {"event_driven", "moreau_jean"}, "event_driven",
                            "event_driven: closed-form flights with certified impact times, DOPRI5 contact phases "
                            "with located detachment / stick / slip events; moreau_jean: midpoint time stepping at "
                            "steps_per_period (for comparison)"),
      ParameterSpec::real("steps_per_period", G::Numerics, "-", 4000, 100, 1e6,
                          "time steps per plate period (integrator = moreau_jean only)").integer(),
      ParameterSpec::real("impulse_steps", G::Numerics, "-", 2000, 10, 1e7,
                          "primary-impulse steps per double impact (LZB integration)").integer(),
      ParameterSpec::real("closure_fraction", G::Numerics, "-", 0.01, 0, 1,
                          "approach speed below closure_fraction * A omega (under moreau_jean at least g h) closes a contact instead of an impact"),
      ParameterSpec::choice("impact_law", G::Numerics, {"incremental", "total"}, "incremental",
                            "incremental: impulse-domain Darboux-Keller + LZB solver; total: Newton + total-impulse "
                            "Coulomb (Moreau-Jean; wrong drift sign, for comparison only)"),
      ParameterSpec::real("impact_cap", G::Numerics, "1/period", 400, 1, 1e6,
                          "impacts per period beyond which moreau_jean fails the case (unresolved Zeno) and "
                          "event_driven closes the contact instead (forced closure of the sequence)"),
  };
}
}  // namespace

const std::vector<ParameterSpec>& dimer_parameter_specs() {
  static const std::vector<ParameterSpec> specs = make_specs();
  return specs;
}

double DimerConstants::plate_height(double t) const { return -A * std::sin(omega * t); }
double DimerConstants::plate_velocity(double t) const { return -A * omega * std::cos(omega * t); }

DimerConstants DimerConstants::from(const ParameterSet& p) {
  DimerConstants c{};
  c.body = DimerBody::from(p.get("A_r"), p.get("r"), p.get("rho_ball"), p.get("rho_rod"), p.get("d_rod"));
  c.f = p.get("f");
  c.omega = 2 * kPi * c.f;
  c.period = 1 / c.f;
  c.Gamma = p.get("Gamma");
  c.g = p.get("g");
  c.A = c.Gamma * c.g / (c.omega * c.omega);
  c.e_s = p.get("e_s");
  c.mu_s = p.get("mu_s");
  c.mu_c = p.get("mu_c");
  c.mu_i = p.get("mu_i");
  c.steps_per_period = static_cast<int>(p.get("steps_per_period"));
  c.integrator = p.choice("integrator") == "moreau_jean" ? DimerIntegrator::MoreauJean : DimerIntegrator::EventDriven;
  c.closure_velocity = p.get("closure_fraction") * c.A * c.omega;
  // Time stepping: never below the speed gravity adds in one step; slower approaches are not
  // resolvable impacts of that scheme (and a resting dimer on a still plate, Gamma = 0, would chatter).
  if (c.integrator == DimerIntegrator::MoreauJean) c.closure_velocity = std::max(c.closure_velocity, c.g * c.time_step());
  c.impact.eta = p.get("eta");
  c.impact.steps = static_cast<int>(p.get("impulse_steps"));
  c.impact_law = p.choice("impact_law") == "total" ? ImpactLaw::TotalImpulse : ImpactLaw::DarbouxKeller;
  c.impact_cap = p.get("impact_cap");
  c.h0 = p.get("h0");
  c.theta0 = p.get("theta0") * kDeg;
  return c;
}

}  // namespace vibro::dimer
