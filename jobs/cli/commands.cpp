#include "jobs/cli/commands.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/examples.hpp"
#include "jobs/cli/model_layout.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/output/checkpoint_index.hpp"
#include "jobs/output/checkpoint_log.hpp"
#include "jobs/output/extension_checkpoint.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/output/disk_estimate.hpp"
#include "jobs/parallel/interrupt.hpp"
#include "jobs/parallel/mpi_session.hpp"
#include "jobs/parallel/slurm_submit.hpp"
#include "jobs/plugins/plugin_loader.hpp"
#include "model_files/load_model_file.hpp"
#include "jobs/output/streamed_sweep_file.hpp"
#include "jobs/output/sweep_file_writer.hpp"
#include "jobs/sweep/batched_sweep.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::cli {

std::ostream& null_stream() {
  static std::ostream sink(nullptr);
  return sink;
}

void unknown_command(const std::string& name) {
  std::string list;
  for (const auto& c : command_names()) list += c + ", ";
  throw InputError("unknown command '" + echoed(name) + "'" + did_you_mean(name, command_names()) + "; expected " + list +
                   "--help or --version");
}

int models_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line({"models", {}, false, false, 0}, args);
  if (printed_help(line.help, "models")) return 0;
  const auto& registry = ModelRegistry::instance();
  for (const auto& name : registry.names()) {
    std::cout << std::left << std::setw(14) << name + " " << registry.get(name).summary();
    if (const auto& origin = registry.origin(name); !origin.built_in()) std::cout << " [plugin " << origin.file << "]";
    std::cout << "\n";
  }
  return 0;
}

namespace {

void describe_layout(const Model& model) {
  const DefaultLayout found = default_layout(model);
  if (!found.layout) {
    std::cout << "\nstate layout: " << found.why_none << "\n";
    return;
  }
  const StrobeLayout& layout = *found.layout;
  // name [unit] or name: meaning, one per line; "none" for an empty list.
  auto list = [](const char* title, const std::vector<std::string>& names, const std::vector<std::string>& notes,
                 bool units) {
    std::cout << "\n" << title << (names.empty() ? ": none\n" : ":\n");
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string note = i < notes.size() ? notes[i] : "";
      std::cout << "  " << std::left << std::setw(28) << names[i] + " " << (units ? "[" + note + "]" : note) << "\n";
    }
  };
  list("state components (HDF5 /cases/strobe/values columns)", layout.state_names, layout.state_units, true);
  std::vector<std::string> modes;
  for (std::size_t m = 0; m < layout.mode_names.size(); ++m) modes.push_back(std::to_string(m) + " " + layout.mode_names[m]);
  list("modes (HDF5 /cases/strobe/mode)", modes, layout.mode_meanings, false);
  list("event counters (HDF5 /cases/counters)", layout.counter_names, layout.counter_meanings, false);
  std::cout << "drift coordinate: " << layout.drift_meaning << " [" << layout.drift_unit << "]\n";
}

// <k> stands for a positive integer, [~] for an optional ~ (engine/core/model_legend.hpp).
void describe_classes(const Model& model) {
  const std::vector<ClassCode> legend = model.class_legend();
  std::cout << "\nclass codes (HDF5 /cases/class; <k> a positive integer, [~] an optional ~)"
            << (legend.empty() ? ": none stated by the model\n" : ":\n");
  for (const auto& c : legend) std::cout << "  " << std::left << std::setw(14) << c.code + " " << c.meaning << "\n";
}

}  // namespace

int examples_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line({"examples", {}, false, false, 0}, args);
  if (printed_help(line.help, "examples")) return 0;
  return examples_command();
}

int describe_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line({"describe", {}, false, false, 1}, args);
  if (printed_help(line.help, "describe")) return 0;
  if (line.positional.empty()) throw InputError("vibro describe needs a model name (vibro models lists them)");
  const std::string& asked = line.positional.front();
  const Model& model = ModelRegistry::instance().get(is_model_file(asked) ? load_model_file(asked) : asked);
  std::cout << model.name() << ": " << model.summary() << "\n";
  if (const auto& origin = ModelRegistry::instance().origin(model.name()); !origin.built_in())
    std::cout << (is_model_file(origin.file) ? "from model file " : "from plugin ") << origin.file << "\n";
  if (const auto outline = model_file_outline(model.name()); !outline.empty()) {
    std::cout << "\nmodes and guards:\n";
    for (const auto& l : outline) std::cout << "  " << l << "\n";
  }
  ParameterGroup current = ParameterGroup::Numerics;
  bool first = true;
  for (const auto& p : model.parameters()) {
    if (first || p.group != current) {
      std::cout << "\n[" << group_section(p.group) << "]\n";
      std::cout << "  " << std::left << std::setw(18) << "key" << std::setw(12) << "unit" << std::setw(14) << "default"
                << std::setw(40) << "accepted" << "meaning\n";
      current = p.group;
      first = false;
    }
    // A trailing space keeps columns apart when an entry is wider than its column.
    std::cout << "  " << std::left << std::setw(18) << p.name + " " << std::setw(12) << p.unit + " " << std::setw(14)
              << p.format_value(p.default_value) + " " << std::setw(40) << p.accepted_range() + " " << p.description << "\n";
  }
  std::cout << "\nobservables (HDF5 /cases/observables):\n";
  for (const auto& o : model.observables())
    std::cout << "  " << std::left << std::setw(28) << o.name << std::setw(10) << o.unit << o.description << "\n";
  describe_layout(model);
  describe_classes(model);
  return 0;
}

