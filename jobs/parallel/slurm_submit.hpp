#pragma once
// `vibro submit`: an sbatch script for a sweep (MPI ranks x OpenMP threads through srun, requeue
// shortly before the time limit so that the rerun resumes from the checkpoints), and its submission.
#include <string>
#include <vector>

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

// Parses the submit options out of `args` (removing them); throws InputError naming the option.
SlurmRequest parse_slurm_request(std::vector<std::string>& args);
// The options parse_slurm_request takes, for messages ("--dry-run" is the one without a value).
const std::vector<std::string>& slurm_option_names();

std::string sbatch_script(const SweepSpec& spec, const std::string& sweep_file,
                          const std::vector<std::string>& overrides, const SlurmRequest& request,
                          const std::string& vibro_binary);

// Runs sbatch on the script and returns the job id; throws std::runtime_error with sbatch's message.
std::string submit_sbatch(const std::string& script_path);

}  // namespace vibro
