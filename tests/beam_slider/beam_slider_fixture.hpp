#pragma once
// Helpers for the beam-slider tests: parameter sets by name and a run that records samples.
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "models/beam_slider/beam_slider_parameters.hpp"

namespace vibro::beam_slider::testing {

struct Setting {
  std::string name;
  std::string value;  // parsed as the user would write it
};

inline ParameterSet beam_slider_values(std::initializer_list<Setting> settings) {
  ParameterSet values(&beam_slider_parameter_specs());
  for (const auto& s : settings) {
    const int i = values.index_of(s.name);
    values.set_at(i, values.specs()[static_cast<std::size_t>(i)].parse(s.value));
  }
  return values;
}

inline BeamSliderConstants constants(std::initializer_list<Setting> settings) {
  return BeamSliderConstants::from(beam_slider_values(settings));
}

}  // namespace vibro::beam_slider::testing
