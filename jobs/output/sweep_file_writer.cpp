#include "jobs/output/sweep_file_writer.hpp"

#include <H5Cpp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "jobs/output/sweep_attractors.hpp"
#include "vibro/version.hpp"

namespace vibro {

std::string utc_now() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

namespace {

void attribute(H5::H5Object& where, const std::string& name, const std::string& value) {
  const H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  const char* data = value.c_str();
  where.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, &data);
}

void attribute(H5::H5Object& where, const std::string& name, double value) {
  where.createAttribute(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_DOUBLE, &value);
}

void attribute(H5::H5Object& where, const std::string& name, long long value) {
  where.createAttribute(name, H5::PredType::NATIVE_LLONG, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_LLONG, &value);
}

template <class T>
const H5::PredType& native();
template <> const H5::PredType& native<double>() { return H5::PredType::NATIVE_DOUBLE; }
template <> const H5::PredType& native<std::int64_t>() { return H5::PredType::NATIVE_INT64; }
template <> const H5::PredType& native<std::int32_t>() { return H5::PredType::NATIVE_INT32; }
template <> const H5::PredType& native<std::int8_t>() { return H5::PredType::NATIVE_INT8; }

template <class T>
H5::DataSet dataset(H5::Group& group, const std::string& name, const std::vector<T>& data,
                    std::vector<hsize_t> dims = {}) {
  if (dims.empty()) dims = {data.size()};
  const H5::DataSpace space(static_cast<int>(dims.size()), dims.data());
  H5::DataSet set = group.createDataSet(name, native<T>(), space);
  if (!data.empty()) set.write(data.data(), native<T>());
  return set;
}

H5::DataSet string_dataset(H5::Group& group, const std::string& name, const std::vector<std::string>& data) {
  const H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  const hsize_t n = data.size();
  const H5::DataSpace space(1, &n);
  H5::DataSet set = group.createDataSet(name, type, space);
  std::vector<const char*> pointers;
  for (const auto& s : data) pointers.push_back(s.c_str());
  if (n > 0) set.write(pointers.data(), type);
  return set;
}

template <class T, class Get>
std::vector<T> column(const SweepRun& run, Get get) {
  std::vector<T> out;
  out.reserve(run.cases.size());
  for (const auto& c : run.cases) out.push_back(static_cast<T>(get(c)));
  return out;
}

void write_file(const std::string& path, const SweepSpec& spec, const SweepRun& run, const Provenance& prov) {
  H5::H5File file(path, H5F_ACC_TRUNC);
  H5::Group root = file.openGroup("/");
  attribute(root, "format", std::string("vibro-sweep"));
  attribute(root, "schema_version", static_cast<long long>(kSchemaVersion));
  attribute(root, "vibro_version", std::string(kVersion));
  attribute(root, "git_revision", std::string(kGitRevision));
  attribute(root, "model", spec.model->name());
  attribute(root, "sweep_file", spec.source_name);
  attribute(root, "sweep_text", spec.source_text);
  attribute(root, "started_utc", prov.started_utc);
  attribute(root, "finished_utc", prov.finished_utc);
  attribute(root, "ranks", static_cast<long long>(prov.ranks));
  attribute(root, "threads", static_cast<long long>(prov.threads));
  attribute(root, "scheduler", prov.scheduler);
  attribute(root, "wall_seconds", run.wall_seconds);
  attribute(root, "steady_state", std::string(spec.steady.mode == SteadyMode::Adaptive ? "adaptive" : "fixed"));
  attribute(root, "max_periods", static_cast<long long>(spec.steady.max_periods));
  attribute(root, "window_periods", static_cast<long long>(spec.steady.window_periods));
  attribute(root, "tol", spec.steady.tol);
  attribute(root, "adaptive_tol", spec.steady.adaptive_tol);
  attribute(root, "continuation",
            spec.continuation_axis < 0 ? std::string("none") : spec.axes[static_cast<std::size_t>(spec.continuation_axis)].name);
  attribute(root, "direction", std::string(spec.descending ? "down" : "up"));

  // The value of every parameter that is not swept (swept ones are in /axes, per case).
  H5::Group parameters = file.createGroup("/parameters");
  const auto& specs = spec.model->parameters();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& p = specs[i];
    if (std::find(spec.axis_parameter.begin(), spec.axis_parameter.end(), static_cast<int>(i)) != spec.axis_parameter.end())
      continue;
    if (p.kind == ParameterKind::Choice) attribute(parameters, p.name, p.format_value(spec.base.at(static_cast<int>(i))));
    else attribute(parameters, p.name, spec.base.at(static_cast<int>(i)));
  }

