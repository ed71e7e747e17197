#pragma once
// Helpers for the conveyor tests: parameter sets by name, and a run that records samples and events.
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "support/model_fixture.hpp"
#include "engine/core/parameter_spec.hpp"
#include "models/conveyor/conveyor_analytic.hpp"
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

// The angle of throw of the tests (12 deg), in rad.
inline constexpr double kPhi = 12 * M_PI / 180;

// A value as a parameter setting, every digit kept.
inline std::string num(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Parameters at a_hat (c_r = 0.6) with the start just after an impact of the stable one-periodic hopping
// orbit (the paper's Eq. 26 phase), and the stroboscopic sample that orbit passes through (t = k T, in
// flight) after 40 periods. `phase`: the plate's phase at t = 0 (the section t = k T at that phase of
// the plate's motion).
struct Hopping {
  ParameterSet values;
  StrobeSample sample;
};
inline Hopping hopping(double a_hat, double phase = 0) {
  const double theta = analytic::hopping_phase(a_hat, 0.6, kPhi, 9.81);
  const double clock = theta - phase < 0 ? theta - phase + 2 * M_PI : theta - phase;  // omega t of that impact
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", num(a_hat)}}));
  ParameterSet values = conveyor_values({{"a_hat", num(a_hat)}, {"phase", num(phase)}, {"start", "state"},
                                         {"theta0", num(clock)}, {"h0", "0"}, {"u0", "0.073575"},
                                         {"vT0", num(c.B * c.omega * std::cos(theta))}});
  return {values, simulate(values, 40).samples.back()};
}

}  // namespace vibro::conveyor::testing
