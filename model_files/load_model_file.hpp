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

// Registers the model a sweep file's [model] section holds (`text`: the sweep file's lines with all
// but the section's blank, so that messages read SWEEP:LINE:COL) and returns its name. The same text
// again (a resumed run, another MPI rank, a second call from Python) is the same model.
std::string load_inline_model(const std::string& text, const std::string& sweep_file);

// Whether a model's origin (ModelOrigin::file) is a sweep file's [model] section: the sweep text
// carries it, so a resumed run or a batch job needs no --model option for it.
bool is_inline_model_origin(const std::string& origin_file);

// For `vibro describe`: the modes and guards of a model loaded from a model file, one line each,
// with what each guard does and the guarantee its event location has; empty for any other model.
std::vector<std::string> model_file_outline(const std::string& model_name);

}  // namespace vibro
