#include "jobs/cli/examples.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/default_sweep.hpp"  // generated

#ifndef VIBRO_EXAMPLES_DIR
#define VIBRO_EXAMPLES_DIR "examples"
#endif

namespace vibro::cli {

namespace {

std::string examples_dir() {
  const char* from_environment = std::getenv("VIBRO_EXAMPLES");
  return from_environment ? from_environment : VIBRO_EXAMPLES_DIR;
}

// The first comment line of a sweep file: what the example reproduces.
std::string first_comment(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("# ", 0) == 0) return line.substr(2);
  return "";
}

}  // namespace

std::string built_in_example() { return std::filesystem::path(kDefaultSweepName).stem().string(); }

std::vector<std::string> example_names() {
  std::vector<std::string> names = {built_in_example()};
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(examples_dir(), error))
    if (entry.path().extension() == ".ini" && entry.path().stem() != built_in_example())
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Example load_example(const std::string& name) {
  if (name == built_in_example()) return {name, kDefaultSweepName, kDefaultSweepText};
  const auto names = example_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw InputError("--example '" + echoed(name) + "' is not a shipped example" + did_you_mean(name, names) +
                     "; vibro examples lists them");
  const std::string path = examples_dir() + "/" + name + ".ini";
  return {name, name + ".ini", read_sweep_file(path)};
}

int examples_command() {
  for (const auto& name : example_names()) {
    const Example example = load_example(name);
    std::cout << std::left << std::setw(34) << name + " " << first_comment(example.text) << "\n";
  }
  std::cout << "\nvibro run --example NAME runs one (" << built_in_example() << " is built in; the others are read from "
            << examples_dir() << ")\n";
  return 0;
}

}  // namespace vibro::cli
