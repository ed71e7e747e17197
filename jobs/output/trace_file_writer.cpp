#include "jobs/output/trace_file_writer.hpp"

#include <H5Cpp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_writer.hpp"

namespace vibro {

namespace {

using h5::attribute;

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ",") + n;
  return text;
}

std::size_t widest(const std::vector<std::string>& texts) {
  std::size_t width = 1;
  for (const auto& t : texts) width = std::max(width, t.size());
  return width;
}

template <class T>
H5::DataSet write_column(H5::Group& group, const std::string& name, const std::vector<T>& values, hsize_t width = 1) {
  auto set = width == 1 ? h5::column<T>(group, name, values.size(), T{})
                        : h5::matrix<T>(group, name, values.size() / width, width, T{});
  if (!values.empty()) h5::write_rows(set, 0, values, width);
  return set;
}

// Every parameter of the case, as a scalar with its unit (the choice's name for a choice).
void write_case_parameters(H5::H5File& file, const ParameterSet& values) {
  H5::Group group = h5::create_group(file, "/parameters");
  const auto& specs = values.specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& p = specs[i];
    auto set = write_column<double>(group, p.name, {values.at(static_cast<int>(i))});
    attribute(set, "unit", p.unit);
    attribute(set, "description", p.description);
    if (p.kind == ParameterKind::Choice) attribute(set, "choice", p.format_value(values.at(static_cast<int>(i))));
  }
}

// /trace: the time grid, the mode and one dataset per state component, each with its unit.
void write_states(H5::H5File& file, const CaseTrace& trace) {
  H5::Group group = h5::create_group(file, "/trace");
  auto time = write_column(group, "time", trace.time);
  attribute(time, "unit", trace.time_unit);
  auto mode = write_column(group, "mode", std::vector<std::int32_t>(trace.modes.begin(), trace.modes.end()));
  attribute(mode, "names", joined(trace.layout.mode_names));
  attribute(mode, "meaning", std::string("the discrete mode at each time, indexing the comma-separated names"));
  const std::size_t d = trace.components.size(), rows = trace.time.size();
  for (std::size_t c = 0; c < d; ++c) {
    std::vector<double> column(rows);
    for (std::size_t r = 0; r < rows; ++r) column[r] = trace.state(r, c);
    auto set = write_column(group, trace.components[c], column);
    attribute(set, "unit", trace.units[c]);
  }
  attribute(group, "components", joined(trace.components));
  attribute(group, "units", joined(trace.units));
}

// /events: time, kind and the state before and after each event (rows in /trace's component order).
void write_events(H5::H5File& file, const CaseTrace& trace) {
  H5::Group group = h5::create_group(file, "/events");
  const std::size_t d = trace.components.size();
  std::vector<double> time, before, after;
  std::vector<std::string> kinds;
  for (const auto& e : trace.events) {
    time.push_back(e.time);
    kinds.push_back(e.kind);
    before.insert(before.end(), e.before.begin(), e.before.end());
    after.insert(after.end(), e.after.begin(), e.after.end());
  }
  auto set = write_column(group, "time", time);
  attribute(set, "unit", trace.time_unit);
  auto kind = h5::create_strings(group, "kind", kinds.size(), widest(kinds));
  if (!kinds.empty()) h5::write_strings(kind, 0, kinds);
  attribute(kind, "meaning", std::string("the model's name for the event (impact, grazing, lift_off, stick, ...)"));
  for (auto* rows : {&before, &after}) {
    set = h5::matrix<double>(group, rows == &before ? "before" : "after", time.size(), d, 0.0);
    if (!rows->empty()) h5::write_rows(set, 0, *rows, d);
    attribute(set, "components", joined(trace.components));
    attribute(set, "units", joined(trace.units));
  }
}

