#include "jobs/parallel/slurm_submit.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

}  // namespace

const std::vector<std::string>& slurm_option_names() {
  static const std::vector<std::string> names = {
      "--nodes", "--ntasks-per-node", "--cpus-per-task", "--time", "--partition", "--account", "--qos",
      "--mem", "--constraint", "--gpus-per-task", "--mpi", "--sbatch-line", "--setup", "--script", "--dry-run"};
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
    else if (key == "--partition") request.partition = matching(key, take(), R"([A-Za-z0-9_.,-]+)", "a partition name");
    else if (key == "--account") request.account = matching(key, take(), R"([A-Za-z0-9_.-]+)", "an account name");
    else if (key == "--qos") request.qos = matching(key, take(), R"([A-Za-z0-9_.-]+)", "a QOS name");
    else if (key == "--mem")
      request.mem = matching(key, take(), R"(\d+[KMGTkmgt]?)", "a size in megabytes or with a unit, e.g. 4000, 16G, 512M");
    else if (key == "--constraint")
      request.constraint = matching(key, take(), R"([A-Za-z0-9_.,&|!*()\[\]:-]+)",
                                    "node features as Slurm reads them, e.g. gpu, 'intel&ib', '[rack1|rack2]'");
    else if (key == "--gpus-per-task")
      request.gpus_per_task = matching(key, take(), R"(([A-Za-z0-9_-]+:)?[1-9]\d{0,3})", "a count, or TYPE:count, e.g. 1, a100:2");
    else if (key == "--mpi") request.mpi = matching(key, take(), R"([a-z0-9_]+)", "srun's MPI plugin type, e.g. pmix, pmi2, none");
    else if (key == "--sbatch-line") request.sbatch_lines.push_back(sbatch_line(take()));
    else if (key == "--setup") {
      request.setup_file = take();
      request.setup_text = setup_text(request.setup_file);
    }
    else if (key == "--script") {
      request.script = take();
      require_one_line("--script", request.script);
    }
    else if (key == "--dry-run") request.dry_run = true;
    else rest.push_back(args[i]);
  }
  checked_slurm_time(request.time);
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
