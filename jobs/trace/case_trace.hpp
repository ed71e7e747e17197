#pragma once
// One case's continuous time history (vibro trace, and vibro.simulate in Python): the dense state on a
// fixed grid of samples_per_period points per forcing period, every event with the state before and
// after it, and the stroboscopic samples, over the first `periods` periods of the case.
#include <string>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

struct TraceRequest {
  int periods = 10;
  int samples_per_period = 200;
};

struct TraceEvent {
  double time;                       // s
  std::string kind;                  // the model's name for it: "impact", "lift_off", "stick", ...
  std::vector<double> before, after;  // the state just before and after, in CaseTrace::components order
};

struct CaseTrace {
  std::vector<std::string> components;  // state components: the section's first, then the rest
  std::vector<std::string> units;       // one per component
  std::vector<double> time;             // s, the grid t = j T / samples_per_period
  std::vector<double> states;           // row-major, time.size() x components.size()
  std::vector<int> modes;               // the discrete mode at each grid time (mode_names)
  std::vector<TraceEvent> events;
  std::vector<StrobeSample> strobe;     // at t = k T up to k = periods (some models also sample k = 0)
  StrobeLayout layout;                  // how to read the strobe samples (state and mode names)
  double period = 0;                    // T, s
  std::string time_unit = "s";          // the unit of time and T as the model declares it ("-": dimensionless)
  int section_dims() const { return layout.dims(); }  // strobe state components = the first of components
  double state(std::size_t row, std::size_t component) const { return states[row * components.size() + component]; }
};

// Runs the case for request.periods periods with a sink attached. Throws InputError for a model
// without ModelCapabilities::trace or a request out of range, InfeasibleCase or CaseFailure as a sweep's
// case would (the history up to the failure is lost).
CaseTrace trace_case(const Model& model, const ParameterSet& values, const TraceRequest& request);

}  // namespace vibro
