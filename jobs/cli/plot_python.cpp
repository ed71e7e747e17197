#include "jobs/cli/plot_python.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "engine/core/input_error.hpp"
#include "vibro/package_python.hpp"

namespace vibro::cli {

namespace {

// What `python -c CODE ARGS` prints on stdout; `ok` false when it could not run or exited non-zero.
std::string output_of(const std::string& python, const std::vector<std::string>& args, bool& ok) {
  int pipe_ends[2];
  ok = false;
  if (::pipe(pipe_ends) != 0) return "";
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(pipe_ends[1], STDOUT_FILENO);
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    std::vector<std::string> command = {python};
    command.insert(command.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& c : command) argv.push_back(c.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(pipe_ends[1]);
  std::string text;
  char buffer[512];
  for (ssize_t n; child > 0 && (n = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_ends[0]);
  int status = 0;
  ok = child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return text;
}

}  // namespace

PlotPython find_plot_python() {
  if (const char* chosen = std::getenv("VIBRO_PYTHON"); chosen && *chosen) return {chosen, "VIBRO_PYTHON"};
  const std::string package = kPackagePython;  // empty when the build made no Python package
  if (!package.empty() && ::access(package.c_str(), X_OK) == 0) return {package, "the vibro package's"};
  return {"python3", "PATH"};
}

const std::vector<std::string>& plot_modules() {
  static const std::vector<std::string> modules = {"numpy", "h5py", "matplotlib", "xarray"};
  return modules;
}

void require_modules(const PlotPython& python, const std::vector<std::string>& modules) {
  std::vector<std::string> args = {"-c",
                                   "import importlib.util, sys\n"
                                   "print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"};
  args.insert(args.end(), modules.begin(), modules.end());
  bool ok = false;
  std::string missing = output_of(python.executable, args, ok);
  const std::string which = python.executable + " (" + python.chosen_by + " Python)";
  if (!ok)
    throw InputError("vibro plot: cannot run " + which +
                     "; set VIBRO_PYTHON to a Python 3 with numpy, h5py, matplotlib and xarray");
  while (!missing.empty() && (missing.back() == '\n' || missing.back() == ' ')) missing.pop_back();
  if (!missing.empty())
    throw InputError("vibro plot: " + which + " lacks the modules " + missing +
                     " that the plotting scripts import: install them into it (Debian: scripts/install_deps.sh; "
                     "pip: pip install numpy h5py matplotlib xarray) or set VIBRO_PYTHON to a Python that has them");
}

}  // namespace vibro::cli
