#include "jobs/sweep/sweep_spec.hpp"

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>

#include "engine/batch/batch_registry.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/plugins/plugin_loader.hpp"
#include "model_files/load_model_file.hpp"
#include "jobs/sweep/ini_text.hpp"
#include "jobs/sweep/inline_model.hpp"
#include "jobs/sweep/grid_size.hpp"
#include "jobs/sweep/model_features.hpp"
#include "jobs/sweep/key_origin.hpp"

namespace po = boost::program_options;

namespace vibro {

const char* backend_name(Backend backend) {
  return backend == Backend::Cpu ? "cpu" : backend == Backend::Batched ? "batched" : backend == Backend::Cuda ? "cuda" : "null";
}

long long SweepSpec::case_count() const {
  long long n = 1;
  for (const auto& axis : axes) n *= static_cast<long long>(axis.values.size());
  return n;
}

namespace {

// Calls at(a, position) with case `index`'s position on each axis a, last axis first (C order: the
// first axis varies slowest).
template <class At>
void each_axis_position(const std::vector<Axis>& axes, long long index, At at) {
  for (std::size_t a = axes.size(); a-- > 0;) {
    const auto n = static_cast<long long>(axes[a].values.size());
    at(a, static_cast<std::size_t>(index % n));
    index /= n;
  }
}

}  // namespace

std::vector<int> SweepSpec::grid_indices(long long index) const {
  std::vector<int> out(axes.size());
  each_axis_position(axes, index, [&](std::size_t a, std::size_t position) { out[a] = static_cast<int>(position); });
  return out;
}

ParameterSet SweepSpec::case_parameters(long long index) const {
  ParameterSet values = base;
  fill_case_parameters(index, values);
  return values;
}

void SweepSpec::fill_case_parameters(long long index, ParameterSet& values) const {
  values = base;
  each_axis_position(axes, index,
                     [&](std::size_t a, std::size_t position) { values.set_at(axis_parameter[a], axes[a].values[position]); });
}

namespace {

constexpr long kMaxWorkCount = 1'000'000'000'000'000;  // a budget count beyond any run's reach

// `--section.key=value` only, spelled out in full: a guessed abbreviation would set the wrong key.
constexpr int kOverrideStyle = po::command_line_style::unix_style ^ po::command_line_style::allow_guessing;

std::string number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

// A model of the hybrid-model API whose description the API refuses (std::invalid_argument: a mode or
// guard name declared twice, a gap term outside the state, ...) would fail every case, or with a
// duplicate name the result file's write after every case ran: its first case is started here, before
// any case runs. (A model file's description is checked when the file loads.)
void refuse_bad_description(const Model& model, const ParameterSet& values) {
  try {
    (void)model.start(values);
  } catch (const std::logic_error& e) {
    throw InputError("model " + model.name() + ": " + e.what());
  } catch (const std::exception&) {
    // What these values cannot start (an infeasible start, a bad value), the case itself reports.
  }
}

void validate_cases(const SweepSpec& spec) {
  // The model's cross-parameter checks on each case's own values: an axis over x0 whose values all lie
  // on the allowed side is accepted whatever the default x0. A sweep is refused when no case passes
  // (the first failure named with its axis values); where some pass, the others run and are recorded
  // as the model's start decides (a start penetrating a stop: infeasible, as a basin map over initial
  // conditions that reaches into a contact expects). Beyond kValidatedCases, the grid's corners.
  constexpr long long kValidatedCases = 10'000'000;
  const long long cases = spec.case_count();
  const bool every_case = cases <= kValidatedCases;
  const long long candidates = every_case ? cases : 1LL << spec.axes.size();
  // The c-th case checked: every case in order, or the c-th corner of the grid.
  const auto candidate = [&](long long c) {
    if (every_case) return c;
    long long index = 0;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
      const auto n = static_cast<long long>(spec.axes[a].values.size());
      index = index * n + (((c >> a) & 1) ? n - 1 : 0);
    }
    return index;
  };
  if (spec.model->described_cases() && cases > 0) refuse_bad_description(*spec.model, spec.case_parameters(0));
  std::string first_failure;
  for (long long c = 0; c < candidates; ++c) {
    const ParameterSet values = spec.case_parameters(candidate(c));
    try {
      spec.model->validate(values);
      return;  // a case passes: the sweep runs
    } catch (const InputError& e) {
      if (spec.axes.empty()) throw;
      if (!first_failure.empty()) continue;
      std::string where;
      for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        const int p = spec.axis_parameter[a];
        where += (a ? ", " : "") + values.specs()[static_cast<std::size_t>(p)].name + " = " + number(values.at(p));
      }
      first_failure = std::string(e.what()) + " (in every case of the axes, e.g. " + where + ")";
    }
  }
  if (!first_failure.empty()) throw InputError(first_failure);
}

