#pragma once
// Helpers for the conveyor tests: parameter sets by name, and a run that records samples and events.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor::testing {

struct Setting {
  std::string name;
  std::string value;  // parsed as the user would write it
};

inline ParameterSet conveyor_values(std::initializer_list<Setting> settings) {
  ParameterSet values(&conveyor_parameter_specs());
  for (const auto& s : settings) {
    const int i = values.index_of(s.name);
    values.set_at(i, values.specs()[static_cast<std::size_t>(i)].parse(s.value));
  }
  return values;
}

class Recorder : public StrobeObserver {
 public:
  explicit Recorder(int periods) : periods_(periods) {}
  bool on_sample(const StrobeSample& sample) override {
    samples.push_back(sample);
    return static_cast<int>(samples.size()) < periods_;
  }
  std::vector<StrobeSample> samples;

 private:
  int periods_;
};

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
