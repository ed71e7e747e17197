#pragma once
// The Python that runs vibro plot's scripts (scripts/plot_*.py): the environment variable
// VIBRO_PYTHON, else the interpreter the vibro Python package was built for (when that was built and
// is still there), else python3 on PATH. Checked to have the modules the scripts import before it
// runs them, so a Python without matplotlib is named with what it lacks rather than ending in a
// traceback.
#include <string>
#include <vector>

namespace vibro::cli {

struct PlotPython {
  std::string executable;  // a path, or "python3" to be found on PATH
  std::string chosen_by;   // why this one: "VIBRO_PYTHON", "the vibro package's", "PATH"
};

PlotPython find_plot_python();

// Throws InputError naming the interpreter, how it was chosen and each module it cannot import.
void require_modules(const PlotPython& python, const std::vector<std::string>& modules);

// The modules the plotting scripts import.
const std::vector<std::string>& plot_modules();

}  // namespace vibro::cli
