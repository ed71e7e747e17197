#include "jobs/parallel/slurm_submit.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/parallel/script_quoting.hpp"
#include "jobs/parallel/slurm_time.hpp"
#include "vibro/version.hpp"

namespace vibro {

namespace {

int positive(const std::string& option, const std::string& text) {
  try {
    std::size_t used = 0;
    const long v = std::stol(text, &used);
    if (used == text.size() && v >= 1 && v <= 1000000) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  throw InputError(option + " = '" + echoed(text) + "' is not accepted; expected an integer in [1, 1000000]");
}

}  // namespace

const std::vector<std::string>& slurm_option_names() {
  static const std::vector<std::string> names = {"--nodes", "--ntasks-per-node", "--cpus-per-task", "--time",
                                                 "--partition", "--script", "--dry-run"};
  return names;
}

SlurmRequest parse_slurm_request(std::vector<std::string>& args) {
  SlurmRequest request;
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string key = args[i], value;
    const auto eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    }
    auto take = [&]() {
      if (eq != std::string::npos) return value;
      if (i + 1 == args.size()) throw InputError(key + " needs a value");
      return args[++i];
    };
    if (key == "--nodes") request.nodes = positive(key, take());
    else if (key == "--ntasks-per-node") request.tasks_per_node = positive(key, take());
    else if (key == "--cpus-per-task") request.cpus_per_task = positive(key, take());
    else if (key == "--time") request.time = take();
    else if (key == "--partition") request.partition = take();
    else if (key == "--script") {
      request.script = take();
      require_one_line("--script", request.script);
    }
    else if (key == "--dry-run") request.dry_run = true;
    else rest.push_back(args[i]);
  }
  checked_slurm_time(request.time);
  if (!request.partition.empty() && !std::regex_match(request.partition, std::regex(R"([A-Za-z0-9_.,-]+)")))
    throw InputError("--partition = '" + echoed(request.partition) + "' is not a partition name");
  args = rest;
  return request;
}

std::string sbatch_script(const SweepSpec& spec, const std::string& sweep_file, const std::vector<std::string>& overrides,
                          const SlurmRequest& r, const std::string& vibro_binary) {
  namespace fs = std::filesystem;
  const std::string output = fs::absolute(spec.output_file).string();
  const std::string sweep_path = fs::absolute(sweep_file).string();
  // Every name below reaches a line of the script; the working folder is part of the absolute paths.
  require_one_line("the sweep file name", sweep_file);
  require_one_line("output.file", spec.output_file);
  require_one_line("the working folder", fs::current_path().string());
  require_one_line("the vibro binary's path", vibro_binary);
  for (const auto& o : overrides) require_one_line("the override", o);
  if (output.find('\\') != std::string::npos)
    throw InputError("output.file '" + output + "' holds a backslash, which the #SBATCH --output line cannot carry " +
                     "(sbatch then leaves %j unexpanded); use a path without backslashes");
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Written by vibro submit (vibro " << kVersion << ", " << kGitRevision << ") for " << sweep_path << ".\n"
    << "# Resubmitting this script, or the requeue below, resumes the sweep from its checkpoints.\n"
    << "#SBATCH --job-name=vibro-" << sbatch_job_name(fs::path(output).stem().string()) << "\n"
    << "#SBATCH --nodes=" << r.nodes << "\n"
    << "#SBATCH --ntasks-per-node=" << r.tasks_per_node << "\n"
    << "#SBATCH --cpus-per-task=" << r.cpus_per_task << "\n"
    << "#SBATCH --time=" << r.time << "\n";
  if (!r.partition.empty()) s << "#SBATCH --partition=" << r.partition << "\n";
  s << "#SBATCH --output=" << sbatch_quoted_path(output + ".slurm-") << "%j.log\n"
    << "#SBATCH --open-mode=append\n"
    << "#SBATCH --requeue\n"
    << "#SBATCH --signal=B:USR1@120\n"
    << "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-" << r.cpus_per_task << "}\n"
    << "if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi\n"
    << "# Two minutes before the time limit: requeue; the rerun loads every checkpointed case.\n"
    << "trap 'echo \"vibro: time limit near, requeueing job $SLURM_JOB_ID\"; scontrol requeue \"$SLURM_JOB_ID\"' USR1\n"
    << "srun --mpi=pmix --cpus-per-task=\"$OMP_NUM_THREADS\" " << shell_quoted(vibro_binary) << " run "
    << shell_quoted(sweep_path);
  for (const auto& o : overrides)
    if (o.rfind("--output.file=", 0) != 0 && o.rfind("--run.threads=", 0) != 0) s << " " << shell_quoted(o);
  s << " --run.threads=\"$OMP_NUM_THREADS\" " << shell_quoted("--output.file=" + output) << " &\n"
    << "wait $!\n";
  return s.str();
}

std::string submit_sbatch(const std::string& script_path) {
  const std::string command = "sbatch --parsable " + shell_quoted(script_path) + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run sbatch");
  std::string output;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
  const int status = pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  if (status != 0 || !std::regex_match(output, std::regex(R"(\d+(;.*)?)")))
    throw std::runtime_error("sbatch failed: " + output);
  return output.substr(0, output.find(';'));
}

}  // namespace vibro