// Every run.* and output.* key: whether it changes results and, for those that do, its canonical
// value in a parsed sweep (what the checkpoint fingerprint is made of). A new key needs both.
constexpr auto kChanges = KeyEffect::ChangesResults;
constexpr auto kNoEffect = KeyEffect::NoEffectOnResults;
using Value = std::string (*)(const SweepSpec&);
struct RunKey {
  const char* name;
  KeyEffect effect;
  Value value;  // null for keys without effect on results
  const char* help;
};
const RunKey kRunKeys[] = {
    {"run.max_periods", kChanges, [](const SweepSpec& s) { return number(s.steady.max_periods); }, "budget per case, forcing periods (default 100)"},
    {"run.window_periods", kChanges, [](const SweepSpec& s) { return number(s.steady.window_periods); }, "averaging window when a case runs to its budget (default 50)"},
    {"run.steady_state", kChanges, [](const SweepSpec& s) { return std::string(steady_mode_name(s.steady.mode)); }, "adaptive (stop when the stroboscopic map has converged), fixed, or means (stop when the model's window means have settled; beam_slider) (default adaptive)"},
    {"run.quasi_tol", kChanges, [](const SweepSpec& s) { return number(s.steady.quasi_tol); }, "quasi-periodic test: weighted Birkhoff halves agree within this fraction of the orbit's extent (default 1e-6)"},
    {"run.quasi_min_window", kChanges, [](const SweepSpec& s) { return number(s.steady.quasi_min_window); }, "quasi-periodic test only on windows of at least this many periods (default 100)"},
    {"run.means_window", kChanges, [](const SweepSpec& s) { return number(s.steady.means_window); }, "means: window length, periods (default 100)"},
    {"run.means_checks", kChanges, [](const SweepSpec& s) { return number(s.steady.means_checks); }, "means: consecutive window-to-window changes that must be within tolerance (default 3)"},
    {"run.means_to_budget", kChanges, [](const SweepSpec& s) { return number(s.steady.means_to_budget); }, "means: true also requires the windows' trend, carried to the end of the budget, within tolerance (default false: the window-to-window changes only)"},
    {"run.tol", kChanges, [](const SweepSpec& s) { return number(s.steady.tol); }, "period-detection tolerance, in the model's scales (default 1e-4)"},
    {"run.adaptive_tol", kChanges, [](const SweepSpec& s) { return number(s.steady.adaptive_tol); }, "tolerance that ends a case early in adaptive mode (default 1e-6)"},
    {"run.max_period", kChanges, [](const SweepSpec& s) { return number(s.steady.max_period); }, "largest period k searched (default 16)"},
    {"run.min_window", kChanges, [](const SweepSpec& s) { return number(s.steady.min_window); }, "adaptive: shortest averaging window, periods (default 4; at least 3 whole orbits)"},
    {"run.min_periods", kChanges, [](const SweepSpec& s) { return number(s.steady.min_periods); }, "adaptive: never stop before this many periods (default 5)"},
    {"run.case_wall_limit", kChanges, [](const SweepSpec& s) { return number(s.limits.wall_seconds); }, "per-case budget: a case still running after this many seconds is recorded as failed (default 600)"},
    {"run.max_steps_per_period", kChanges, [](const SweepSpec& s) { return std::to_string(s.limits.steps_per_period); }, "per-case budget: integration steps in one forcing period (default 1000000)"},
    {"run.max_events_per_period", kChanges, [](const SweepSpec& s) { return std::to_string(s.limits.events_per_period); }, "per-case budget: events (impacts, contact switches) in one forcing period (default 100000)"},
    {"run.max_steps", kChanges, [](const SweepSpec& s) { return std::to_string(s.limits.steps); }, "per-case budget: integration steps in total (default 100000000)"},
    {"run.max_events", kChanges, [](const SweepSpec& s) { return std::to_string(s.limits.events); }, "per-case budget: events in total (default 10000000)"},
    {"run.threads", kNoEffect, nullptr, "OpenMP threads, 0 = all (default 0)"},
    // Changes results: cuda's root polish differs from cpu's in the last bits. batched gives cpu's bits,
    // but a checkpoint names the back end that wrote it all the same.
    {"run.backend", kChanges, [](const SweepSpec& s) { return std::string(backend_name(s.backend)); }, "cpu (one case per thread), batched (many cases per launch through the model's kernel, on CPU threads; same results), cuda (on a GPU; builds with the CUDA back end) or null (a benchmark tool, never for results: launches that do no work but take run.null_group_seconds, the cases' samples copied from a few stepped for real, so that the host's side of a GPU run can be timed without a GPU) (default cpu)"},
    {"run.batch_cases", kNoEffect, nullptr, "batched, cuda and null back ends: cases stepped together in one group (default 1024 a thread batched, 131072 cuda and null; smaller needs less memory, the GPU's groups need enough cases to fill it)"},
    {"run.batch_periods", kNoEffect, nullptr, "batched and cuda back ends: periods every live case advances per launch (default 8, except that on cuda a fixed-mode group whose windows the GPU holds goes in one launch; shorter ones retire converged cases sooner: docs/gpu_backend.md)"},
    {"run.null_group_seconds", kNoEffect, nullptr, "null back end: seconds one group's launches take in all, spread over them by their periods; launches run one after another (default 0)"},
    {"run.progress", kNoEffect, nullptr, "auto (a progress line when stderr is a terminal), always, or never"},
    {"run.progress_seconds", kNoEffect, nullptr, "off a terminal (a batch log), one progress line per this many seconds (default 30)"},
    {"run.extend_unsettled", kNoEffect, nullptr, "0 (default), or a budget in periods: when the file is written, every case that ran to run.max_periods without a steady state, with an irregular window (possibly a chaotic transient) or still slowly converging to a period, runs on from where it stopped, run.max_periods more at a time, until it settles on a periodic or quasi-periodic orbit or has run this many periods (must exceed run.max_periods; needs stored stroboscopic points)"},
    {"run.continuation", kChanges, [](const SweepSpec& s) { return s.continuation_axis < 0 ? std::string("none") : s.axes[static_cast<std::size_t>(s.continuation_axis)].name; }, "an axis along which each case starts from the previous case's final state"},
    {"run.direction", kChanges, [](const SweepSpec& s) { return std::string(s.descending ? "down" : "up"); }, "up (axis order) or down (reverse) for the continuation axis (default up)"},
    {"output.file", kNoEffect, nullptr, "HDF5 output file (default: the sweep file's name with .h5)"},
    {"output.overwrite", kNoEffect, nullptr, "true: replace an existing output file (default false: an existing file is an error)"},
    {"output.strobe_points", kChanges, [](const SweepSpec& s) { return strobe_points_name(s.strobe_points); },
     "window (store the averaging window's stroboscopic points), orbit (of a case with a period k, the window's last k; the whole window of the others) or none"},
    {"output.floquet", kChanges, [](const SweepSpec& s) { return number(s.floquet); }, "true: Floquet multipliers of each periodic steady state (event-driven models)"},
    {"output.shooting", kChanges, [](const SweepSpec& s) { return number(s.shooting); }, "true: refine each periodic or slowly converging case by Newton shooting (unstable orbits too); implies floquet"},
    {"output.lyapunov_periods", kChanges, [](const SweepSpec& s) { return number(s.lyapunov_periods); }, "Lyapunov exponents of each case over this many periods after its steady state (0: none)"},
    {"output.block_cases", kNoEffect, nullptr, "cases per HDF5 write block (default 8192, or 65536 where the file's cases are written while they run: output.stream_cases); the writer holds two blocks in memory"},
    {"output.checkpoint_seconds", kNoEffect, nullptr, "flush interval of the checkpoint logs OUT.h5.ckpt.<rank>, s (default 5; synced to disk from the first interval on)"},
    {"output.keep_checkpoints", kNoEffect, nullptr, "true: keep the checkpoint logs after the file is written (default false)"},
    {"output.stream_cases", kNoEffect, nullptr, "true (default): write the file's per-case columns while the sweep runs where a run allows it (a fresh run on one rank, no stored stroboscopic points, Floquet, shooting, Lyapunov exponents or continuation axis); false: from the checkpoint logs once the sweep is done, as a resumed or multi-rank run does. The file is the same either way"},
    {"analysis.global_continuation", kNoEffect, nullptr, "none, or a parameter axis along which the attractors of neighbouring points are matched: global ids, basin fractions, births, deaths, mergers, splits, period doublings, halvings and changes in /basins (default none)"},
    {"analysis.match_by", kNoEffect, nullptr, "global continuation: distance (attractors of neighbouring points within analysis.match_distance of each other are the same) or basin_overlap (attractors whose basins share initial conditions are the same, the largest overlap first; attractors only seeds found by distance) (default distance)"},
    {"analysis.match_distance", kNoEffect, nullptr, "global continuation: attractors of neighbouring points at most this far apart, in the model's state scales (max-norm), are the same (default 1)"},
    {"analysis.match_across_classes", kNoEffect, nullptr, "global continuation: false matches periodic orbits only with orbits of the same class and period (and period doublings), irregular attractors with any kind; true matches any two (default false)"},
    {"analysis.match_period_doublings", kNoEffect, nullptr, "global continuation: true lets an orbit of twice (half) the period lying on an orbit's points continue its id, with the event period_doubling (period_halving); false ends the one and begins the other (default true)"},
    {"analysis.match_period_changes", kNoEffect, nullptr, "global continuation: true lets an attractor left unmatched continue one of another period (not twice or half) that lies on it and shares initial conditions with its basin, with the event period_change (a periodic window of another period, an orbit that became irregular or the reverse); false ends the one and begins the other (default true)"},
    {"analysis.match_extent_changes", kNoEffect, nullptr, "global continuation: true lets an irregular set left unmatched continue one whose bulk lies within it, or that holds its bulk, and shares initial conditions with its basin, with the event extent_change (a chaotic set that suddenly widens or shrinks); false ends the one and begins the other (default true)"},
    {"analysis.match_windows", kNoEffect, nullptr, "global continuation: true gives a periodic orbit found only where an irregular set vanished, and gone where the same set returns, the set's id when the orbit lies on the set and shares initial conditions with its basin at both ends (the set's periodic window), with the events period_change at its entry and exit; false leaves it a birth and a death (default true; needs analysis.match_vanished)"},
    {"analysis.match_vanished", kNoEffect, nullptr, "global continuation: true matches an attractor missing at some points again when it returns (events vanished and return); false gives it a new id (default true)"},
    {"analysis.seed_from_previous", kNoEffect, nullptr, "global continuation: true also starts each point once from every attractor found at its neighbours along the axis (analysis.seed_directions), in rounds after the grid; an attractor only a seed reaches is kept with basin fraction 0 (default false)"},
    {"analysis.seed_directions", kNoEffect, nullptr, "seeding: both (from the point before and the point after: the axis swept forward and backward) or forward (from the point before only) (default both)"},
};

