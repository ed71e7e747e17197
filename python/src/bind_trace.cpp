// trace(): one case's time history (jobs/trace: trace_case, what `vibro trace` prints) as numpy
// arrays. The case is parsed as a one-case sweep file, so its keys and values are checked, and
// refused with the same messages, as `vibro run` would.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "jobs/trace/case_trace.hpp"

namespace py = pybind11;

namespace vibro::python {

namespace {

py::array_t<double> table(const std::vector<double>& values, std::size_t rows, std::size_t columns) {
  py::array_t<double> out({rows, columns});
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::dict trace(const std::string& sweep_text, int periods, int samples_per_period) {
  const SweepSpec spec = parse_sweep(sweep_text, "vibro.simulate", {});
  CaseTrace trace;
  {
    py::gil_scoped_release free_interpreter;
    trace = trace_case(*spec.model, spec.base, {periods, samples_per_period});
  }
  const std::size_t d = trace.components.size(), n = trace.time.size(), e = trace.events.size();
  py::dict out;
  out["components"] = trace.components;
  out["units"] = trace.units;
  out["period"] = trace.period;
  out["time"] = py::array_t<double>(n, trace.time.data());
  out["state"] = table(trace.states, n, d);
  out["mode"] = py::array_t<int>(n, trace.modes.data());
  out["mode_names"] = trace.layout.mode_names;
  // Each event's row written straight into the arrays Python gets.
  py::array_t<double> event_time(e), before({e, d}), after({e, d});
  py::list kinds;
  for (std::size_t i = 0; i < e; ++i) {
    const TraceEvent& event = trace.events[i];
    event_time.mutable_at(i) = event.time;
    kinds.append(event.kind);
    std::copy(event.before.begin(), event.before.end(), before.mutable_data(i, 0));
    std::copy(event.after.begin(), event.after.end(), after.mutable_data(i, 0));
  }
  out["event_time"] = event_time;
  out["event_kind"] = kinds;
  out["event_before"] = before;
  out["event_after"] = after;
  const std::size_t k = trace.strobe.size(), m = static_cast<std::size_t>(trace.layout.dims());
  std::vector<double> strobe_time, strobe_state, drift;
  std::vector<long long> strobe_period;
  std::vector<int> strobe_mode;
  for (const auto& s : trace.strobe) {
    strobe_time.push_back(s.time);
    strobe_period.push_back(s.period);
    strobe_mode.push_back(s.mode);
    drift.push_back(s.drift_position);
    strobe_state.insert(strobe_state.end(), s.state.begin(), s.state.begin() + static_cast<std::ptrdiff_t>(m));
  }
  out["strobe_components"] = trace.layout.state_names;
  out["strobe_units"] = trace.layout.state_units;
  out["drift_unit"] = trace.layout.drift_unit;
  out["strobe_time"] = py::array_t<double>(k, strobe_time.data());
  out["strobe_period"] = py::array_t<long long>(k, strobe_period.data());
  out["strobe_state"] = table(strobe_state, k, m);
  out["strobe_drift_position"] = py::array_t<double>(k, drift.data());
  out["strobe_mode"] = py::array_t<int>(k, strobe_mode.data());
  return out;
}

}  // namespace

void bind_trace(py::module_& m) {
  m.def("trace", &trace, py::arg("sweep_text"), py::arg("periods"), py::arg("samples_per_period"),
        "One case (a sweep file's text without axes) run for `periods` forcing periods: its dense state on "
        "samples_per_period points per period, its events and its stroboscopic samples, as numpy arrays.");
}

}  // namespace vibro::python
