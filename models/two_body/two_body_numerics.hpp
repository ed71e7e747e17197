#pragma once
// The [numerics] keys of the two-body models: the chatter threshold of the restitution law and the
// integrator's tolerances.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/hybrid/integrator_parameters.hpp"

namespace vibro::two_body {

inline std::vector<ParameterSpec> with_two_body_numerics(std::vector<ParameterSpec> specs) {
  specs.push_back(ParameterSpec::real("v_eps", ParameterGroup::Numerics, "m/s", 1e-6, 0, 1,
                                      "rebound speed below which chattering bodies stick (restitution)"));
  append_integrator_parameters(specs);
  return specs;
}

}  // namespace vibro::two_body
