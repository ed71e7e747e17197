#pragma once
// Helpers for the conveyor tests: parameter sets by name, and a run that records samples and events.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "support/model_fixture.hpp"
#include "engine/core/parameter_spec.hpp"
#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor::testing {

using vibro::test_support::Setting;

inline ParameterSet conveyor_values(std::initializer_list<Setting> settings) {
  return vibro::test_support::parameter_values(conveyor_parameter_specs(), settings);
}

using vibro::test_support::Recorder;

struct Trace {
  std::vector<StrobeSample> samples;
  std::vector<ConveyorEvent> events;
  ConveyorConstants constants;
};

inline Trace simulate(const ParameterSet& values, int periods) {
  Trace trace{{}, {}, ConveyorConstants::from(values)};
  ConveyorSimulation simulation(trace.constants, ConveyorStart::from(values));
  simulation.record_events(&trace.events);
  Recorder recorder(periods);
  simulation.run(recorder);
  trace.samples = std::move(recorder.samples);
  return trace;
}

inline std::vector<ConveyorEvent> events_of(const Trace& trace, ConveyorEvent::Kind kind) {
  std::vector<ConveyorEvent> out;
  for (const auto& e : trace.events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

}  // namespace vibro::conveyor::testing
