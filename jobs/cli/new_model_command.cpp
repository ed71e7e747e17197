// vibro new-model NAME [DIR]: a model plugin project that builds against the installed vibro and
// runs as written (jobs/new_model/: CMakeLists.txt, the model, a sweep file, a Catch2 test, a README).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/model_project_files.hpp"  // generated

namespace vibro::cli {

namespace {

std::string with_name(std::string text, const std::string& name) {
  const std::string placeholder = "@NAME@";
  for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + name.size()))
    text.replace(at, placeholder.size(), name);
  return text;
}

}  // namespace

int new_model_command(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2) throw InputError("usage: vibro new-model NAME [DIR]");
  const std::string& name = args[0];
  // The name becomes a model name, a CMake target and file names: one identifier, in lower case.
  if (!std::regex_match(name, std::regex("[a-z][a-z0-9_]{0,47}")))
    throw InputError("new-model: NAME = '" + echoed(name) +
                     "' is not accepted; expected a lower-case letter, then letters, digits or _ (at most 48)");
  const auto built_in = ModelRegistry::instance().names();
  if (std::find(built_in.begin(), built_in.end(), name) != built_in.end())
    throw InputError("new-model: NAME = '" + name + "' is a built-in model's name; choose another");
  const std::filesystem::path folder = args.size() == 2 ? args[1] : name;
  std::error_code error;
  if (std::filesystem::exists(folder, error) && !std::filesystem::is_empty(folder, error))
    throw InputError("new-model: folder '" + folder.string() + "' exists and is not empty; name a new or empty folder");
  std::filesystem::create_directories(folder, error);
  if (error) throw InputError("new-model: folder '" + folder.string() + "' cannot be created: " + error.message());
  for (const auto& file : kModelProjectFiles) {
    const auto path = folder / with_name(file.name, name);
    std::ofstream out(path);
    if (!(out << with_name(file.text, name))) throw InputError("new-model: cannot write '" + path.string() + "'");
  }
  std::cout << "wrote model project '" << name << "' in " << folder.string() << "\n"
            << "build:  cmake -S " << folder.string() << " -B " << (folder / "build").string()
            << " -DCMAKE_PREFIX_PATH=<vibro's install prefix> && cmake --build " << (folder / "build").string() << "\n"
            << "run:    cd " << folder.string() << " && vibro run " << name << ".ini\n";
  return 0;
}

}  // namespace vibro::cli
