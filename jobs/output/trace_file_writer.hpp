#pragma once
// The files of `vibro trace`: one case's time history, events and stroboscopic samples as HDF5
// (docs/hdf5_schema.md, "Trace files") and, on request, as CSV.
#include <string>

#include "jobs/sweep/sweep_spec.hpp"
#include "jobs/trace/case_trace.hpp"

namespace vibro {

struct TraceOrigin {
  const SweepSpec* spec;   // the sweep the case comes from
  long long case_index;    // its index in the sweep's grid
  ParameterSet values;     // its parameters
  TraceRequest request;
};

void write_trace_file(const std::string& path, const TraceOrigin& origin, const CaseTrace& trace);

// PATH (the states: time, mode, components; units in the header) and the events beside it in
// trace_events_csv(PATH). Returns the events file's name.
std::string write_trace_csv(const std::string& path, const CaseTrace& trace);
std::string trace_events_csv(const std::string& path);  // A.csv -> A_events.csv

}  // namespace vibro