// Means mode needs the model to declare which window means must settle; checked on the base case
// before any work starts.
void require_settled_means(const SweepSpec& spec) {
  std::unique_ptr<Simulation> simulation;
  try {
    simulation = spec.model->start(spec.base);
  } catch (const InfeasibleCase&) {
    return;  // the base case itself does not start; its layout is the model's all the same
  }
  if (simulation->layout().settled_means.empty())
    throw InputError("run.steady_state = means: model " + spec.model->name() +
                     " declares no window means to settle; use adaptive or fixed");
  const auto& s = spec.steady;
  const long needed = (s.means_checks + 1) * static_cast<long>(s.means_window) + 1;
  if (needed > s.max_periods)
    throw InputError("run.steady_state = means needs (run.means_checks + 1) x run.means_window + 1 = " +
                     std::to_string(needed) + " periods before it can stop, more than run.max_periods = " +
                     std::to_string(s.max_periods));
}

// A batched back end steps the model's kernel to a steady state and no further: features that need
// the one-case Simulation (warm starts, tangent maps) stay with cpu. Checked before any work.
void require_backend(const SweepSpec& spec) {
  if (spec.backend == Backend::Cpu) return;
  const std::string key = std::string("run.backend = ") + backend_name(spec.backend);
  if (spec.backend == Backend::Cuda) {
    std::string why;
    if (!cuda_backend_available(false, why)) throw InputError(key + ": " + why + "; accepted here: cpu, batched");
  }
  const BatchDevice device = spec.backend == Backend::Cuda ? BatchDevice::Cuda : BatchDevice::Cpu;
  if (!BatchRegistry::instance().make(*spec.model, device, spec.limits))
    throw InputError(key + ": model " + spec.model->name() + " has no batched kernel; accepted for it: cpu");
  const char* needs_cpu = spec.continuation_axis >= 0 ? "run.continuation"
                          : spec.shooting             ? "output.shooting"
                          : spec.floquet              ? "output.floquet"
                          : spec.lyapunov_periods > 0 ? "output.lyapunov_periods"
                                                      : nullptr;
  if (needs_cpu) throw InputError(key + " computes steady states only; " + needs_cpu + " needs run.backend = cpu");
}

