#include "jobs/parallel/slurm_submit.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/parallel/script_quoting.hpp"
#include "jobs/parallel/srun_mpi_types.hpp"
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

// A value that reaches an #SBATCH line as it is: refused unless it matches `pattern` (what Slurm
// takes for that option), so that no value can end the line or start a second directive.
std::string matching(const std::string& option, const std::string& text, const char* pattern, const char* accepted) {
  if (std::regex_match(text, std::regex(pattern))) return text;
  throw InputError(option + " = '" + echoed(text) + "' is not accepted; expected " + accepted);
}

// An extra sbatch option, as `--name=value` or `--name`: one line, no quotes a directive cannot hold.
std::string sbatch_line(const std::string& text) {
  require_one_line("--sbatch-line", text);
  return matching("--sbatch-line", text, R"(--[A-Za-z][A-Za-z0-9-]*(=[^\s'"#]+)?)",
                  "one sbatch option, --name or --name=value without spaces or quotes, e.g. --sbatch-line=--exclusive");
}

// The setup file's text, checked to be a text file a batch script can hold.
std::string setup_text(const std::string& path) {
  require_one_line("--setup", path);
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path) || !in)
    throw InputError("--setup = '" + echoed(path) + "' is not a readable file; expected a file of shell lines " +
                     "(module loads, exports) to copy into the batch script");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find('\0') != std::string::npos)
    throw InputError("--setup = '" + echoed(path) + "' holds NUL bytes; expected a text file of shell lines");
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

// srun's MPI plugin type: one srun on this machine lists (or, without srun, one Slurm documents).
std::string mpi_type(const std::string& text) {
  const SrunMpiTypes types = srun_mpi_types();
  if (std::find(types.names.begin(), types.names.end(), text) != types.names.end()) return text;
  throw InputError("--mpi = '" + echoed(text) + "' is not an MPI type srun takes" + did_you_mean(text, types.names) +
                   "; accepted: " + joined(types.names) + " (from " + types.source + ")");
}

}  // namespace

const std::vector<cli::OptionSpec>& slurm_options() {
  static const std::vector<cli::OptionSpec> options = {
      {"--nodes", true},      {"--ntasks-per-node", true}, {"--cpus-per-task", true}, {"--time", true},
      {"--partition", true},  {"--account", true},         {"--qos", true},           {"--mem", true},
      {"--constraint", true}, {"--gpus-per-task", true},   {"--mpi", true},           {"--sbatch-line", true, true},
      {"--setup", true},      {"--script", true},          {"--dry-run", false}};
  return options;
}

SlurmRequest slurm_request(const std::vector<std::pair<std::string, std::string>>& given) {
  SlurmRequest request;
  for (const auto& [key, value] : given) {
    if (key == "--nodes") request.nodes = positive(key, value);
    else if (key == "--ntasks-per-node") request.tasks_per_node = positive(key, value);
    else if (key == "--cpus-per-task") request.cpus_per_task = positive(key, value);
    else if (key == "--time") request.time = value;
    else if (key == "--partition") request.partition = matching(key, value, R"([A-Za-z0-9_.,-]+)", "a partition name");
    else if (key == "--account") request.account = matching(key, value, R"([A-Za-z0-9_.-]+)", "an account name");
    else if (key == "--qos") request.qos = matching(key, value, R"([A-Za-z0-9_.-]+)", "a QOS name");
    else if (key == "--mem")
      request.mem = matching(key, value, R"(\d+[KMGTkmgt]?)", "a size in megabytes or with a unit, e.g. 4000, 16G, 512M");
    else if (key == "--constraint")
      request.constraint = matching(key, value, R"([A-Za-z0-9_.,&|!*()\[\]:-]+)",
                                    "node features as Slurm reads them, e.g. gpu, 'intel&ib', '[rack1|rack2]'");
    else if (key == "--gpus-per-task")
      request.gpus_per_task = matching(key, value, R"(([A-Za-z0-9_-]+:)?[1-9]\d{0,3})", "a count, or TYPE:count, e.g. 1, a100:2");
    else if (key == "--mpi") request.mpi = mpi_type(value);
    else if (key == "--sbatch-line") request.sbatch_lines.push_back(sbatch_line(value));
    else if (key == "--setup") {
      request.setup_file = value;
      request.setup_text = setup_text(request.setup_file);
    }
    else if (key == "--script") {
      request.script = value;
      require_one_line("--script", request.script);
    }
    else if (key == "--dry-run") request.dry_run = true;
  }
  checked_slurm_time(request.time);
  return request;
}

