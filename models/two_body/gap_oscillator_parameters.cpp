#include "models/two_body/gap_oscillator_parameters.hpp"

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
      ParameterSpec::real("m1", G::Physics, "kg", 1000, 0, kInf, "main body mass").open_below(),
      ParameterSpec::real("m2", G::Physics, "kg", 100, 0, kInf, "attached body mass").open_below(),
      ParameterSpec::real("omega1", G::Physics, "rad/s", 6.283, 0, 1e6, "partial frequency sqrt(k1/m1)").open_below(),
      ParameterSpec::real("omega2", G::Physics, "rad/s", 4.727, 0, 1e6, "partial frequency sqrt(k2/m2)").open_below(),
      ParameterSpec::real("xi1", G::Physics, "-", 0.036, 0, 10, "damping ratio c1 / (2 m1 omega1)"),
      ParameterSpec::real("xi2", G::Physics, "-", 0.20, 0, 10, "damping ratio c2 / (2 m2 omega2)"),
      ParameterSpec::real("D", G::Physics, "m", 0.05, 0, 10, "gap between the bodies at rest"),
      ParameterSpec::real("F0", G::Physics, "N", 400, 0, 1e12, "force amplitude"),
      ParameterSpec::real("lambda", G::Physics, "-", 1, 0, 1e6, "force amplitude factor (loading curves)"),
      ParameterSpec::real("omega", G::Physics, "rad/s", 6, 0, 1e6, "forcing frequency").open_below(),
      ParameterSpec::real("phase", G::Physics, "rad", 0, -1e3, 1e3, "forcing phase: F = lambda F0 cos(omega t + phase)"),
      ParameterSpec::choice("law", G::Physics, {"restitution", "linear", "hertz"}, "hertz",
                            "impact law: Newton restitution (Eq. 6), linear penalty k0 z H(z), Hertz K (z H(z))^1.5"),
      ParameterSpec::real("e", G::Physics, "-", 1, 0, 1, "coefficient of restitution (law = restitution)"),
      ParameterSpec::real("k0", G::Physics, "N/m", 1e9, 0, 1e15, "penalty stiffness (law = linear)").open_below(),
      ParameterSpec::real("E1", G::Physics, "Pa", 2.1e11, 0, 1e13, "Young's modulus, main body (Hertz)").open_below(),
      ParameterSpec::real("E2", G::Physics, "Pa", 2.1e11, 0, 1e13, "Young's modulus, attached body (Hertz)").open_below(),
      ParameterSpec::real("nu1", G::Physics, "-", 0.3, 0, 0.5, "Poisson ratio, main body (Hertz)").open_above(),
      ParameterSpec::real("nu2", G::Physics, "-", 0.3, 0, 0.5, "Poisson ratio, attached body (Hertz)").open_above(),
      ParameterSpec::real("R1", G::Physics, "m", 2, 0, 1e6, "sphere radius, main body (Hertz)").open_below(),
      ParameterSpec::real("R2", G::Physics, "m", 2, 0, 1e6, "sphere radius, attached body (Hertz)").open_below(),
      ParameterSpec::real("x1_0", G::Initial, "m", 0, -1e3, 1e3, "initial main-body displacement"),
      ParameterSpec::real("v1_0", G::Initial, "m/s", 0, -1e3, 1e3, "initial main-body velocity"),
      ParameterSpec::real("u2_0", G::Initial, "m", 0, -1e3, 1e3, "initial attached-body displacement from rest (x2 - D)"),
      ParameterSpec::real("v2_0", G::Initial, "m/s", 0, -1e3, 1e3, "initial attached-body velocity"),
  };
}
}  // namespace

const std::vector<ParameterSpec>& gap_oscillator_parameter_specs() {
  static const std::vector<ParameterSpec> specs = with_two_body_numerics(make_specs());
  return specs;
}

GapOscillatorConstants GapOscillatorConstants::from(const ParameterSet& p) {
  GapOscillatorConstants c{};
  c.m1 = p.get("m1");
  c.m2 = p.get("m2");
  const double w1 = p.get("omega1"), w2 = p.get("omega2");
  c.k1 = c.m1 * w1 * w1;
  c.k2 = c.m2 * w2 * w2;
  c.c1 = 2 * p.get("xi1") * c.m1 * w1;
  c.c2 = 2 * p.get("xi2") * c.m2 * w2;
  c.D = p.get("D");
  c.F0 = p.get("F0");
  c.lambda = p.get("lambda");
  c.omega = p.get("omega");
  c.phase = p.get("phase");
  c.cos_phase = std::cos(c.phase);
  c.sin_phase = std::sin(c.phase);
  c.period = 2 * 3.14159265358979323846 / c.omega;
  const std::string& law = p.choice("law");
  c.law = law == "restitution" ? ImpactLaw::Restitution : law == "linear" ? ImpactLaw::Linear : ImpactLaw::Hertz;
  c.e = p.get("e");
  c.k0 = p.get("k0");
  // Two spheres: A = B = 1/(2 R1) + 1/(2 R2) (the paper's Eq. 9).
  c.K = hertz_constant(p.get("E1"), p.get("nu1"), p.get("E2"), p.get("nu2"), 0.5 / p.get("R1") + 0.5 / p.get("R2"));
  c.v_eps = p.get("v_eps");
  c.control = integrator_control(p, c.period / 32);
  c.x1_0 = p.get("x1_0");
  c.v1_0 = p.get("v1_0");
  c.x2_0 = c.D + p.get("u2_0");
  c.v2_0 = p.get("v2_0");
  return c;
}

}  // namespace vibro::two_body
