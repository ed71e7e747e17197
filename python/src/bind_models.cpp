// models() and describe(): the registry and the Model interface `vibro models` and `vibro describe`
// print from (jobs/cli/commands.cpp), returned as Python values instead of text.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "engine/core/model_registry.hpp"
#include "model_files/load_model_file.hpp"
#include "jobs/cli/model_layout.hpp"

namespace py = pybind11;

namespace vibro::python {

namespace {

py::dict parameter_entry(const ParameterSpec& p) {
  py::dict entry;
  entry["name"] = p.name;
  entry["section"] = group_section(p.group);
  entry["unit"] = p.unit;
  entry["description"] = p.description;
  entry["accepted"] = p.accepted_range();  // the text error messages quote
  if (p.kind == ParameterKind::Choice) {
    entry["default"] = p.choices.at(static_cast<std::size_t>(p.default_value));
    entry["choices"] = p.choices;
  } else {
    entry["default"] = p.default_value;
    entry["min"] = p.min;
    entry["max"] = p.max;
    entry["min_inclusive"] = p.min_inclusive;
    entry["max_inclusive"] = p.max_inclusive;
    entry["integer"] = p.kind == ParameterKind::Integer;
  }
  return entry;
}

py::dict describe(const std::string& name) {
  const auto& registry = ModelRegistry::instance();
  // A model file (NAME.vibro) is loaded first; else an InputError names the closest model.
  const Model& model = registry.get(is_model_file(name) ? load_model_file(name) : name);
  py::dict d;
  d["name"] = model.name();
  d["summary"] = model.summary();
  const auto& origin = registry.origin(model.name());
  d["plugin"] = origin.built_in() ? py::object(py::none()) : py::object(py::str(origin.file));
  py::list parameters;
  for (const auto& p : model.parameters()) parameters.append(parameter_entry(p));
  d["parameters"] = parameters;
  py::list observables;
  for (const auto& o : model.observables()) {
    py::dict entry;
    entry["name"] = o.name;
    entry["unit"] = o.unit;
    entry["description"] = o.description;
    observables.append(entry);
  }
  d["observables"] = observables;
  const cli::DefaultLayout found = cli::default_layout(model);
  if (found.layout) {
    d["state"] = found.layout->state_names;
    d["modes"] = found.layout->mode_names;
    d["counters"] = found.layout->counter_names;
  } else {
    d["layout_note"] = found.why_none;
  }
  return d;
}

}  // namespace

void bind_models(py::module_& m) {
  m.def(
      "models",
      [] {
        py::dict names;  // in the registry's (sorted) order
        const auto& registry = ModelRegistry::instance();
        for (const auto& name : registry.names()) names[py::str(name)] = registry.get(name).summary();
        return names;
      },
      "The registered models: name -> one-line summary (as `vibro models`).");
  m.def("describe", &describe, py::arg("model"),
        "A model's parameters (section, unit, default, accepted range, meaning), observables and "
        "state layout: what `vibro describe MODEL` prints, as a dict.");
}

}  // namespace vibro::python
