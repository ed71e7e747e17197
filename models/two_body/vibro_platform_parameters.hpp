#pragma once
// Model B of Bazhenov et al. (2013, Section 2, Eqs. 3-5): a vibro-platform table on a vibro-isolation
// spring, a rubber block on the table and a loose form with concrete on the block (soft impact,
// lift-off), vertical motion with gravity.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/ode/dormand_prince5.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"

namespace vibro::two_body {

const std::vector<ParameterSpec>& vibro_platform_parameter_specs();

struct VibroPlatformConstants {
  double m1, m2, k1, k0, h, g;
  double c1, c2, c0;                 // c2, c0 from omega2 = sqrt(k0 / m2), also under Hertz (the paper uses omega2 = sqrt(k2 / m2)
                                     // without defining k2: we take k2 = k0, which under Hertz enters only the damping)
  double F0, omega, phase, period;
  ImpactLaw law;
  double e, K;
  bool relative_damping;             // c0 (y2' - y1') instead of the printed c0 y2' (the paper damps the block
                                     // on the form's absolute velocity; literal by default, this switch gives the relative form)
  double z_static;                   // block compression at static equilibrium
  double v_eps;
  StepControl control;
  double y1_0, v1_0, u2_0, v2_0;     // initial offsets from static equilibrium

  static VibroPlatformConstants from(const ParameterSet& p);
  double chi() const { return m2 / m1; }
  double rest_y2() const { return h - z_static; }  // form's bottom at static equilibrium
};

}  // namespace vibro::two_body
