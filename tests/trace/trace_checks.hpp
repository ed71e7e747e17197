#pragma once
// Checks every model's trace must pass: the dense state at t = k T is the stroboscopic sample, and
// tracing does not change the orbit.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/model_registry.hpp"
#include "jobs/trace/case_trace.hpp"
#include "support/model_fixture.hpp"

namespace vibro::trace_testing {

// The largest difference, in units of the layout's scales, between a section component of the trace
// at t = k T and the sample; -1 when some sample has no trace row at its time.
inline double strobe_mismatch(const CaseTrace& trace) {
  double worst = 0;
  const auto n = static_cast<std::size_t>(trace.section_dims());
  for (const auto& sample : trace.strobe) {
    const auto row = std::lower_bound(trace.time.begin(), trace.time.end(), sample.time);
    if (row == trace.time.end() || *row != sample.time) return -1;
    const auto r = static_cast<std::size_t>(row - trace.time.begin());
    for (std::size_t c = 0; c < n; ++c)
      worst = std::max(worst, std::fabs(trace.state(r, c) - sample.state[c]) / trace.layout.state_scales[c]);
  }
  return worst;
}

// The same case run without a sink stops at the same samples, bit for bit.
inline bool same_orbit_without_trace(const Model& model, const ParameterSet& values, const CaseTrace& trace) {
  auto simulation = model.start(values);
  test_support::Recorder recorder(static_cast<int>(trace.strobe.size()));
  simulation->run(recorder);
  if (recorder.samples.size() != trace.strobe.size()) return false;
  for (std::size_t k = 0; k < trace.strobe.size(); ++k)
    if (recorder.samples[k].state != trace.strobe[k].state ||
        recorder.samples[k].drift_position != trace.strobe[k].drift_position)
      return false;
  return true;
}

inline std::size_t column(const CaseTrace& trace, const std::string& name) {
  return static_cast<std::size_t>(std::find(trace.components.begin(), trace.components.end(), name) -
                                  trace.components.begin());
}

}  // namespace vibro::trace_testing
