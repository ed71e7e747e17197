#pragma once
// Model A of Bazhenov, Pogorelova and Postnikova (2013, Section 2, Eq. 2): a main body on a grounded spring and damper,
// an attached body on a spring and damper, a gap D between them, harmonic force on the main body.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro::two_body {

enum class ImpactLaw { Restitution, Linear, Hertz };

const std::vector<ParameterSpec>& gap_oscillator_parameter_specs();

struct GapOscillatorConstants {
  double m1, m2, k1, k2, c1, c2, D;
  double F0, lambda, omega, phase;   // F(t) = lambda F0 cos(omega t + phase)
  double cos_phase, sin_phase;       // of phase, made on the host once: no cos or sin on a GPU
  double period;
  ImpactLaw law;
  double e;                          // restitution
  double k0;                         // linear penalty stiffness
  double K;                          // Hertz constant
  double v_eps;                      // chatter: below this rebound speed the bodies stick
  StepControl control;
  double x1_0, v1_0, x2_0, v2_0;     // initial state (x2 in the same frame: D at rest)

  static GapOscillatorConstants from(const ParameterSet& p);
  double chi() const { return m2 / m1; }
};

}  // namespace vibro::two_body
