#pragma once
// Helpers for the beam-slider tests: parameter sets by name and a run that records samples.
#include <initializer_list>
#include <string>
#include <vector>

#include "support/model_fixture.hpp"
#include "engine/core/parameter_spec.hpp"
#include "models/beam_slider/beam_slider_parameters.hpp"

namespace vibro::beam_slider::testing {

using vibro::test_support::Setting;

inline ParameterSet beam_slider_values(std::initializer_list<Setting> settings) {
  return vibro::test_support::parameter_values(beam_slider_parameter_specs(), settings);
}

inline BeamSliderConstants constants(std::initializer_list<Setting> settings) {
  return BeamSliderConstants::from(beam_slider_values(settings));
}

}  // namespace vibro::beam_slider::testing
