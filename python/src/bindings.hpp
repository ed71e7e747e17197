#pragma once
// The parts of the extension module vibro._core, one file each (python/src/bind_*.cpp).
#include <pybind11/pybind11.h>

namespace vibro::python {

void bind_models(pybind11::module_& m);  // models(), describe()
void bind_sweep(pybind11::module_& m);   // run(): `vibro run` in this process; examples
void bind_trace(pybind11::module_& m);   // trace(): one case's time history (jobs/trace)

}  // namespace vibro::python
