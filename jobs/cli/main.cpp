// vibro: parallel sweeps of impact and friction systems to their steady states.
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/parallel/launcher_rank.hpp"
#include "jobs/parallel/mpi_session.hpp"
#include "jobs/plugins/plugin_loader.hpp"
#include "vibro/version.hpp"

namespace {

// A sweep frees and allocates again, over and over, memory of the same sizes: a batched run's detectors
// (a few KB of history a case, 10^5 cases a group), the file writer's decoded results. glibc hands the
// freed top of its heaps back to the system at once, so each round page-faulted the same memory in
// afresh. Kept instead (a high trim threshold, some padding when a heap grows), measured here: the
// detectors of a 10^5-case adaptive batched conveyor map 1.52/1.59/1.77 -> 1.23/1.17/1.24 s (peak RSS
// 430 -> 440 MB); a 10^6-case file after the cpu back end 1.66/1.49 -> 1.24/1.37 s. It goes back at exit.
void keep_freed_heap_memory() {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
}

// Settings libgomp and glibc read when the program is loaded, before main, so that a sweep sets them
// by executing itself again once (should the exec fail, the run goes on as it is):
// - OpenMP threads that wait for work spin (libgomp polls some 300,000 times, milliseconds, before it
//   sleeps). A batched run opens many short parallel regions and waits for its launches between them,
//   and the spinning threads took the cores the host's other threads need (the checkpoint and file
//   writers, a GPU's feeding): on the 10^6-case null-back-end conveyor map, 2 threads, 0.5-1.5 s of
//   its 3.5-5 s of CPU. A short spin (GOMP_SPINCOUNT=10000; on that map slightly faster than
//   OMP_WAIT_POLICY=passive, whose every region wakes sleeping threads) unless the user set either.
// - malloc's heap on transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1; glibc 2.35 on,
//   older ones ignore it) unless the user set any tunable: a sweep's many small blocks (a group's
//   131072 parameter sets, the detectors' and the file's buffers) on fresh 4-KB pages cost ~17 us a
//   page on a paravirtualised VM; on that map page faults 14.9k -> 4.1k, the whole run 1.21-1.27 ->
//   1.08-1.14 s. Results do not change.
void set_runtime_options(char** argv) {
  bool changed = false;
  if (!std::getenv("OMP_WAIT_POLICY") && !std::getenv("GOMP_SPINCOUNT"))
    changed |= setenv("GOMP_SPINCOUNT", "10000", 1) == 0;
  if (!std::getenv("GLIBC_TUNABLES")) changed |= setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1) == 0;
  if (changed) execv("/proc/self/exe", argv);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "run") set_runtime_options(argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  // --plugin FILE may stand anywhere, before the command too.
  std::vector<std::string> plugins;
  try {
    plugins = vibro::cli::take_plugin_options(args);
  } catch (const vibro::InputError& e) {
    std::cerr << "vibro: error: " << e.what() << "\n";
    return 2;
  }
  // MPI only for sweeps (a single rank without mpirun); the other commands start instantly. They
  // work on one process: under a parallel launch the first does the work, the others return at once
  // (else each would repeat it and write the same file at the same time).
  const vibro::LauncherRank launch = vibro::launcher_rank();
  if ((args.empty() || args[0] != "run") && launch.rank > 0) return 0;
  if (!args.empty() && args[0] != "run" && launch.size > 1)
    std::cerr << "vibro: note: vibro " << args[0] << " works on one process; the other " << launch.size - 1
              << " of this launch do nothing (only vibro run shares its work across ranks)\n";
  std::unique_ptr<vibro::MpiSession> mpi;
  if (!args.empty() && args[0] == "run") {
    keep_freed_heap_memory();
    mpi = std::make_unique<vibro::MpiSession>(argc, argv);
  }
  // Messages from rank 0 only: every rank meets the same input error.
  std::ostream& err = !mpi || mpi->is_root() ? std::cerr : vibro::cli::null_stream();
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || (args[0] == "help" && args.size() == 1)) {
      std::cout << vibro::cli::usage();
      return args.empty() ? 2 : 0;
    }
    if (args[0] == "help") {  // vibro help COMMAND
      const std::string text = vibro::cli::command_usage(args[1]);
      if (text.empty()) vibro::cli::unknown_command(args[1]);
      std::cout << text;
      return 0;
    }
    if (args[0] == "--version") {
      std::cout << "vibro " << vibro::kVersion << " (" << vibro::kGitRevision << ")\n";
      return 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "new-model") {
      for (const auto& a : rest)
        if (vibro::cli::printed_help(a == "--help" || a == "-h", "new-model")) return 0;
      return vibro::cli::new_model_command(rest);
    }
    if (args[0] == "plot") return vibro::cli::plot_command(rest);
    for (const auto& why : vibro::ModelRegistry::instance().take_registration_failures())
      throw std::runtime_error("a built-in model failed to register: " + why);
    // Plugins before any command looks a model up; every MPI rank loads them alike.
    if (const char* folders = std::getenv("VIBRO_PLUGIN_PATH")) vibro::load_plugin_path(folders);
    for (const auto& file : plugins) vibro::load_plugin(file);
    if (args[0] == "models") return vibro::cli::models_command(rest);
    if (args[0] == "describe") return vibro::cli::describe_command(rest);
    if (args[0] == "examples") return vibro::cli::examples_command(rest);
    if (args[0] == "run") return vibro::cli::run_command(rest, *mpi);
    if (args[0] == "continue") return vibro::cli::continue_command(rest);
    if (args[0] == "trace") return vibro::cli::trace_command(rest);
    if (args[0] == "submit") return vibro::cli::submit_command(rest);
    vibro::cli::unknown_command(args[0]);
  } catch (const vibro::InputError& e) {
    err << "vibro: error: " << e.what() << "\n";
    return 2;  // every rank meets the same input error, so all of them return
  } catch (const std::exception& e) {
    std::cerr << "vibro: failed: " << e.what() << "\n";  // from whichever rank it happened on
    if (mpi) mpi->abort_all(1);
    return 1;
  }
}