// program_options would take anything but --key=value for a positional argument and drop it
// silently; a control character in a value would reach file names and generated scripts.
void check_overrides(const std::vector<std::string>& overrides) {
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (o.rfind("--", 0) != 0 || eq == std::string::npos)
      throw InputError("override '" + echoed(o) + "' is not of the form --section.key=value");
    if (eq == 2) throw InputError("override '" + echoed(o) + "' has no key before '='; expected --section.key=value");
    if (const auto c = first_control_character(o); !c.empty())
      throw InputError("override " + echoed(o.substr(0, eq)) + " holds a control character (" + c +
                       "); keys and values are one line of printable text");
  }
}

// A file name the user can see and type: not empty, not only blanks, no control characters.
const std::string& checked_output_name(const std::string& name) {
  if (const auto c = first_control_character(name); !c.empty())
    throw InputError("output.file = '" + echoed(name) + "' holds a control character (" + c +
                     "); expected a file name of printable characters");
  if (name.find_first_not_of(" \t") == std::string::npos)
    throw InputError("output.file = '" + name + "' is empty; expected a file name such as sweep.h5");
  return name;
}

std::string file_stem(const std::string& name) {
  auto base = name.substr(name.find_last_of('/') + 1);
  const auto dot = base.rfind('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

long parse_integer(const std::string& key, const std::string& text, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi)
    throw InputError(key + " = '" + echoed(text) + "' is not accepted; expected an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]");
  return v;
}

// The position of `text` among `choices`; throws InputError naming the key and the choices.
std::size_t parse_choice(const std::string& key, const std::string& text, const std::vector<std::string>& choices) {
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == text) return i;
  std::string accepted;
  for (const auto& c : choices) accepted += (accepted.empty() ? "" : ", ") + c;
  throw InputError(key + " = '" + echoed(text) + "' is not accepted" + did_you_mean(text, choices) + "; expected one of: " + accepted);
}

double parse_real(const std::string& key, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > lo) || !(v <= hi)) {
    std::ostringstream out;
    out << key << " = '" << echoed(text) << "' is not accepted; expected a number in (" << lo << ", " << hi << "]";
    throw InputError(out.str());
  }
  return v;
}

