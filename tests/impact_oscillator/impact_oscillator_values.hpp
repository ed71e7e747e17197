#pragma once
// The built-in impact oscillator's parameter set for the tests: each value written with 17 digits, so
// the model gets exactly the double the test computes with.
#include <iomanip>
#include <sstream>
#include <string>

#include "engine/core/model_registry.hpp"
#include "support/model_fixture.hpp"

namespace vibro::test_support {

inline ParameterSet impact_oscillator_values(double zeta, double omega, double sigma, double r) {
  const auto text = [](double v) {
    std::ostringstream s;
    s << std::setprecision(17) << v;
    return s.str();
  };
  return parameter_values(ModelRegistry::instance().get("impact_oscillator").parameters(),
                          {{"zeta", text(zeta)}, {"omega", text(omega)}, {"sigma", text(sigma)}, {"r", text(r)}});
}

}  // namespace vibro::test_support
