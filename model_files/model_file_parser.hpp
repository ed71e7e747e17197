#pragma once
// Reads a model file (docs/model_files.md) into a ModelFileSpec, checking everything that can be
// checked without a case: names (unknown ones with a "did you mean"), arities, a field for every
// state in every mode, guards affine in the state and the forcing, time read only through the
// forcing. Every refusal is a ModelFileError starting with FILE:LINE:COL.
#include <string>

#include "model_files/model_file_spec.hpp"

namespace vibro::model_file {

// The largest state a model file may declare (file_model.cpp instantiates each size up to it).
inline constexpr int kMaxFileStates = 8;

ModelFileSpec parse_model_file(const std::string& text, const std::string& file);

}  // namespace vibro::model_file