std::vector<std::string> slurm_request_warnings(const SlurmRequest& r, const SweepSpec& spec, bool mpi_given) {
  std::vector<std::string> warnings;
  // The directives the script writes itself: before the --sbatch-line ones (which sbatch then reads
  // last, so they win), and after them (vibro's win); with the option that sets each, if any.
  struct Written { std::string name, option; bool before; };
  std::vector<Written> written = {{"job-name", "", true}, {"nodes", "--nodes", true},
                                  {"ntasks-per-node", "--ntasks-per-node", true},
                                  {"cpus-per-task", "--cpus-per-task", true}, {"time", "--time", true}};
  const std::pair<const char*, const std::string*> optional[] = {
      {"partition", &r.partition}, {"account", &r.account},       {"qos", &r.qos},
      {"mem", &r.mem},             {"constraint", &r.constraint}, {"gpus-per-task", &r.gpus_per_task}};
  for (const auto& [name, value] : optional)
    if (!value->empty()) written.push_back({name, std::string("--") + name, true});
  for (const char* name : {"output", "open-mode", "requeue", "signal"}) written.push_back({name, "", false});
  std::vector<std::string> earlier;  // the --sbatch-line options so far
  for (const auto& line : r.sbatch_lines) {
    const std::string name = line.substr(2, line.find('=') - 2);
    for (const auto& w : written)
      if (w.name == name)
        warnings.push_back("--sbatch-line=" + line + " gives #SBATCH --" + name + " a second time: the script writes it " +
                           (w.option.empty() ? "itself" : "from " + w.option) + "; sbatch reads the later line, " +
                           (w.before ? "yours" : "the script's") +
                           (w.option.empty() ? "" : " (give " + w.option + " instead)"));
    if (std::find(earlier.begin(), earlier.end(), name) != earlier.end())
      warnings.push_back("--sbatch-line gives --" + name + " twice; sbatch reads the later one, " + line);
    earlier.push_back(name);
  }
  if (!r.gpus_per_task.empty() && spec.backend != Backend::Cuda)
    warnings.push_back("--gpus-per-task = " + r.gpus_per_task + " asks for GPUs, but the sweep runs on the " +
                       backend_name(spec.backend) + " back end, which uses none (set run.backend = cuda to use them)");
  if (!mpi_given) {
    const SrunMpiTypes types = srun_mpi_types();
    if (types.source == "srun --mpi=list" &&
        std::find(types.names.begin(), types.names.end(), r.mpi) == types.names.end())
      warnings.push_back("the script uses srun --mpi=" + r.mpi + " (the default), which srun on this machine lacks: it " +
                         "lists " + joined(types.names) + "; give --mpi TYPE");
  }
  return warnings;
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
  const std::pair<const char*, const std::string*> optional[] = {
      {"partition", &r.partition}, {"account", &r.account},       {"qos", &r.qos},
      {"mem", &r.mem},             {"constraint", &r.constraint}, {"gpus-per-task", &r.gpus_per_task}};
  for (const auto& [name, value] : optional)
    if (!value->empty()) s << "#SBATCH --" << name << "=" << *value << "\n";
  for (const auto& line : r.sbatch_lines) s << "#SBATCH " << line << "\n";
  s << "#SBATCH --output=" << sbatch_quoted_path(output + ".slurm-") << "%j.log\n"
    << "#SBATCH --open-mode=append\n"
    << "#SBATCH --requeue\n"
    << "#SBATCH --signal=B:USR1@120\n"
    << "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-" << r.cpus_per_task << "}\n"
    << "if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi\n"
    << "# Two minutes before the time limit: requeue; the rerun loads every checkpointed case.\n"
    << "trap 'echo \"vibro: time limit near, requeueing job $SLURM_JOB_ID\"; scontrol requeue \"$SLURM_JOB_ID\"' USR1\n";
  if (!r.setup_text.empty())
    s << "# --- from " << fs::absolute(r.setup_file).string() << " (vibro submit --setup) ---\n"
      << r.setup_text << "# --- end of the setup file ---\n";
  s << "srun --mpi=" << r.mpi << " --cpus-per-task=\"$OMP_NUM_THREADS\" " << shell_quoted(vibro_binary) << " run "
    << shell_quoted(sweep_path);
  bool progress_given = false;
  for (const auto& o : overrides) {
    progress_given = progress_given || o.rfind("--run.progress=", 0) == 0;
    if (o.rfind("--output.file=", 0) != 0 && o.rfind("--run.threads=", 0) != 0) s << " " << shell_quoted(o);
  }
  // A batch log is no terminal: ask for the progress, which then comes as a line every
  // run.progress_seconds.
  if (!progress_given) s << " --run.progress=always";
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
