// run(): `vibro run ARGS` in this process, through the command's own code (jobs/cli/commands.cpp),
// so that a sweep from Python is the sweep the command line computes, file and all. The Python
// side (vibro/_sweep.py) builds the arguments and reads the file back as an xarray.Dataset.
#include <pybind11/stl.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "bindings.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/examples.hpp"
#include "jobs/parallel/mpi_session.hpp"

namespace py = pybind11;

namespace vibro::python {

namespace {

// The sweep code asks MPI for its rank and reductions: one session for the life of the module,
// started at the first sweep (one rank without MPI when no launcher started Python, or the MPI an
// importer like mpi4py started), ended at interpreter exit (atexit, below) rather than from a static
// destructor after Python is gone.
std::unique_ptr<MpiSession>& mpi_session() {
  static std::unique_ptr<MpiSession> session;
  return session;
}

struct RunOutcome {
  int exit_code;
  std::string printed;  // what the command wrote on stdout (its summary)
};

// A command run with the interpreter free and its stdout captured.
template <class Command>
RunOutcome captured(Command command) {
  std::ostringstream printed;
  int code = 0;
  {
    py::gil_scoped_release free_interpreter;
    std::streambuf* const console = std::cout.rdbuf(printed.rdbuf());
    try {
      code = command();
    } catch (...) {
      std::cout.rdbuf(console);
      throw;  // InputError reaches Python as vibro.InputError with the command's message
    }
    std::cout.rdbuf(console);
  }
  return {code, printed.str()};
}

// The sweep runs on its own threads with the interpreter free. Its signal handlers
// (jobs/parallel/interrupt) replace Python's meanwhile: Ctrl-C stops handing out cases, the cases in
// progress finish and the command returns 128 + SIGINT, which the caller raises as KeyboardInterrupt;
// Python's handlers are back when it returns.
RunOutcome run(const std::vector<std::string>& args) {
  auto& session = mpi_session();
  if (!session) session = std::make_unique<MpiSession>();
  return captured([&] { return cli::run_command(args, *session); });
}

}  // namespace

void bind_sweep(py::module_& m) {
  m.def(
      "run",
      [](const std::vector<std::string>& args) {
        const RunOutcome outcome = run(args);
        return py::make_tuple(outcome.exit_code, outcome.printed);
      },
      py::arg("args"),
      "`vibro run ARGS...` in this process: (exit code, what it printed). Bad input raises InputError "
      "before any case runs.");
  m.def(
      "continue_",
      [](const std::vector<std::string>& args) {
        const RunOutcome outcome = captured([&] { return cli::continue_command(args); });
        return py::make_tuple(outcome.exit_code, outcome.printed);
      },
      py::arg("args"),
      "`vibro continue ARGS...` in this process: (exit code, what it printed). Bad input raises InputError "
      "before any orbit is shot.");
  m.def("example_names", &cli::example_names, "The shipped example sweeps (as `vibro examples`).");
  m.def(
      "example_text", [](const std::string& name) { return cli::load_example(name).text; }, py::arg("name"),
      "The text of a shipped example sweep file.");
  py::module_::import("atexit").attr("register")(py::cpp_function([] { mpi_session().reset(); }));
}

}  // namespace vibro::python
