#pragma once
// `vibro submit`: an sbatch script for a sweep (MPI ranks x OpenMP threads through srun, requeue
// shortly before the time limit so that the rerun resumes from the checkpoints), and its submission.
#include <string>
#include <utility>
#include <vector>

#include "jobs/cli/arguments.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

struct SlurmRequest {
  int nodes = 1;
  int tasks_per_node = 1;
  int cpus_per_task = 1;
  std::string time = "01:00:00";  // a Slurm time limit (checked_slurm_time)
  std::string partition;           // empty: the cluster's default
  std::string account, qos, mem, constraint, gpus_per_task;  // empty: not asked for
  std::string mpi = "pmix";        // srun --mpi=TYPE (the cluster's PMI plugin)
  std::vector<std::string> sbatch_lines;  // extra "--option=value" lines, each written as #SBATCH
  std::string setup_file;          // module loads, environment: copied into the script before srun
  std::string setup_text;          // that file's text, read when the options are parsed
  bool dry_run = false;
  std::string script;              // empty: OUTPUT.sbatch next to the output file
};

// The options vibro submit takes besides the sweep file and its overrides: "--dry-run" is a flag,
// "--sbatch-line" may repeat.
const std::vector<cli::OptionSpec>& slurm_options();
// The request the submit options ask for, given as (name, value) in command-line order (a flag holds
// "true"); throws InputError naming the option. --mpi is checked against srun's MPI plugin types.
SlurmRequest slurm_request(const std::vector<std::pair<std::string, std::string>>& given);

// What the script would hold that the user may not mean, one line each: an --sbatch-line that repeats
// a directive the script already has, --gpus-per-task for a sweep that runs on the cpu back end, the
// default --mpi=pmix where srun on this machine lacks it.
std::vector<std::string> slurm_request_warnings(const SlurmRequest& request, const SweepSpec& spec, bool mpi_given);

std::string sbatch_script(const SweepSpec& spec, const std::string& sweep_file,
                          const std::vector<std::string>& overrides, const SlurmRequest& request,
                          const std::string& vibro_binary);

// Runs sbatch on the script and returns the job id; throws std::runtime_error with sbatch's message
// when sbatch is missing, fails or prints no job id.
std::string submit_sbatch(const std::string& script_path);

}  // namespace vibro
