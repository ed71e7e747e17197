// vibro._core: the C++ side of the Python package (python/vibro/ is the rest).
#include <cstdlib>

#include "bindings.hpp"
#include "engine/core/input_error.hpp"
#include "jobs/plugins/plugin_loader.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "The C++ side of vibro: models, their descriptions and the sweep of `vibro run`.";
  // Bad input: vibro.InputError (a ValueError, python/vibro/_errors.py) with the message `vibro` prints
  // after "vibro: error: ". The class is held for the life of the process, as pybind11's own are.
  static PyObject* const input_error =
      pybind11::object(pybind11::module_::import("vibro._errors").attr("InputError")).release().ptr();
  pybind11::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const vibro::InputError& e) {
      PyErr_SetString(input_error, e.what());
    }
  });
  // Models from plugins, as the command line finds them (VIBRO_PLUGIN_PATH).
  if (const char* folders = std::getenv("VIBRO_PLUGIN_PATH")) vibro::load_plugin_path(folders);
  m.def("load_plugin", &vibro::load_plugin, pybind11::arg("file"),
        "Loads a model plugin (a shared library built with vibro_add_model), as --plugin FILE does.");
  vibro::python::bind_models(m);
  vibro::python::bind_sweep(m);
  vibro::python::bind_trace(m);
}
