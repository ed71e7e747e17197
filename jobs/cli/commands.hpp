#pragma once
// The `vibro` subcommands; each returns the process exit code.
#include <ostream>
#include <string>
#include <vector>

namespace vibro {
class MpiSession;  // jobs/mpi_session.hpp
}

namespace vibro::cli {

// vibro continue: one periodic orbit followed in one parameter (analysis/orbit_continuation).
int continue_command(const std::vector<std::string>& args);
// vibro plot: a PNG of a sweep or branch file through scripts/plot_*.py.
int plot_command(const std::vector<std::string>& args);
// vibro trace: one case's time history, events and samples (jobs/trace/case_trace.hpp).
int trace_command(const std::vector<std::string>& args);
std::string read_sweep_file(const std::string& path);  // InputError naming the file when unreadable
int run_command(const std::vector<std::string>& args, const MpiSession& mpi);
int submit_command(const std::vector<std::string>& args);
int models_command(const std::vector<std::string>& args);
int describe_command(const std::vector<std::string>& args);  // vibro describe MODEL
int examples_command(const std::vector<std::string>& args);
// An InputError naming NAME, the closest command and the list of them.
[[noreturn]] void unknown_command(const std::string& name);
// vibro new-model NAME [DIR]: a ready model plugin project (jobs/new_model/).
int new_model_command(const std::vector<std::string>& args);
std::ostream& null_stream();  // swallows what ranks other than 0 would print

}  // namespace vibro::cli
