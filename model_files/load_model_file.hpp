#pragma once
// Registers the model a model file (NAME.vibro, docs/model_files.md) describes: read, checked and
// compiled at load, no C++ compiler involved. Its origin's identity carries the file's content hash,
// so a checkpoint of one version of the file is refused by a run of another.
#include <string>
#include <vector>

namespace vibro {

// Whether `name` names a model file (ends in .vibro) rather than a registered model.
bool is_model_file(const std::string& name);

// Loads `file` once (a second request for the same file, by its canonical path, does nothing) and
// returns the registered model's name. Throws InputError (FILE:LINE:COL for the file's content)
// before any case starts.
std::string load_model_file(const std::string& file);

// For `vibro describe`: the modes and guards of a model loaded from a model file, one line each,
// with what each guard does and the guarantee its event location has; empty for any other model.
std::vector<std::string> model_file_outline(const std::string& model_name);

}  // namespace vibro
