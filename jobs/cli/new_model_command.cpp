// vibro new-model NAME [DIR] [--from FILE.vibro]: a model plugin project that builds against the
// installed vibro and runs as written (jobs/new_model/: CMakeLists.txt, the model, a sweep file, a
// Catch2 test, a README). With --from, the model is the model file's, written in C++
// (model_files/cpp_model_writer.hpp), with a sweep file and README of its own and the file beside it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <regex>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/model_project_files.hpp"  // generated
#include "model_files/cpp_model_writer.hpp"
#include "model_files/model_file_parser.hpp"

namespace vibro::cli {

namespace {

std::string with_name(std::string text, const std::string& name) {
  const std::string placeholder = "@NAME@";
  for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + name.size()))
    text.replace(at, placeholder.size(), name);
  return text;
}

struct FromFile {
  std::string path, text;
  model_file::ModelFileSpec spec;
};

FromFile read_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("new-model: --from '" + echoed(path) + "' cannot be read; expected a model file NAME.vibro (docs/model_files.md)");
  std::ostringstream text;
  text << in.rdbuf();
  FromFile from{path, text.str(), {}};
  from.spec = model_file::parse_model_file(from.text, path);  // errors name FILE:LINE:COL
  return from;
}

// A sweep over the first physical parameter around its default, within its range.
std::string sweep_from_file(const std::string& name, const FromFile& from) {
  std::ostringstream o;
  o.precision(12);
  o << "# The " << name << " model (the model file " << std::filesystem::path(from.path).filename().string()
    << " in C++). Run it after building the plugin (README.md):\n#   vibro run " << name << ".ini\nmodel = " << name
    << "\nplugin = build/" << name << ".so\n";
  for (const auto& p : from.spec.parameters) {
    if (p.group != ParameterGroup::Physics) continue;
    double lo = p.default_value == 0 ? 0.0 : 0.5 * p.default_value, hi = p.default_value == 0 ? 1.0 : 1.5 * p.default_value;
    if (lo > hi) std::swap(lo, hi);
    const double inner = 1e-3 * (hi - lo);  // open ends stay open
    lo = std::max(lo, p.min + (p.min_inclusive ? 0.0 : inner));
    hi = std::min(hi, p.max - (p.max_inclusive ? 0.0 : inner));
    if (!(lo < hi)) continue;
    o << "\n[axes]\n" << p.name << " = linspace(" << lo << ", " << hi << ", 11)\n";
    break;
  }
  o << "\n[run]\nmax_periods = 200\n\n[output]\nfile = " << name << ".h5\n";
  return o.str();
}

std::string readme_from_file(const std::string& name, const FromFile& from) {
  const std::string file = std::filesystem::path(from.path).filename().string();
  return "# " + name + ": a vibro model plugin from the model file " + file + "\n\n`" + name +
         "_model.cpp` is the model file's model (`" + from.spec.name + "`: " + from.spec.summary +
         ") written in C++ through the hybrid-model API by `vibro new-model " + name + " --from " + file +
         "`; the file is kept beside it. Each expression keeps the file's order of operations and the plugin builds "
         "without floating-point contraction (-ffp-contract=off), so a sweep gives the model file's results. Edit the C++ "
         "from here on (vibro's docs/writing_a_model.md is the reference of the API).\n\n"
         "Build (PREFIX: where vibro was installed with `cmake --install build --prefix PREFIX`):\n\n"
         "    cmake -S . -B build -DCMAKE_PREFIX_PATH=PREFIX\n    cmake --build build\n\n"
         "Run:\n\n    vibro run " + name + ".ini                              # the sweep file names the plugin\n"
         "    vibro describe " + name + " --plugin build/" + name + ".so\n\n"
         "The same sweep of the model file itself: `vibro run " + name + ".ini --model=" + file + "` without the plugin line.\n";
}

}  // namespace

int new_model_command(const std::vector<std::string>& all_args) {
  std::vector<std::string> args;
  std::optional<FromFile> from;
  for (std::size_t i = 0; i < all_args.size(); ++i) {
    if (all_args[i] != "--from" && all_args[i].rfind("--from=", 0) != 0) {
      args.push_back(all_args[i]);
      continue;
    }
    if (from) throw InputError("new-model: --from is given twice");
    std::string path = all_args[i].size() > 7 ? all_args[i].substr(7) : "";
    if (all_args[i] == "--from") {
      if (i + 1 >= all_args.size()) throw InputError("new-model: --from needs a model file (--from FILE.vibro)");
      path = all_args[++i];
    }
    from = read_model_file(path);
  }
  if (args.empty() || args.size() > 2) throw InputError("usage: vibro new-model NAME [DIR] [--from FILE.vibro]");
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
  const auto write = [&](const std::string& file, const std::string& text) {
    const auto path = folder / file;
    std::ofstream out(path, std::ios::binary);
    if (!(out << text)) throw InputError("new-model: cannot write '" + path.string() + "'");
  };
  for (const auto& file : kModelProjectFiles) {
    std::string target = with_name(file.name, name), text = with_name(file.text, name);
    if (from) {
      if (target == "test_" + name + ".cpp") continue;  // the template's test is the impact oscillator's
      if (target == name + "_model.cpp") text = model_file::cpp_model_source(from->spec, name, from->path);
      if (target == name + ".ini") text = sweep_from_file(name, *from);
      if (target == "README.md") text = readme_from_file(name, *from);
      if (target == "CMakeLists.txt") {
        const std::string line = "vibro_add_model(" + name + " SOURCES " + name + "_model.cpp)\n";
        const auto at = text.find(line);
        if (at != std::string::npos)
          text.insert(at + line.size(), "# The model file's results to the bit: no fused multiply-adds (vibro builds the same way).\n"
                                        "target_compile_options(" + name + "_objects PRIVATE -ffp-contract=off)\n");
      }
    }
    write(target, text);
  }
  if (from) write(std::filesystem::path(from->path).filename().string(), from->text);
  std::cout << "wrote model project '" << name << "' in " << folder.string() << "\n"
            << "build:  cmake -S " << folder.string() << " -B " << (folder / "build").string()
            << " -DCMAKE_PREFIX_PATH=<vibro's install prefix> && cmake --build " << (folder / "build").string() << "\n"
            << "run:    cd " << folder.string() << " && vibro run " << name << ".ini\n";
  return 0;
}

}  // namespace vibro::cli
