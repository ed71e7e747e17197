// vibro plot: a PNG figure of a sweep or branch file, drawn by the plotting scripts (a Python with
// numpy, h5py, matplotlib and xarray: jobs/cli/plot_python.hpp says which one). The file is checked here first (result_file_check.hpp: format,
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
#include "jobs/cli/plot_python.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/output/result_file_check.hpp"

#ifndef VIBRO_SCRIPTS_DIR
#define VIBRO_SCRIPTS_DIR "scripts"
#endif

namespace vibro::cli {

namespace {

// FILE_KIND.png next to FILE.h5, unless the file's name already says the kind (NAME.branch.h5 ->
// NAME.branch.png, not NAME.branch_branch.png).
std::string default_image_name(const std::string& input, const std::string& kind) {
  const std::string stem = std::filesystem::path(input).replace_extension("").string();
  const bool says_kind = stem.size() > kind.size() && stem.compare(stem.size() - kind.size(), kind.size(), kind) == 0 &&
                         (stem[stem.size() - kind.size() - 1] == '.' || stem[stem.size() - kind.size() - 1] == '_');
  return stem + (says_kind ? "" : "_" + kind) + ".png";
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  static const std::map<std::string, std::string> scripts = {{"bifurcation", "plot_bifurcation.py"},
                                                             {"basin", "plot_basins.py"},
                                                             {"drift", "plot_drift_map.py"},
                                                             {"timeseries", "plot_strobe_series.py"},
                                                             {"branch", "plot_branch.py"},
                                                             {"fractions", "plot_fractions.py"},
                                                             {"trace", "plot_trace.py"},
                                                             {"regimes", "plot_regime_map.py"}};
  const CommandLine line =
      parse_command_line({"plot", {{"--kind", true}, {"--out", true}, {"--overlay", true, true}}, false, true, 1}, args);
  if (printed_help(line.help, "plot")) return 0;
  const std::string input = line.positional.empty() ? "" : line.positional.front();
  std::string kind = line.has("--kind") ? line.options.at("--kind") : "";
  std::string output = line.has("--out") ? line.options.at("--out") : "";
  const std::vector<std::string>& passed = line.passed_on;  // options for the script (e.g. --obs, --case, --x)
  if (input.empty())
    throw InputError("usage: vibro plot FILE.h5 [--kind bifurcation|basin|drift|timeseries|branch|fractions|trace|regimes] "
                     "[--overlay CURVE.h5 ...] [--out PNG] [script options]");
  const std::string format = check_result_file(input);
  // Two-parameter curves (vibro continue --curve) drawn over a regime map of the same two parameters.
  std::vector<std::string> overlays;
  for (const auto& [name, value] : line.given)
    if (name == "--overlay") overlays.push_back(value);
  if (!overlays.empty() && !kind.empty() && kind != "regimes")
    throw InputError("--overlay draws curves over a regime map: use it with --kind regimes (or without --kind), "
                     "not --kind " + echoed(kind));
  for (const std::string& overlay : overlays) {
    const std::string overlay_format = check_result_file(overlay);
    if (overlay_format != "vibro-curve")
      throw InputError("--overlay '" + overlay + "' is a " + overlay_format +
                       " file; --overlay takes a curve file (vibro continue --curve)");
  }
  if (format == "vibro-curve")
    throw InputError("'" + input + "' is a curve file: draw it over a sweep's regime map, "
                     "vibro plot MAP.h5 --overlay " + input);
  if (kind.empty())
    kind = format == "vibro-branch" ? "branch" : format == "vibro-trace" ? "trace" : overlays.empty() ? "bifurcation" : "regimes";
  const auto script = scripts.find(kind);
  if (script == scripts.end()) {
    std::vector<std::string> kinds;
    for (const auto& entry : scripts) kinds.push_back(entry.first);
    throw InputError("--kind = '" + echoed(kind) + "' is not a plot kind" + did_you_mean(kind, kinds) +
                     "; accepted: bifurcation, basin, drift, timeseries, branch, fractions, trace, regimes");
  }
  // Each kind draws one format.
  const std::string needs = kind == "branch" ? "vibro-branch" : kind == "trace" ? "vibro-trace" : "vibro-sweep";
  if (format != needs)
    throw InputError("--kind " + kind + " needs a " +
                     (kind == "branch"  ? "branch file (vibro continue)"
                      : kind == "trace" ? "trace file (vibro trace)"
                                        : "sweep file (vibro run)"));
  if (output.empty()) output = default_image_name(input, kind);
  const char* from_environment = std::getenv("VIBRO_SCRIPTS");
  const std::string path = std::string(from_environment ? from_environment : VIBRO_SCRIPTS_DIR) + "/" + script->second;
  if (!std::filesystem::exists(path))
    throw InputError("plot script '" + path + "' not found (set VIBRO_SCRIPTS to the repository's scripts/ folder)");
  const PlotPython python = find_plot_python();
  require_modules(python, plot_modules());
  std::vector<std::string> command = {python.executable, path, input, output};
  command.insert(command.end(), passed.begin(), passed.end());
  for (const std::string& overlay : overlays) {
    command.push_back("--overlay");
    command.push_back(overlay);
  }
  std::vector<char*> argv;
  for (auto& c : command) argv.push_back(c.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());  // replaces vibro: the script's messages and exit code are the command's
  throw InputError("cannot run " + python.executable + " (" + python.chosen_by + " Python): " + std::strerror(errno));
}

}  // namespace vibro::cli
