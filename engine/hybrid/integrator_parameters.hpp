#pragma once
// The [numerics] keys every event-driven model shares (tolerances of the DOPRI5 integrator), and
// the step control they define; a model appends them to its own parameter table.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

inline void append_integrator_parameters(std::vector<ParameterSpec>& specs) {
  specs.push_back(ParameterSpec::real("rtol", ParameterGroup::Numerics, "-", 1e-10, 1e-14, 1e-3,
                                      "relative tolerance of the integrator"));
  specs.push_back(ParameterSpec::real("atol", ParameterGroup::Numerics, "(state)", 1e-12, 1e-18, 1e-3,
                                      "absolute tolerance of the integrator, in each state component's own unit"));
}

// h_max bounds the step so that each coordinate has at most one extremum per step.
inline StepControl integrator_control(const ParameterSet& p, double h_max) {
  StepControl control;
  control.rtol = p.get("rtol");
  control.atol = p.get("atol");
  control.h_max = h_max;
  return control;
}

}  // namespace vibro
