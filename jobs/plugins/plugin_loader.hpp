#pragma once
// Loads model plugins (shared libraries built with vibro_add_model) into the model registry. Every
// refusal is an InputError naming the file and raised before any case starts: not a shared library,
// not a vibro plugin, built against another vibro, a model name already taken, no model registered.
#include <string>
#include <vector>

namespace vibro {

// Loads `file` once (a second request for the same file, by its canonical path, does nothing); a
// model file (NAME.vibro) is loaded by load_model_file.
void load_plugin(const std::string& file);

// Loads every *.so in each folder of a colon-separated list (VIBRO_PLUGIN_PATH), in name order;
// empty entries are skipped, a folder that does not exist is an error naming it.
void load_plugin_path(const std::string& folders);

// The option that makes a later vibro (a resumed run, a batch job's ranks) load the plugin a model
// came from: --plugin=<absolute path>, or --model=<absolute path> for a model file; empty for a
// built-in model.
std::string plugin_option_for(const std::string& model);

}  // namespace vibro