// /strobe: the stroboscopic samples at t = k T, as a sweep would see them.
void write_strobe(H5::H5File& file, const CaseTrace& trace) {
  H5::Group group = h5::create_group(file, "/strobe");
  const auto dims = static_cast<std::size_t>(trace.layout.dims());
  const std::size_t counters = trace.layout.counter_names.size();
  std::vector<double> time, state, drift;
  std::vector<std::int64_t> period, counts;
  std::vector<std::int32_t> mode;
  for (const auto& s : trace.strobe) {
    time.push_back(s.time);
    period.push_back(s.period);
    mode.push_back(s.mode);
    drift.push_back(s.drift_position);
    state.insert(state.end(), s.state.begin(), s.state.begin() + static_cast<long>(dims));
    counts.insert(counts.end(), s.counters.begin(), s.counters.begin() + static_cast<long>(counters));
  }
  auto set = write_column(group, "time", time);
  attribute(set, "unit", trace.time_unit);
  write_column(group, "period", period);
  set = write_column(group, "mode", mode);
  attribute(set, "names", joined(trace.layout.mode_names));
  set = h5::matrix<double>(group, "state", time.size(), std::max<std::size_t>(dims, 1), 0.0);
  if (!state.empty()) h5::write_rows(set, 0, state, dims);
  std::vector<std::string> units(trace.units.begin(), trace.units.begin() + static_cast<long>(dims));
  attribute(set, "components", joined(trace.layout.state_names));
  attribute(set, "units", joined(units));
  set = write_column(group, "drift_position", drift);
  attribute(set, "meaning", std::string("the model's transport coordinate at the sample (0 where it has none)"));
  set = h5::matrix<std::int64_t>(group, "counters", time.size(), std::max<std::size_t>(counters, 1), 0);
  if (!counts.empty()) h5::write_rows(set, 0, counts, counters);
  attribute(set, "names", joined(trace.layout.counter_names));
  attribute(set, "meaning", std::string("cumulative event counts since t = 0"));
}

void write_file(const std::string& path, const TraceOrigin& origin, const CaseTrace& trace) {
  H5::H5File file = h5::create_file(path);
  H5::Group root = file.openGroup("/");
  write_origin(root, *origin.spec, "vibro-trace");
  attribute(root, "created_utc", utc_now());
  attribute(root, "case", origin.case_index);
  attribute(root, "periods", static_cast<long long>(origin.request.periods));
  attribute(root, "samples_per_period", static_cast<long long>(origin.request.samples_per_period));
  attribute(root, "period", trace.period);
  write_case_parameters(file, origin.values);
  write_states(file, trace);
  write_events(file, trace);
  write_strobe(file, trace);
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);  // round-trips a double
  return text;
}

// "name [unit]" of every component, each with `suffix` after its name.
std::string header(const CaseTrace& trace, const std::string& suffix) {
  std::string text;
  for (std::size_t c = 0; c < trace.components.size(); ++c)
    text += "," + trace.components[c] + suffix + " [" + trace.units[c] + "]";
  return text;
}

std::ofstream open_csv(const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  return out;
}

}  // namespace

void write_trace_file(const std::string& path, const TraceOrigin& origin, const CaseTrace& trace) {
  h5::write_atomically(path, [&](const std::string& temporary) { write_file(temporary, origin, trace); });
}

std::string trace_events_csv(const std::string& path) {
  const bool suffixed = path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  return (suffixed ? path.substr(0, path.size() - 4) : path) + "_events.csv";
}

std::string write_trace_csv(const std::string& path, const CaseTrace& trace) {
  std::ofstream states = open_csv(path);
  states << "time [" << trace.time_unit << "],mode" << header(trace, "") << "\n";
  for (std::size_t r = 0; r < trace.time.size(); ++r) {
    states << number(trace.time[r]) << "," << trace.modes[r];
    for (std::size_t c = 0; c < trace.components.size(); ++c) states << "," << number(trace.state(r, c));
    states << "\n";
  }
  const std::string events_path = trace_events_csv(path);
  std::ofstream events = open_csv(events_path);
  events << "time [" << trace.time_unit << "],kind" << header(trace, "_before") << header(trace, "_after") << "\n";
  for (const auto& e : trace.events) {
    events << number(e.time) << "," << e.kind;
    for (const auto* side : {&e.before, &e.after})
      for (const double v : *side) events << "," << number(v);
    events << "\n";
  }
  if (!states || !events) throw std::runtime_error("writing '" + path + "' failed");
  return events_path;
}

}  // namespace vibro
