// vibro plot: a PNG figure of a sweep or branch file, drawn by the plotting scripts (python3 with
// Debian's matplotlib and h5py). The file is checked here first (result_file_check.hpp: format,
// schema version, shapes, every checksum), so a foreign, damaged or unreadable file gets vibro's own
// error message (exit 2) rather than a Python traceback.
#include <H5Cpp.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/output/result_file_check.hpp"

#ifndef VIBRO_SCRIPTS_DIR
#define VIBRO_SCRIPTS_DIR "scripts"
#endif

namespace vibro::cli {

int plot_command(const std::vector<std::string>& args) {
  static const std::map<std::string, std::string> scripts = {{"bifurcation", "plot_bifurcation.py"},
                                                             {"basin", "plot_basins.py"},
                                                             {"drift", "plot_drift_map.py"},
                                                             {"timeseries", "plot_strobe_series.py"},
                                                             {"branch", "plot_branch.py"},
                                                             {"trace", "plot_trace.py"}};
  const CommandLine line = parse_command_line({"plot", {{"--kind", true}, {"--out", true}}, false, true, 1}, args);
  if (printed_help(line.help, "plot")) return 0;
  const std::string input = line.positional.empty() ? "" : line.positional.front();
  std::string kind = line.has("--kind") ? line.options.at("--kind") : "";
  std::string output = line.has("--out") ? line.options.at("--out") : "";
  const std::vector<std::string>& passed = line.passed_on;  // options for the script (e.g. --obs, --case, --x)
  if (input.empty())
    throw InputError(
        "usage: vibro plot FILE.h5 [--kind bifurcation|basin|drift|timeseries|branch|trace] [--out PNG] [script options]");
  const std::string format = check_result_file(input);
  if (kind.empty()) kind = format == "vibro-branch" ? "branch" : format == "vibro-trace" ? "trace" : "bifurcation";
  const auto script = scripts.find(kind);
  if (script == scripts.end()) {
    std::vector<std::string> kinds;
    for (const auto& entry : scripts) kinds.push_back(entry.first);
    throw InputError("--kind = '" + echoed(kind) + "' is not a plot kind" + did_you_mean(kind, kinds) +
                     "; accepted: bifurcation, basin, drift, timeseries, branch, trace");
  }
  // Each kind draws one format.
  const std::string needs = kind == "branch" ? "vibro-branch" : kind == "trace" ? "vibro-trace" : "vibro-sweep";
  if (format != needs)
    throw InputError("--kind " + kind + " needs a " +
                     (kind == "branch"  ? "branch file (vibro continue)"
                      : kind == "trace" ? "trace file (vibro trace)"
                                        : "sweep file (vibro run)"));
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