// Loads the plugins a sweep names: `plugin = FILE` lines of the file (relative to the sweep file's
// folder) and --plugin=FILE overrides (as given: vibro writes them with absolute paths). Before the
// model is looked up, since a plugin may provide it.
void load_sweep_plugins(const std::string& ini, const std::string& source_name, const std::vector<std::string>& overrides) {
  po::options_description plugin_only;
  plugin_only.add_options()("plugin", po::value<std::vector<std::string>>()->composing());
  po::variables_map from_overrides, from_file;
  try {
    po::store(po::command_line_parser(overrides).options(plugin_only).style(kOverrideStyle).allow_unregistered().run(),
              from_overrides);
    std::istringstream in(ini);
    po::store(po::parse_config_file(in, plugin_only, true), from_file);
  } catch (const po::error& e) {
    throw InputError(source_name + ": malformed sweep file: " + e.what());
  }
  const auto files = [](const po::variables_map& vm) {
    return vm.count("plugin") ? vm["plugin"].as<std::vector<std::string>>() : std::vector<std::string>{};
  };
  for (const auto& file : files(from_overrides)) load_plugin(file);
  const auto folder = std::filesystem::path(source_name).parent_path();
  for (const auto& file : files(from_file)) {
    if (file.find_first_not_of(" \t") == std::string::npos)
      throw InputError(source_name + ": plugin = '' is empty; expected the path of a model plugin, relative to the sweep file");
    const std::filesystem::path path(file);
    load_plugin(path.is_absolute() ? file : (folder / path).string());
  }
}

// analysis.global_continuation names a parameter axis (not an initial-condition one: those make up a
// point's basin) and needs the stroboscopic points the attractors are told apart by.
void parse_global_continuation(SweepSpec& spec, const std::string* axis, const std::string* distance) {
  if (distance) spec.match.distance = parse_real("analysis.match_distance", *distance, 0, 1e300);
  if (!axis || *axis == "none") return;
  std::string names;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const auto& p = spec.model->parameters()[static_cast<std::size_t>(spec.axis_parameter[a])];
    if (p.group == ParameterGroup::Initial) continue;
    if (spec.axes[a].name == *axis) spec.global_continuation_axis = static_cast<int>(a);
    names += (names.empty() ? "" : ", ") + spec.axes[a].name;
  }
  if (spec.global_continuation_axis < 0)
    throw InputError("analysis.global_continuation = '" + echoed(*axis) + "' is not a parameter axis of this sweep; expected none" +
                     (names.empty() ? std::string(" (the sweep has no parameter axis)") : " or one of: " + names));
  if (!spec.record_strobe())
    throw InputError("analysis.global_continuation needs the stroboscopic points to tell attractors apart; "
                     "it cannot be used with output.strobe_points = none");
}

}  // namespace

std::vector<SweepKey> sweep_keys(const Model& model) {
  std::vector<SweepKey> keys{{"model", kChanges}};
  for (const auto& p : model.parameters()) keys.push_back({std::string(group_section(p.group)) + "." + p.name, kChanges});
  for (const auto& p : model.parameters()) keys.push_back({"axes." + p.name, kChanges});
  for (const auto& key : kRunKeys) keys.push_back({key.name, key.effect});
  return keys;
}

std::string SweepSpec::result_settings() const {
  std::ostringstream text;
  text << "model = " << model->name();
  // A plugin model is identified by its ABI stamp and the plugin file's content too: a rebuilt plugin
  // may compute other results, so its checkpoints are another sweep's.
  if (const auto& origin = ModelRegistry::instance().origin(model->name()); !origin.built_in()) text << " plugin " << origin.identity;
  text << '\n';
  const auto& specs = model->parameters();
  for (std::size_t i = 0; i < specs.size(); ++i)
    text << group_section(specs[i].group) << '.' << specs[i].name << " = " << number(base.values()[i]) << '\n';
  for (std::size_t i = 0; i < specs.size(); ++i) {
    text << "axes." << specs[i].name << " = ";
    const auto a = std::find(axis_parameter.begin(), axis_parameter.end(), static_cast<int>(i));
    if (a == axis_parameter.end()) {
      text << "none\n";
      continue;
    }
    const auto& axis = axes[static_cast<std::size_t>(a - axis_parameter.begin())];
    text << "axis " << a - axis_parameter.begin() << ':';  // grid order matters too
    for (const double v : axis.values) text << ' ' << number(v);
    text << '\n';
  }
  for (const auto& key : kRunKeys)
    if (key.effect == kChanges) text << key.name << " = " << key.value(*this) << '\n';
  return text.str();
}

std::string SweepSpec::fingerprint() const {
  const std::string s = result_settings();
  std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a
  for (const char c : s) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  std::ostringstream hex;
  hex << std::hex << hash;
  return hex.str();
}

std::string sweep_file_help() {
  std::ostringstream out;
  out << "Sweep file (INI):\n"
         "  model = NAME                 a registered model (vibro models), or a model file NAME.vibro\n"
         "                               (relative to the sweep file; docs/model_files.md)\n"
         "  plugin = FILE                a model plugin to load (repeatable; relative to the sweep file)\n"
         "  [parameters] [initial] [numerics]   fixed values of the model's keys (vibro describe NAME)\n"
         "  [axes]  KEY = linspace(a, b, n) | logspace(a, b, n) | range(a, b, step) | v1, v2, ...\n";
  for (const auto& key : kRunKeys) {
    const std::size_t width = std::string(key.name).size();
    out << "  " << key.name << std::string(width < 28 ? 28 - width : 2, ' ') << key.help << "\n";
  }
  return out.str();
}