std::string read_sweep_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("cannot read sweep file '" + path + "': " +
                     (std::filesystem::exists(path, error) ? "not a regular file" : "no such file"));
  std::ifstream in(path);
  if (!in) throw InputError("cannot read sweep file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

void require_named(const std::string& what, const std::string& name) {
  if (name.find_first_not_of(" \t") == std::string::npos)
    throw InputError(what + " = '" + name + "' is empty; expected a file name");
}

// The overrides a checkpoint records: --resume supplies the output file itself.
std::vector<std::string> overrides_without_output(const std::vector<std::string>& overrides) {
  std::vector<std::string> kept;
  for (const auto& o : overrides)
    if (o.rfind("--output.file=", 0) != 0) kept.push_back(o);
  return kept;
}

// Fails before any case runs if the output cannot or must not be written (see check_output_target).
void ensure_writable(const SweepSpec& spec, const std::string& sweep_file) {
  check_output_target(spec.output_file, sweep_file, spec.overwrite);
}

// Before any case runs: the checkpoint log every rank will append to is absent, empty, or a log of
// this very sweep; a link, FIFO or folder at that name, another program's file or another sweep's log
// is refused (InputError), never truncated.
void check_checkpoint_targets(const SweepSpec& spec, int ranks) {
  for (int rank = 0; rank < ranks; ++rank) {
    const std::string log = spec.output_file + ".ckpt." + std::to_string(rank);
    const PathKind kind = path_kind(log);
    if (kind == PathKind::Missing || (kind == PathKind::Regular && std::filesystem::file_size(log) == 0)) continue;
    require_same_sweep(read_checkpoint_header(log), spec.fingerprint(), spec.result_settings(), log);
  }
  check_extension_log(extension_log_path(spec.output_file), spec);
}

// The overrides plus --plugin=<absolute path> of the plugin the sweep's model comes from, however it
// was loaded (command line, sweep file, VIBRO_PLUGIN_PATH): what a resumed run or a batch job's
// ranks need to find the model again.
std::vector<std::string> with_model_plugin(std::vector<std::string> overrides, const SweepSpec& spec) {
  const std::string option = plugin_option_for(spec.model->name());
  if (!option.empty() && std::find(overrides.begin(), overrides.end(), option) == overrides.end()) overrides.push_back(option);
  return overrides;
}

// `tally` is rank 0's: with several ranks its phases are that rank's share.
// `streamed`: the file's cases were written while they ran (StreamedSweepFile).
void print_summary(const SweepSpec& spec, const Provenance& run, const SweepTally& tally, const SweepCensus& census,
                   double write_seconds, bool streamed, std::ostream& out) {
  out << spec.case_count() << " cases in " << std::fixed << std::setprecision(2) << run.wall_seconds << " s on "
      << run.ranks << " rank(s) x " << run.threads << " thread(s)";
  for (const auto& [name, n] : census.statuses) out << "; " << name << " " << n;
  if (const auto& b = tally.batched) {
    out << std::setprecision(3) << "\nbatched: " << b->groups << " group(s), " << b->launches << " launch(es) "
        << b->advance_seconds << " s, detectors " << b->detect_seconds << " s, setup " << b->setup_seconds
        << " s (parameter sets " << b->parameters_seconds << ", cases " << b->cases_seconds << ", detectors "
        << b->detectors_seconds << "; each batch's first group " << b->first_groups_seconds << ")";
    if (b->reduced > 0) out << "; windows reduced in the batch " << b->reduced;
    if (b->device_seconds >= 0) out << "; launch spans on the device " << b->device_seconds
                                     << " s (kernels and copies, summed over the groups in flight: they may overlap)";
  }
  out << "\nclasses:";
  for (const auto& [name, n] : census.classes) out << " " << name << "=" << n;
  out << std::setprecision(2) << "\nwrote " << spec.output_file << " (" << write_seconds << " s after the sweep"
      << (streamed ? "; its cases written while they ran" : "") << ")\n";
}

// What an interrupted run saved, counted from the logs themselves.
void report_interrupted(const SweepSpec& spec, int signal) {
  const CheckpointIndex saved(checkpoint_files(spec.output_file), spec.fingerprint(), spec.result_settings(),
                              spec.case_count());
  std::cerr << "vibro: interrupted: " << saved.loaded() << " of " << spec.case_count() << " cases saved in "
            << spec.output_file << ".ckpt.*; rerun the same command to resume (" << strsignal(signal) << ", exit code "
            << 128 + signal << ")\n";
}

}  // namespace

