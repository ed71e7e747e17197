#include "models/two_body/vibro_platform_parameters.hpp"

#include <cmath>
#include <limits>

#include "engine/contact/penalty_laws.hpp"
#include "engine/hybrid/integrator_parameters.hpp"
#include "models/two_body/two_body_numerics.hpp"

namespace vibro::two_body {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
using G = ParameterGroup;

std::vector<ParameterSpec> make_specs() {
  return {
      ParameterSpec::real("m1", G::Physics, "kg", 7400, 0, kInf, "platform table mass").open_below(),
      ParameterSpec::real("m2", G::Physics, "kg", 15000, 0, kInf, "form with concrete").open_below(),
      ParameterSpec::real("k1", G::Physics, "N/m", 1.278e6, 0, 1e15, "vibro-isolation spring").open_below(),
      ParameterSpec::real("k0", G::Physics, "N/m", 3.0e8, 0, 1e15, "rubber block stiffness (linear law, damping scale)")
          .open_below(),
      ParameterSpec::real("h", G::Physics, "m", 0.0275, 0, 10, "rubber block thickness").open_below(),
      ParameterSpec::real("xi0", G::Physics, "-", 0.02, 0, 10, "damping ratio of the rubber block"),
      ParameterSpec::real("xi1", G::Physics, "-", 0.02, 0, 10, "damping ratio of the vibro-isolation spring"),
      ParameterSpec::real("xi2", G::Physics, "-", 0.03, 0, 10, "damping ratio of the concrete mix"),
      ParameterSpec::real("F0", G::Physics, "N", 2.44e5, 0, 1e12, "force amplitude on the table"),
      ParameterSpec::real("omega", G::Physics, "rad/s", 157, 0, 1e6, "forcing frequency").open_below(),
      ParameterSpec::real("phase", G::Physics, "rad", 0, -1e3, 1e3, "forcing phase: F = F0 cos(omega t + phase)"),
      ParameterSpec::real("g", G::Physics, "m/s^2", 9.81, 0, 1e3, "gravity"),
      ParameterSpec::choice("law", G::Physics, {"restitution", "linear", "hertz"}, "hertz",
                            "impact law: restitution (after a joint phase on the linear block), linear k0 z H(z), "
                            "Hertz K (z H(z))^1.5"),
      ParameterSpec::real("e", G::Physics, "-", 1, 0, 1, "coefficient of restitution (law = restitution)"),
      ParameterSpec::real("E1", G::Physics, "Pa", 3e8, 0, 1e13, "Young's modulus of the rubber block (Hertz)").open_below(),
      ParameterSpec::real("nu1", G::Physics, "-", 0.4, 0, 0.5, "Poisson ratio of the rubber block (Hertz)").open_above(),
      ParameterSpec::real("E2", G::Physics, "Pa", 2e12, 0, 1e13, "Young's modulus of the form (Hertz)").open_below(),
      ParameterSpec::real("nu2", G::Physics, "-", 0.3, 0, 0.5, "Poisson ratio of the form (Hertz)").open_above(),
      ParameterSpec::real("R", G::Physics, "m", 5, 0, 1e6, "sphere radius of the block's contact (Hertz, A = B = 1/(2R))")
          .open_below(),
      ParameterSpec::choice("damping", G::Physics, {"literal", "relative"}, "literal",
                            "block damping on the form's absolute velocity (as printed) or on the relative one"),
      ParameterSpec::real("y1_0", G::Initial, "m", 0, -1, 1, "initial table displacement from static equilibrium"),
      ParameterSpec::real("v1_0", G::Initial, "m/s", 0, -100, 100, "initial table velocity"),
      ParameterSpec::real("u2_0", G::Initial, "m", 0, -1, 1, "initial form displacement from static equilibrium"),
      ParameterSpec::real("v2_0", G::Initial, "m/s", 0, -100, 100, "initial form velocity"),
  };
}
}  // namespace

const std::vector<ParameterSpec>& vibro_platform_parameter_specs() {
  static const std::vector<ParameterSpec> specs = with_two_body_numerics(make_specs());
  return specs;
}

VibroPlatformConstants VibroPlatformConstants::from(const ParameterSet& p) {
  VibroPlatformConstants c{};
  c.m1 = p.get("m1");
  c.m2 = p.get("m2");
  c.k1 = p.get("k1");
  c.k0 = p.get("k0");
  c.h = p.get("h");
  c.g = p.get("g");
  const double w1 = std::sqrt(c.k1 / c.m1), w2 = std::sqrt(c.k0 / c.m2);
  c.c1 = 2 * p.get("xi1") * c.m1 * w1;
  c.c2 = 2 * p.get("xi2") * c.m2 * w2;
  c.c0 = 2 * p.get("xi0") * c.m2 * w2;
  c.F0 = p.get("F0");
  c.omega = p.get("omega");
  c.phase = p.get("phase");
  c.period = 2 * 3.14159265358979323846 / c.omega;
  const std::string& law = p.choice("law");
  c.law = law == "restitution" ? ImpactLaw::Restitution : law == "linear" ? ImpactLaw::Linear : ImpactLaw::Hertz;
  c.e = p.get("e");
  c.K = hertz_constant(p.get("E1"), p.get("nu1"), p.get("E2"), p.get("nu2"), 0.5 / p.get("R"));
  c.relative_damping = p.choice("damping") == "relative";
  // Static equilibrium: the block carries the form's weight.
  const double weight = c.m2 * c.g;
  c.z_static = c.law == ImpactLaw::Hertz ? std::pow(weight / c.K, 2.0 / 3.0) : weight / c.k0;
  c.v_eps = p.get("v_eps");
  c.control = integrator_control(p, c.period / 32);
  c.y1_0 = p.get("y1_0");
  c.v1_0 = p.get("v1_0");
  c.u2_0 = p.get("u2_0");
  c.v2_0 = p.get("v2_0");
  return c;
}

}  // namespace vibro::two_body