// parse_sweep without the origin of a bad value in its message.
static SweepSpec parse_sweep_text(const std::string& ini_text, const std::string& source_name,
                                  const std::vector<std::string>& overrides) {
  SweepSpec spec;
  spec.source_name = source_name;
  spec.source_text = ini_text;
  check_overrides(overrides);
  // A [model] section holds a model file's text; the rest is the sweep (docs/model_files.md).
  const InlineModel inline_model = split_inline_model(ini_text);
  const std::string ini = checked_ini_text(inline_model.sweep_text, source_name);
  if (const std::string repeated = KeyOrigins(inline_model.sweep_text, source_name, overrides).repeated_key(); !repeated.empty())
    throw InputError(repeated);

  load_sweep_plugins(ini, source_name, overrides);
  // Pass 1: find the model (everything else depends on its declared keys).
  std::string model_name;
  {
    po::options_description model_only;
    model_only.add_options()("model", po::value<std::string>(&model_name));
    po::variables_map vm;
    try {
      // Overrides first: program_options keeps the first value stored for a key.
      po::store(po::command_line_parser(overrides).options(model_only).style(kOverrideStyle).allow_unregistered().run(), vm);
      std::istringstream in(ini);
      po::store(po::parse_config_file(in, model_only, true), vm);
    } catch (const po::error& e) {
      throw InputError(source_name + ": malformed sweep file: " + e.what());
    }
    po::notify(vm);
    if (inline_model.present && !model_name.empty())
      throw InputError(source_name + ":" + std::to_string(inline_model.header_line) + ": a [model] section and model = " +
                       model_name + ": give the model once (the [model] section's text, or a model name or file)");
    if (inline_model.present) model_name = load_inline_model(inline_model.model_text, source_name);
    if (model_name.empty())
      throw InputError(source_name + ": missing key 'model' (a registered model name or a model file NAME.vibro) "
                       "or [model] section (a model file's text)");
  }
  // model = FILE.vibro: a model file, relative to the sweep file's folder, registered before any case.
  if (is_model_file(model_name)) {
    const std::filesystem::path path(model_name);
    model_name = load_model_file(path.is_absolute() ? model_name
                                                    : (std::filesystem::path(source_name).parent_path() / path).string());
  }
  spec.model = &ModelRegistry::instance().get(model_name);
  const auto& specs = spec.model->parameters();
  spec.base = ParameterSet(&specs);

  // Pass 2: every key strictly, against the options this model declares.
  po::options_description options;
  for (const auto& key : sweep_keys(*spec.model)) options.add_options()(key.name.c_str(), po::value<std::string>());
  // A plugin file is loaded before this pass; its identity enters the fingerprint through the model line.
  options.add_options()("plugin", po::value<std::vector<std::string>>()->composing());

  po::variables_map vm;
  std::vector<std::string> axis_order;  // keys in file order
  try {
    // Command-line overrides first: program_options keeps the first value stored for a key.
    po::store(po::command_line_parser(overrides).options(options).style(kOverrideStyle).run(), vm);
    std::istringstream in(ini);
    const auto parsed = po::parse_config_file(in, options, false);
    for (const auto& option : parsed.options) axis_order.push_back(option.string_key);
    po::store(parsed, vm);
  } catch (const po::unknown_option& e) {
    std::string accepted;
    for (const auto& p : specs) accepted += (accepted.empty() ? "" : ", ") + std::string(group_section(p.group)) + "." + p.name;
    std::string key = e.get_option_name();
    key = key.substr(0, key.find('='));
    key.erase(0, key.find_first_not_of('-'));
    std::vector<std::string> known;
    for (const auto& k : sweep_keys(*spec.model)) known.push_back(k.name);
    const std::string origin = KeyOrigins(ini_text, source_name, overrides).of(key);
    throw InputError((origin.empty() ? source_name : origin) + ": unknown key '" + key + "' for model '" + model_name +
                     "'" + did_you_mean(key, known) + "; accepted: model, " + accepted +
                     ", axes.<parameter>, run.*, output.*, analysis.* (see vibro --help)");
  } catch (const po::error& e) {
    throw InputError(source_name + ": malformed sweep file: " + e.what());
  }

  auto text = [&](const std::string& key) -> const std::string* {
    const auto it = vm.find(key);
    return it == vm.end() ? nullptr : &it->second.as<std::string>();
  };

  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& p = specs[i];
    if (const auto* value = text(std::string(group_section(p.group)) + "." + p.name))
      spec.base.set_at(static_cast<int>(i), p.parse(*value));
  }
  // Every axis counted before any is built: a grid too large is refused before it takes memory.
  std::vector<AxisPlan> plans;
  std::vector<int> planned_parameter;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& p = specs[i];
    const std::string key = "axes." + p.name;
    const auto* expression = text(key);
    if (!expression) continue;
    if (p.kind == ParameterKind::Choice) throw InputError(key + ": only numeric parameters can be swept");
    plans.push_back(plan_axis(p.name, *expression, key));
    planned_parameter.push_back(static_cast<int>(i));
  }
  check_grid_size(plans, text("run.continuation") != nullptr, grid_memory_limit());
  for (std::size_t a = 0; a < plans.size(); ++a) {
    const auto i = static_cast<std::size_t>(planned_parameter[a]);
    const auto& p = specs[i];
    const std::string key = "axes." + p.name;
    Axis axis = build_axis(plans[a]);
    for (const double v : axis.values)
      if (!p.in_range(v))
        throw InputError(key + ": value " + p.format_value(v) + " is out of range; " + p.name + " accepts " +
                         p.accepted_range() + " " + p.unit);
    spec.axes.push_back(std::move(axis));
    spec.axis_parameter.push_back(static_cast<int>(i));
  }
  // Grid order is the order in which the file lists the axes (then any added on the command line).
  {
    std::vector<std::size_t> order(spec.axes.size());
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    auto rank = [&](std::size_t a) {
      const auto it = std::find(axis_order.begin(), axis_order.end(), "axes." + spec.axes[a].name);
      return it - axis_order.begin();
    };
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return rank(x) < rank(y); });
    std::vector<Axis> axes;
    std::vector<int> parameters;
    for (const auto a : order) {
      axes.push_back(spec.axes[a]);
      parameters.push_back(spec.axis_parameter[a]);
    }
    spec.axes = std::move(axes);
    spec.axis_parameter = std::move(parameters);
  }

  auto& s = spec.steady;
  if (const auto* v = text("run.max_periods")) s.max_periods = static_cast<int>(parse_integer("run.max_periods", *v, 2, 100000000));
  if (const auto* v = text("run.window_periods")) s.window_periods = static_cast<int>(parse_integer("run.window_periods", *v, 2, 100000000));
  if (const auto* v = text("run.max_period")) s.max_period = static_cast<int>(parse_integer("run.max_period", *v, 1, 1000));
  if (const auto* v = text("run.min_window")) s.min_window = static_cast<int>(parse_integer("run.min_window", *v, 1, 100000));
  if (const auto* v = text("run.min_periods")) s.min_periods = static_cast<int>(parse_integer("run.min_periods", *v, 0, 100000000));
  if (const auto* v = text("run.tol")) s.tol = parse_real("run.tol", *v, 0, 1);
  if (const auto* v = text("run.adaptive_tol")) s.adaptive_tol = parse_real("run.adaptive_tol", *v, 0, 1);
  if (const auto* v = text("run.quasi_tol")) s.quasi_tol = parse_real("run.quasi_tol", *v, 0, 1);
  if (const auto* v = text("run.quasi_min_window"))
    s.quasi_min_window = static_cast<int>(parse_integer("run.quasi_min_window", *v, 2, 100000000));
  if (const auto* v = text("run.steady_state"))
    s.mode = static_cast<SteadyMode>(parse_choice(
        "run.steady_state", *v,
        {steady_mode_name(SteadyMode::Fixed), steady_mode_name(SteadyMode::Adaptive), steady_mode_name(SteadyMode::Means)}));
  if (const auto* v = text("run.means_window")) s.means_window = static_cast<int>(parse_integer("run.means_window", *v, 1, 100000000));
  if (const auto* v = text("run.means_checks")) s.means_checks = static_cast<int>(parse_integer("run.means_checks", *v, 1, 1000));
  if (const auto* v = text("run.means_to_budget"))
    s.means_to_budget = parse_choice("run.means_to_budget", *v, {"false", "true"}) == 1;
  if (s.window_periods >= s.max_periods)
    throw InputError("run.window_periods = " + std::to_string(s.window_periods) + " must be smaller than run.max_periods = " +
                     std::to_string(s.max_periods));
  if (const auto* v = text("run.extend_unsettled")) {
    spec.extend_unsettled = static_cast<int>(parse_integer("run.extend_unsettled", *v, 0, 100000000));
    if (spec.extend_unsettled > 0 && spec.extend_unsettled <= s.max_periods)
      throw InputError("run.extend_unsettled = " + std::to_string(spec.extend_unsettled) +
                       " must be 0 (off) or more than run.max_periods = " + std::to_string(s.max_periods));
  }
  auto& limits = spec.limits;
  if (const auto* v = text("run.case_wall_limit")) limits.wall_seconds = parse_real("run.case_wall_limit", *v, 0, 1e9);
  if (const auto* v = text("run.max_steps_per_period"))
    limits.steps_per_period = parse_integer("run.max_steps_per_period", *v, 1, kMaxWorkCount);
  if (const auto* v = text("run.max_events_per_period"))
    limits.events_per_period = parse_integer("run.max_events_per_period", *v, 1, kMaxWorkCount);
  if (const auto* v = text("run.max_steps")) limits.steps = parse_integer("run.max_steps", *v, 1, kMaxWorkCount);
  if (const auto* v = text("run.max_events")) limits.events = parse_integer("run.max_events", *v, 1, kMaxWorkCount);
  if (const auto* v = text("run.threads")) spec.threads = static_cast<int>(parse_integer("run.threads", *v, 0, 4096));
  if (const auto* v = text("run.progress_seconds"))
    spec.progress_seconds = parse_real("run.progress_seconds", *v, 0.01, 86400);
  if (const auto* v = text("run.backend"))
    spec.backend = static_cast<Backend>(parse_choice("run.backend", *v, {"cpu", "batched", "cuda", "null"}));
  if (const auto* v = text("run.batch_cases"))
    spec.batch_cases = static_cast<int>(parse_integer("run.batch_cases", *v, 1, 1 << 26));
  if (const auto* v = text("run.batch_periods"))
    spec.batch_periods = static_cast<int>(parse_integer("run.batch_periods", *v, 1, 1000000));
  if (const auto* v = text("run.null_group_seconds")) {
    spec.null_group_seconds = parse_real("run.null_group_seconds", *v, 0, 1e6);
    if (spec.backend != Backend::Null)
      throw InputError("run.null_group_seconds is a key of run.backend = null only (a benchmark tool); run.backend is " +
                       std::string(backend_name(spec.backend)));
  }
  if (const auto* v = text("run.progress"))
    spec.progress = static_cast<ProgressMode>(parse_choice("run.progress", *v, {"auto", "always", "never"}));
  if (const auto* v = text("run.continuation")) {
    std::string names;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
      if (spec.axes[a].name == *v) spec.continuation_axis = static_cast<int>(a);
      names += (a ? ", " : "") + spec.axes[a].name;
    }
    if (spec.continuation_axis < 0)
      throw InputError("run.continuation = '" + echoed(*v) + "' is not an axis of this sweep; axes: " + (names.empty() ? "none" : names));
  }
  if (const auto* v = text("run.direction")) spec.descending = parse_choice("run.direction", *v, {"up", "down"}) == 1;
  if (const auto* v = text("output.strobe_points"))
    spec.strobe_points = static_cast<StrobePoints>(parse_choice("output.strobe_points", *v, strobe_points_names()));
  spec.output_file = text("output.file") ? checked_output_name(*text("output.file")) : file_stem(source_name) + ".h5";
  if (const auto* v = text("output.block_cases"))
    spec.block_cases = parse_integer("output.block_cases", *v, 1, 100000000);
  if (const auto* v = text("output.checkpoint_seconds")) spec.checkpoint_seconds = parse_real("output.checkpoint_seconds", *v, 0, 1e6);
  if (const auto* v = text("output.lyapunov_periods"))
    spec.lyapunov_periods = static_cast<int>(parse_integer("output.lyapunov_periods", *v, 0, 10000000));
  if (const auto* v = text("output.floquet")) spec.floquet = parse_choice("output.floquet", *v, {"false", "true"}) == 1;
  if (const auto* v = text("output.shooting")) spec.shooting = parse_choice("output.shooting", *v, {"false", "true"}) == 1;
  spec.floquet = spec.floquet || spec.shooting;
  if (const auto* v = text("output.overwrite")) spec.overwrite = parse_choice("output.overwrite", *v, {"false", "true"}) == 1;
  if (const auto* v = text("output.keep_checkpoints"))
    spec.keep_checkpoints = parse_choice("output.keep_checkpoints", *v, {"false", "true"}) == 1;
  if (const auto* v = text("output.stream_cases"))
    spec.stream_cases = parse_choice("output.stream_cases", *v, {"false", "true"}) == 1;
  parse_global_continuation(spec, text("analysis.global_continuation"), text("analysis.match_distance"));
  if (const auto* v = text("analysis.match_by"))
    spec.match.method = parse_choice("analysis.match_by", *v, {"distance", "basin_overlap"}) == 1 ? MatchMethod::BasinOverlap
                                                                                               : MatchMethod::Distance;
  if (const auto* v = text("analysis.match_across_classes"))
    spec.match.across_kinds = parse_choice("analysis.match_across_classes", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.match_period_doublings"))
    spec.match.period_doublings = parse_choice("analysis.match_period_doublings", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.match_period_changes"))
    spec.match.period_changes = parse_choice("analysis.match_period_changes", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.match_extent_changes"))
    spec.match.extent_changes = parse_choice("analysis.match_extent_changes", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.match_windows"))
    spec.match.windows = parse_choice("analysis.match_windows", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.match_vanished"))
    spec.match.vanished = parse_choice("analysis.match_vanished", *v, {"false", "true"}) == 1;
  if (const auto* v = text("analysis.seed_from_previous")) {
    spec.seed_from_previous = parse_choice("analysis.seed_from_previous", *v, {"false", "true"}) == 1;
    if (spec.seed_from_previous && spec.global_continuation_axis < 0)
      throw InputError("analysis.seed_from_previous = true needs analysis.global_continuation = AXIS (the axis it seeds along)");
  }
  if (const auto* v = text("analysis.seed_directions"))
    spec.seed_both_directions = parse_choice("analysis.seed_directions", *v, {"forward", "both"}) == 1;
  if (spec.extend_unsettled > 0 && !spec.record_strobe())
    throw InputError("run.extend_unsettled needs the stroboscopic points to tell a settled case from an unsettled one; "
                     "it cannot be used with output.strobe_points = none");
  if (!overrides.empty()) {
    spec.source_text += "\n# command-line overrides:\n";
    for (const auto& o : overrides) spec.source_text += "# " + o + "\n";
  }
  validate_cases(spec);
  require_model_features(spec);
  require_backend(spec);
  if (s.mode == SteadyMode::Means) require_settled_means(spec);
  return spec;
}

SweepSpec parse_sweep(const std::string& ini_text, const std::string& source_name,
                      const std::vector<std::string>& overrides) {
  try {
    return parse_sweep_text(ini_text, source_name, overrides);
  } catch (const InputError& e) {
    throw InputError(with_key_origin(e.what(), KeyOrigins(ini_text, source_name, overrides)));
  }
}

}  // namespace vibro