// The batch script, written like every other file vibro writes: never through a symbolic link or
// into a FIFO planted at its name (open_regular refuses both, naming --script).
static void write_script_file(const std::string& script_path, const std::string& script) {
  const int fd = open_regular(script_path, O_WRONLY | O_CREAT | O_TRUNC, 0644, "--script");
  std::size_t written = 0;
  while (written < script.size()) {
    const ssize_t n = ::write(fd, script.data() + written, script.size() - written);
    if (n <= 0) {
      ::close(fd);
      throw InputError("--script = '" + echoed(script_path) + "' cannot be written: " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

int submit_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line({"submit", slurm_options(), true, false, 1}, args);
  if (printed_help(line.help, "submit")) return 0;
  const SlurmRequest request = slurm_request(line.given);
  const std::vector<std::string>& overrides = line.overrides;
  if (line.positional.empty())
    throw InputError("vibro submit needs a sweep file: vibro submit SWEEP.ini --time LIMIT ... (vibro submit --help)");
  const std::string path = line.positional.front();
  require_named("the sweep file name", path);
  // The whole sweep is checked here, before anything reaches the queue.
  const SweepSpec spec = parse_sweep(read_sweep_file(path), path, overrides);
  const std::string binary = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string script_path = request.script.empty() ? spec.output_file + ".sbatch" : request.script;
  // The script's names are checked first, so a refusal names what the user typed (the sweep file),
  // not the output name derived from it.
  const std::string script = sbatch_script(spec, path, with_model_plugin(overrides, spec), request, binary);
  ensure_writable(spec, path);
  for (const auto& warning : slurm_request_warnings(request, spec, line.has("--mpi")))
    std::cerr << "vibro submit: warning: " << warning << "\n";
  write_script_file(script_path, script);
  std::cout << "wrote " << script_path << " (" << spec.case_count() << " cases on " << request.nodes << " node(s) x "
            << request.tasks_per_node << " rank(s) x " << request.cpus_per_task << " thread(s))\n";
  if (request.dry_run) return 0;
  // The job id first: a failed submission prints no "submitted" line (submit_sbatch throws).
  const std::string job = submit_sbatch(script_path);
  std::cout << "submitted batch job " << job << "\n";
  return 0;
}

int run_command(const std::vector<std::string>& args, const MpiSession& mpi) {
  const CommandLine line = parse_command_line({"run", {{"--example", true}, {"--resume", true}}, true, false, 1}, args);
  if (mpi.is_root() && printed_help(line.help, "run")) return 0;
  if (line.help) return 0;
  std::optional<std::string> given, resume, example;
  if (!line.positional.empty()) given = line.positional.front();
  if (line.has("--resume")) resume = line.options.at("--resume");
  if (line.has("--example")) example = line.options.at("--example");
  std::vector<std::string> overrides = line.overrides;
  if (!given && !resume && !example) {
    // No file is a mistake, not a request for some default sweep: say what run takes.
    if (mpi.is_root())
      std::cerr << "vibro run: no sweep file given (vibro run --example " << built_in_example()
                << " runs the built-in example)\n\n" << command_usage("run");
    return 2;
  }
  if (given && example) throw InputError("vibro run takes a sweep file or --example NAME, not both");
  // An empty name is a mistake (an unset shell variable), not a request for an example.
  if (given) require_named("the sweep file name", *given);
  if (resume) require_named("--resume", *resume);
  const std::string path = given.value_or("");
  std::string text, name;
  // SWEEP.ini --resume OUT: resumes OUT's checkpoints, or starts the sweep into OUT when none was saved.
  auto nothing_saved = [](const std::string& output) {
    for (const auto& log : checkpoint_files(output))
      if (path_kind(log) != PathKind::Regular || std::filesystem::file_size(log) > 0) return false;
    return true;
  };
  const bool resume_or_start = resume && given && nothing_saved(*resume);
  if (resume && !resume_or_start) {
    // The checkpoint carries the sweep: its file text and the overrides it was started with.
    const bool overwrite = overrides == std::vector<std::string>{"--output.overwrite=true"};
    if (example || (!overrides.empty() && !overwrite))
      throw InputError("--resume takes the output file alone (and --output.overwrite=true): the sweep and its "
                       "settings come from its checkpoint");
    const auto logs = checkpoint_files(*resume);
    if (logs.empty())
      throw InputError("nothing to resume: no checkpoint '" + *resume + ".ckpt.<rank>' was saved (the run stopped "
                       "before it wrote one), and --resume alone does not know the sweep; vibro run SWEEP.ini --resume " +
                       *resume + " starts it when nothing was saved and resumes it otherwise");
    const CheckpointHeader header = read_checkpoint_header(logs.front());
    if (given && read_sweep_file(path) != header.sweep_text)
      throw InputError("--resume " + *resume + ": its checkpoint holds another sweep than '" + path + "' (" +
                       header.source_name + "); resume it with vibro run --resume " + *resume + " alone");
    text = header.sweep_text;
    name = header.source_name;
    overrides.clear();
    for (const auto& o : header.overrides)  // a given --output.overwrite=true replaces the recorded one
      if (!overwrite || o.rfind("--output.overwrite=", 0) != 0) overrides.push_back(o);
    overrides.push_back("--output.file=" + *resume);
    if (overwrite) overrides.insert(overrides.begin(), "--output.overwrite=true");
  } else if (resume_or_start) {
    if (example || !overrides.empty())
      throw InputError("vibro run SWEEP.ini --resume OUT takes no overrides: a resumed sweep keeps the settings it "
                       "started with");
    if (mpi.is_root())
      std::cerr << "vibro: nothing saved yet for " << *resume << " (no checkpoint " << *resume
                << ".ckpt.<rank>): starting the sweep\n";
    text = read_sweep_file(path);
    name = path;
    overrides = {"--output.file=" + *resume};
  } else if (example) {
    const Example chosen = load_example(*example);
    text = chosen.text;
    name = chosen.source_name;
  } else {
    text = read_sweep_file(path);
    name = path;
  }
  // Every rank parses (and fails alike on bad input); rank 0 alone checks and writes the output.
  SweepSpec spec = parse_sweep(text, name, overrides);
  const bool threads_given = spec.threads > 0;
  if (!threads_given) spec.threads = mpi.default_threads();
  if (const std::string warning = mpi.oversubscription(spec.threads); threads_given && mpi.is_root() && !warning.empty())
    std::cerr << warning << "\n";
  std::string unwritable;
  if (mpi.is_root()) {
    try {
      ensure_writable(spec, path);
      check_checkpoint_targets(spec, mpi.share().ranks);
      check_disk_space(spec);
    } catch (const InputError& e) {
      unwritable = e.what();
    }
  }
  if (!mpi.all_ok(unwritable.empty())) {
    if (mpi.is_root()) throw InputError(unwritable);
    return 2;
  }
  // Every rank looks for its own GPU before any log is created (a refused run leaves nothing behind).
  const std::string no_device = backend_device_problem(spec);
  if (!mpi.all_ok(no_device.empty())) {
    if (mpi.is_root())
      throw InputError(no_device.empty() ? "run.backend = cuda: another rank found no usable GPU on its node" : no_device);
    return 2;
  }
  // Cases flushed by an earlier, killed run of the same sweep are loaded, not computed again.
  CompletedCases completed;
  const std::vector<std::string> earlier_logs = checkpoint_files(spec.output_file);
  if (const auto& logs = earlier_logs; !logs.empty()) {
    CheckpointIndex earlier(logs, spec.fingerprint(), spec.result_settings(), spec.case_count());
    completed = completed_cases(spec, earlier);
    if (mpi.is_root()) {
      std::cerr << "vibro: resuming " << spec.output_file << ": " << earlier.loaded() << " of " << spec.case_count()
                << " cases loaded from " << earlier.logs().size() << " checkpoint file(s); " << earlier.duplicates()
                << " duplicates; " << earlier.damaged() << " damaged or torn batch(es) dropped; "
                << earlier.foreign_batches() << " batch(es) of another run ignored"
                << (earlier.loaded() == 0 ? "; nothing was saved yet: the sweep starts from its first case\n" : "\n");
      for (const auto& file : earlier.ignored())
        std::cerr << "vibro: left alone '" << file << "': not a vibro checkpoint of this version\n";
    }
  }
  mpi.all_ok(true);  // a barrier: no rank creates its own log before every rank has read the old ones
  Provenance provenance;
  provenance.started_utc = utc_now();
  SweepTally tally;
  const CheckpointHeader log_header{spec.fingerprint(), name, text,
                                    with_model_plugin(overrides_without_output(overrides), spec), spec.result_settings()};
  std::optional<InterruptGuard> interrupts(std::in_place);  // until every case, extensions included, is computed
  const std::string own_log = spec.output_file + ".ckpt." + std::to_string(mpi.share().rank);
  // A run that can writes the file's cases while they run (streamed_sweep_file.hpp); the others from the logs.
  std::optional<StreamedSweepFile> streamed;
  {
    CheckpointWriter checkpoint(own_log, log_header, spec.checkpoint_seconds, [] { return interrupt_signal() != 0; },
                                spec.keeps_final_states() ? FinalState::Kept : FinalState::Dropped);
    CaseSink* sink = &checkpoint;
    if (StreamedSweepFile::applies(spec, mpi.share().ranks, earlier_logs.empty())) sink = &streamed.emplace(spec, checkpoint);
    const auto source = mpi.unit_source(parallel_units(spec));
    InterruptibleSource interruptible(*source);
    const bool progress = spec.progress == ProgressMode::Always || (spec.progress == ProgressMode::Auto && isatty(STDERR_FILENO));
    tally = compute_sweep(spec, *sink, mpi.is_root() && progress, &interruptible, completed);
    // A completed run's log is read into the file and removed next: not synced (a stopped run's is).
    if (interrupt_signal() == 0 && !spec.keep_checkpoints) checkpoint.skip_sync_at_close();
  }  // flushed and closed: the logs now hold every case this rank finished
  completed = {};
  // Every rank learns whether any was interrupted (a rank the signal missed stops here too), and
  // these reductions are barriers: every log is closed when they return.
  const int signal = static_cast<int>(mpi.max_over_ranks(interrupt_signal()));
  provenance.wall_seconds = mpi.max_over_ranks(tally.wall_seconds);
  if (signal != 0) {
    interrupts.reset();
    if (mpi.is_root()) report_interrupted(spec, signal);
    return 128 + signal;
  }
  if (!mpi.is_root()) return 0;
  provenance.finished_utc = utc_now();
  provenance.threads = tally.threads;
  provenance.ranks = mpi.share().ranks;
  provenance.scheduler = mpi.scheduler();
  SweepCensus census;
  std::vector<std::string> logs;  // this sweep's logs only: a file vibro did not write is never deleted
  const auto writing = std::chrono::steady_clock::now();
  if (streamed) {
    interrupts.reset();
    census = streamed->finish(provenance);
    logs.push_back(own_log);
  } else {
    CheckpointIndex results(checkpoint_files(spec.output_file), spec.fingerprint(), spec.result_settings(),
                            spec.case_count());
    // The grid's cases, with those run on from an unsettled, irregular or slow end (run.extend_unsettled)
    // in their place; the reruns are checkpointed like the grid's cases.
    ExtendedCaseStore store(results);
    const ExtensionLog extension_log{extension_log_path(spec.output_file), extension_log_header(spec, log_header),
                                     spec.checkpoint_seconds, [] { return interrupt_signal() != 0; }};
    const UnsettledExtension extension = extend_unsettled_cases(spec, store, spec.threads, extension_log);
    if (extension.loaded > 0)
      std::cerr << "vibro: resuming the extension of unsettled cases: " << extension.loaded << " rerun(s) loaded from "
                << extension_log.path << "; " << extension.damaged << " damaged or torn batch(es) dropped\n";
    if (extension.interrupted) {
      const int stopped_by = interrupt_signal();
      interrupts.reset();
      std::cerr << "vibro: interrupted while running unsettled cases on: " << extension.reruns << " rerun(s) of "
                << extension.cases << " case(s) saved in " << extension_log.path << " (the grid's cases in "
                << spec.output_file << ".ckpt.*); rerun the same command to resume (" << strsignal(stopped_by)
                << ", exit code " << 128 + stopped_by << ")\n";
      return 128 + stopped_by;
    }
    interrupts.reset();
    census = write_sweep_file(spec.output_file, spec, store, provenance, extension);
    logs = results.logs();
    if (path_kind(extension_log.path) == PathKind::Regular) logs.push_back(extension_log.path);
  }
  if (!spec.keep_checkpoints)
    for (const auto& log : logs) std::remove(log.c_str());
  const double write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - writing).count();
  print_summary(spec, provenance, tally, census, write_seconds, streamed.has_value(), std::cout);
  return 0;
}

}  // namespace vibro::cli
