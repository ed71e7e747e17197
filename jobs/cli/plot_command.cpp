// vibro plot: a PNG figure of a sweep or branch file, drawn by the plotting scripts (python3 with
// Debian's matplotlib and h5py). The file is checked here first, so a foreign or unreadable file
// gets vibro's own error message rather than a Python traceback.
#include <H5Cpp.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/cli/commands.hpp"

#ifndef VIBRO_SCRIPTS_DIR
#define VIBRO_SCRIPTS_DIR "scripts"
#endif

namespace vibro::cli {

namespace {

// The file's root attribute `format` (vibro-sweep or vibro-branch); InputError otherwise.
std::string file_format(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw InputError("cannot read '" + path + "': no such file");
  H5::Exception::dontPrint();
  try {
    H5::H5File file(path, H5F_ACC_RDONLY);
    const H5::Attribute format = file.openGroup("/").openAttribute("format");
    std::string value;
    format.read(format.getStrType(), value);
    if (value != "vibro-sweep" && value != "vibro-branch") throw H5::Exception("format", value);
    return value;
  } catch (const H5::Exception&) {
    throw InputError("'" + path + "' is not a vibro sweep or branch file (HDF5 with format = vibro-sweep or vibro-branch)");
  }
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  static const std::map<std::string, std::string> scripts = {{"bifurcation", "plot_bifurcation.py"},
                                                             {"basin", "plot_basins.py"},
                                                             {"drift", "plot_drift_map.py"},
                                                             {"timeseries", "plot_strobe_series.py"},
                                                             {"branch", "plot_branch.py"}};
  std::string input, kind, output;
  std::vector<std::string> passed;  // options for the script (e.g. --obs, --case, --x)
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&](const std::string& key) {
      if (a.rfind(key + "=", 0) == 0) return a.substr(key.size() + 1);
      if (i + 1 == args.size()) throw InputError(key + " needs a value");
      return args[++i];
    };
    if (a == "--kind" || a.rfind("--kind=", 0) == 0) kind = value("--kind");
    else if (a == "--out" || a.rfind("--out=", 0) == 0) output = value("--out");
    else if (a.rfind("--", 0) == 0) passed.push_back(a);
    else if (input.empty()) input = a;
    else passed.push_back(a);
  }
  if (input.empty())
    throw InputError("usage: vibro plot FILE.h5 [--kind bifurcation|basin|drift|timeseries|branch] [--out PNG] [script options]");
  const std::string format = file_format(input);
  if (kind.empty()) kind = format == "vibro-branch" ? "branch" : "bifurcation";
  const auto script = scripts.find(kind);
  if (script == scripts.end())
    throw InputError("--kind = '" + echoed(kind) + "' is not a plot kind; accepted: bifurcation, basin, drift, timeseries, branch");
  if ((kind == "branch") != (format == "vibro-branch"))
    throw InputError("--kind " + kind + " needs a " + (kind == "branch" ? "branch file (vibro continue)" : "sweep file (vibro run)"));
  if (output.empty()) output = std::filesystem::path(input).replace_extension("").string() + "_" + kind + ".png";
  const char* from_environment = std::getenv("VIBRO_SCRIPTS");
  const std::string path = std::string(from_environment ? from_environment : VIBRO_SCRIPTS_DIR) + "/" + script->second;
  if (!std::filesystem::exists(path))
    throw InputError("plot script '" + path + "' not found (set VIBRO_SCRIPTS to the repository's scripts/ folder)");
  std::vector<std::string> command = {"/usr/bin/python3", path, input, output};
  command.insert(command.end(), passed.begin(), passed.end());
  std::vector<char*> argv;
  for (auto& c : command) argv.push_back(c.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());  // replaces vibro: the script's messages and exit code are the command's
  throw InputError(std::string("cannot run /usr/bin/python3: ") + std::strerror(errno) +
                   " (install python3-matplotlib and python3-h5py: scripts/install_deps.sh)");
}

}  // namespace vibro::cli
