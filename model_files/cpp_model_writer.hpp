#pragma once
// A model file's model written in C++ through the hybrid-model API (docs/writing_a_model.md): what
// `vibro new-model NAME --from FILE.vibro` puts in NAME_model.cpp. Every expression keeps the file's
// order of operations (the same operations on the same operands), so that the compiled plugin, built
// without floating-point contraction, gives the model file's results.
#include <string>

#include "model_files/model_file_spec.hpp"

namespace vibro::model_file {

// The plugin's source: a HybridModel<N> named `model_name` with the file's parameters (units, ranges,
// descriptions), states, period, modes, guards and their actions, initial mode, requirements,
// observables and classes. `origin` is how the header comment names the file.
std::string cpp_model_source(const ModelFileSpec& spec, const std::string& model_name, const std::string& origin);

}  // namespace vibro::model_file