  H5::Group axes = file.createGroup("/axes");
  std::string names;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const auto& axis = spec.axes[a];
    H5::DataSet set = dataset(axes, axis.name, axis.values);
    const auto& p = specs[static_cast<std::size_t>(spec.axis_parameter[a])];
    attribute(set, "unit", p.unit);
    attribute(set, "expression", axis.expression);
    attribute(set, "order", static_cast<long long>(a));
    names += (a ? "," : "") + axis.name;
  }
  attribute(axes, "order", names);

  H5::Group cases = file.createGroup("/cases");
  attribute(cases, "layout", std::string("flattened grid, C order over /axes 'order' (first axis slowest)"));
  auto status = dataset(cases, "status", column<std::int8_t>(run, [](const CaseResult& c) { return c.status; }));
  attribute(status, "meaning", std::string("0 ok, 1 infeasible, 2 failed, 3 not run"));
  string_dataset(cases, "reason", column<std::string>(run, [](const CaseResult& c) { return c.reason; }));
  string_dataset(cases, "class", column<std::string>(run, [](const CaseResult& c) { return c.class_code; }));
  auto periodicity = dataset(cases, "periodicity", column<std::int8_t>(run, [](const CaseResult& c) { return c.periodicity; }));
  attribute(periodicity, "meaning", std::string("0 periodic, 1 slowly converging, 2 not converged"));
  dataset(cases, "period", column<std::int32_t>(run, [](const CaseResult& c) { return c.period; }));
  dataset(cases, "periods_run", column<std::int32_t>(run, [](const CaseResult& c) { return c.periods_run; }));
  dataset(cases, "window_periods", column<std::int32_t>(run, [](const CaseResult& c) { return c.window_periods; }));
  dataset(cases, "jumps", column<std::int32_t>(run, [](const CaseResult& c) { return c.jumps; }));
  dataset(cases, "stopped_early", column<std::int8_t>(run, [](const CaseResult& c) { return c.stopped_early; }));
  auto wall = dataset(cases, "wall_seconds", column<double>(run, [](const CaseResult& c) { return c.wall_seconds; }));
  attribute(wall, "unit", std::string("s"));

  const auto observables = spec.model->observables();
  H5::Group obs = file.createGroup("/cases/observables");
  for (std::size_t o = 0; o < observables.size(); ++o) {
    auto set = dataset(obs, observables[o].name, column<double>(run, [&](const CaseResult& c) {
      return o < c.observables.size() ? c.observables[o] : std::nan("");
    }));
    attribute(set, "unit", observables[o].unit);
    attribute(set, "description", observables[o].description);
  }

  // Counter and state names come from the layout of the first case that can start.
  std::vector<std::string> counter_names;
  std::vector<std::string> state_names;
  for (long long i = 0; i < spec.case_count() && counter_names.empty(); ++i) {
    if (run.cases[static_cast<std::size_t>(i)].status != CaseStatus::Ok) continue;
    const auto simulation = spec.model->start(spec.case_parameters(i));
    counter_names = simulation->layout().counter_names;
    state_names = simulation->layout().state_names;
  }
  H5::Group counters = file.createGroup("/cases/counters");
  H5::Group window_counters = file.createGroup("/cases/window_counters");
  for (std::size_t k = 0; k < counter_names.size(); ++k) {
    dataset(counters, counter_names[k], column<std::int64_t>(run, [&](const CaseResult& c) {
      return k < c.counters.size() ? c.counters[k] : -1;
    }));
    dataset(window_counters, counter_names[k], column<std::int64_t>(run, [&](const CaseResult& c) {
      return k < c.window_counters.size() ? c.window_counters[k] : -1;
    }));
  }

  // Attractor labels within each parameter point: a label over the initial-condition axes is a basin map.
  const SweepAttractors attractors = label_sweep_attractors(spec, run);
  if (!attractors.labels.label.empty()) {
    std::vector<std::int32_t> labels(attractors.labels.label.begin(), attractors.labels.label.end());
    auto set = dataset(cases, "attractor", labels);
    std::string initial_names;
    for (const auto& a : attractors.initial_axes) initial_names += (initial_names.empty() ? "" : ",") + a;
    attribute(set, "meaning", std::string("attractor label within the case's parameter point (the cases that differ "
                                          "only in the initial-condition axes); -1: no steady state"));
    attribute(set, "initial_condition_axes", initial_names.empty() ? std::string("none") : initial_names);
  }

  if (spec.floquet) {
    // Multipliers per case, padded with NaN; max_modulus < 1: the orbit is stable.
    H5::Group floquet = file.createGroup("/cases/floquet");
    std::size_t width = 0;
    for (const auto& c : run.cases) width = std::max(width, c.floquet.size());
    std::vector<double> re, im;
    for (const auto& c : run.cases)
      for (std::size_t k = 0; k < width; ++k) {
        re.push_back(k < c.floquet.size() ? c.floquet[k].real() : std::nan(""));
        im.push_back(k < c.floquet.size() ? c.floquet[k].imag() : std::nan(""));
      }
    dataset(floquet, "real", re, {run.cases.size(), width});
    dataset(floquet, "imag", im, {run.cases.size(), width});
    auto modulus = dataset(floquet, "max_modulus", column<double>(run, [](const CaseResult& c) {
      double m = c.floquet.empty() ? std::nan("") : 0.0;
      for (const auto& mu : c.floquet) m = std::max(m, std::abs(mu));
      return m;
    }));
    attribute(modulus, "meaning", std::string("largest |multiplier| of the steady orbit; < 1 stable; NaN: not computed"));
  }

  if (spec.lyapunov_periods > 0) {
    std::size_t width = 0;
    for (const auto& c : run.cases) width = std::max(width, c.lyapunov.size());
    std::vector<double> values;
    for (const auto& c : run.cases)
      for (std::size_t k = 0; k < width; ++k) values.push_back(k < c.lyapunov.size() ? c.lyapunov[k] : std::nan(""));
    auto set = dataset(cases, "lyapunov", values, {run.cases.size(), width});
    attribute(set, "unit", std::string("1/s"));
    attribute(set, "meaning", std::string("Lyapunov exponents of the stroboscopic map, largest first, over "
                                          "output.lyapunov_periods periods after the steady state; NaN: not computed"));
  }

  if (spec.record_strobe) {
    H5::Group strobe = file.createGroup("/cases/strobe");
    const std::size_t dims = state_names.size();
    std::vector<std::int64_t> offsets{0};
    std::vector<double> values, drift;
    std::vector<std::int8_t> modes;
    for (const auto& c : run.cases) {
      for (const auto& p : c.strobe) {
        values.insert(values.end(), p.state.begin(), p.state.begin() + static_cast<long>(dims));
        drift.push_back(p.drift_position);
        modes.push_back(static_cast<std::int8_t>(p.mode));
      }
      offsets.push_back(static_cast<std::int64_t>(drift.size()));
    }
    std::string joined;
    for (std::size_t d = 0; d < dims; ++d) joined += (d ? "," : "") + state_names[d];
    auto set = dataset(strobe, "values", values, {drift.size(), dims});
    attribute(set, "columns", joined);
    dataset(strobe, "drift_position", drift);
    dataset(strobe, "mode", modes);
    auto off = dataset(strobe, "offsets", offsets);
    attribute(off, "meaning", std::string("points of case i are rows offsets[i] .. offsets[i+1]-1"));
  }
}

}  // namespace

void write_sweep_file(const std::string& path, const SweepSpec& spec, const SweepRun& run, const Provenance& provenance) {
  const std::string temporary = path + ".partial";
  try {
    H5::Exception::dontPrint();
    write_file(temporary, spec, run, provenance);
  } catch (const H5::Exception& e) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + path + ": " + e.getDetailMsg());
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + temporary + " to " + path);
}

}  // namespace vibro
