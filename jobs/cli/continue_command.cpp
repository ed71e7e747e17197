// vibro continue: the periodic orbit that the sweep file's single case settles on, followed in one
// parameter by Newton shooting, with its stability and the points where the branch changes character.
#include <cmath>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_admissibility.hpp"
#include "analysis/branch_switching.hpp"
#include "analysis/codim1_curve.hpp"
#include "analysis/continuation_steps.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/branch_switch.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/output/branch_file_reader.hpp"
#include "jobs/output/branch_file_writer.hpp"
#include "jobs/output/curve_file_writer.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/model_features.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::cli {

namespace {

struct ContinueRequest {
  std::string sweep_file, parameter;
  double to = std::nan("");
  int periods = 0;  // 0: the period the case settles on
  std::string method = "natural";
  // --switch PDn / Gn [--cascade K]: also continue the branch born at the branch's n-th period doubling
  // or grazing (kind empty: none).
  SwitchRequest switching;
  // --curve KINDn --parameters P1,P2 --curve-to V2: the curve in (P1, P2) of the branch's n-th event of
  // that kind, from the sweep file's value of P2 to V2.
  std::string curve_kind;
  int curve_at = 0;
  std::string curve_parameter;  // P2
  double curve_to = std::nan("");
  StepRequest steps;  // --step, --max-step; unset: relative to the range (analysis/continuation_steps)
  std::vector<std::string> overrides;
};

double number(const std::string& key, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value)) throw InputError(key + " = '" + echoed(text) + "' is not a number");
  return value;
}

const std::vector<std::string> kCurveKinds = {"grazing", "period_doubling", "fold"};

// --curve KIND or KINDn (n >= 1, default 1).
void parse_curve(const std::string& value, ContinueRequest& r) {
  std::size_t digits = value.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(value[digits - 1]))) --digits;
  const std::string kind = value.substr(0, digits), number_text = value.substr(digits);
  int n = 1;
  if (!number_text.empty()) n = number_text.size() > 6 ? 0 : std::stoi(number_text);
  const bool known = std::find(kCurveKinds.begin(), kCurveKinds.end(), kind) != kCurveKinds.end();
  if (!known || n < 1)
    throw InputError("--curve = '" + echoed(value) + "'" + did_you_mean(kind, kCurveKinds) +
                     ": accepted are grazing, period_doubling and fold, each optionally with the event's number "
                     "among the branch's events of that kind (fold2; default 1)");
  r.curve_kind = kind;
  r.curve_at = n;
}

// Options that a branch file fixes (its parameter, period and sweep): refused beside one.
const std::vector<std::string> kFixedByBranchFile = {"--parameter", "--periods", "--curve", "--parameters", "--curve-to"};

ContinueRequest parse(const CommandLine& line, bool from_branch_file) {
  ContinueRequest r;
  std::string curve_first;  // P1 of --parameters, which must be --parameter
  if (!line.positional.empty()) r.sweep_file = line.positional.front();
  r.overrides = line.overrides;
  for (const auto& [key, value] : line.options) {
    if (key == "--parameter") r.parameter = value;
    else if (key == "--to") r.to = number("--to", value);
    else if (key == "--step") r.steps.step = number("--step", value);
    else if (key == "--max-step") r.steps.max_step = number("--max-step", value);
    else if (key == "--periods") r.periods = static_cast<int>(number("--periods", value));
    else if (key == "--method") r.method = value;
    else if (key == "--switch") {
      const int cascade = r.switching.cascade;
      r.switching = parse_switch(value);
      r.switching.cascade = cascade;
    } else if (key == "--cascade") {
      r.switching.cascade = parse_cascade(value);
    } else if (key == "--curve") {
      parse_curve(value, r);
    } else if (key == "--parameters") {
      const auto comma = value.find(',');
      const std::string first = value.substr(0, comma);
      if (comma == std::string::npos || value.find(',', comma + 1) != std::string::npos || first.empty() ||
          comma + 1 == value.size())
        throw InputError("--parameters = '" + echoed(value) + "': accepted is P1,P2, the branch's parameter (--parameter) "
                         "and the curve's second parameter, e.g. omega,sigma");
      r.curve_parameter = value.substr(comma + 1);
      curve_first = first;
    } else if (key == "--curve-to") {
      r.curve_to = number("--curve-to", value);
    }
  }
  if (line.has("--cascade") && r.switching.kind != "PD")
    throw InputError("--cascade K follows period doublings: it needs --switch PDn");
  if (from_branch_file) {
    if (r.switching.kind.empty())
      throw InputError("usage: vibro continue BRANCH.h5 --switch PDn|Gn [--cascade K] [--to VALUE] [--step S] "
                       "[--max-step S] [--method natural|arclength]: a branch file is continued by switching at one of "
                       "its events");
    for (const auto& fixed : kFixedByBranchFile)
      if (line.has(fixed))
        throw InputError(fixed + " cannot be given with a branch file (" + echoed(r.sweep_file) + "): the file fixes the "
                         "branch's parameter, period and sweep; give --switch, --cascade, --to, --step, --max-step, --method");
    if (!r.overrides.empty())
      throw InputError(r.overrides.front() + ": a branch file (" + echoed(r.sweep_file) + ") keeps its sweep's keys; "
                       "continue its sweep file instead to change them");
  } else if (r.sweep_file.empty() || r.parameter.empty() || std::isnan(r.to)) {
    throw InputError("usage: vibro continue SWEEP.ini --parameter NAME --to VALUE [--step S] [--periods K] "
                     "[--max-step S] [--method natural|arclength] [--switch PDn|Gn [--cascade K]], or "
                     "vibro continue BRANCH.h5 --switch PDn|Gn [--cascade K] [--to VALUE]");
  }
  if (r.method != "natural" && r.method != "arclength")
    throw InputError("--method = '" + echoed(r.method) + "'" + did_you_mean(r.method, {"natural", "arclength"}) +
                     ": accepted are natural (parameter steps) and arclength "
                     "(pseudo-arclength, follows the branch round folds)");
  if (r.steps.step && !(*r.steps.step > 0)) throw InputError("--step must be > 0");
  if (r.steps.max_step && !(*r.steps.max_step > 0)) throw InputError("--max-step must be > 0");
  if (r.steps.step && r.steps.max_step && !(*r.steps.max_step >= *r.steps.step))
    throw InputError("--max-step must be >= --step (" + std::to_string(*r.steps.step) + ")");
  if (r.periods < 0 || r.periods > 1000) throw InputError("--periods must be in [1, 1000] (0: the case's own period)");
  const bool any_curve = !r.curve_kind.empty() || !r.curve_parameter.empty() || !std::isnan(r.curve_to);
  if (any_curve && (r.curve_kind.empty() || r.curve_parameter.empty() || std::isnan(r.curve_to)))
    throw InputError("a two-parameter curve needs all of --curve KIND[n] (grazing, period_doubling or fold), "
                     "--parameters P1,P2 and --curve-to VALUE (where P2 should end)");
  if (any_curve && curve_first != r.parameter)
    throw InputError("--parameters = '" + echoed(curve_first + "," + r.curve_parameter) +
                     "': its first parameter must be the branch's, --parameter " + echoed(r.parameter));
  if (any_curve && r.curve_parameter == r.parameter)
    throw InputError("--parameters: the curve's second parameter must differ from the first ('" + echoed(r.parameter) +
                     "')");
  r.switching.steps = r.steps;
  r.switching.method = r.method;
  return r;
}

// --curve KINDn: the curve in (P1, P2) of the branch's n-th event of that kind, written next to the branch
// as OUT.KINDn.curve.h5.
void trace_curve(const SweepSpec& spec, const ParameterSet& values, const ContinueRequest& request, const Branch& branch,
                 const std::string& branch_path) {
  int seen = 0;
  const BranchEvent* event = nullptr;
  for (const auto& e : branch.events)
    if (e.kind == request.curve_kind && ++seen == request.curve_at) event = &e;
  const std::string name = request.curve_kind + std::to_string(request.curve_at);
  if (!event)
    throw std::runtime_error("--curve " + name + ": the branch has " + std::to_string(seen) + " " + request.curve_kind +
                             " event(s)");
  const Curve curve =
      continue_codim1_curve(*spec.model, values, request.parameter, request.curve_parameter, *event, request.curve_to, {},
                            event->kind == "grazing" ? meeting_guesses(branch, *event) : std::vector<StrobeSample>{});
  if (curve.points.empty()) throw std::runtime_error("--curve " + name + ": " + curve.end);
  std::string path = branch_path.substr(0, branch_path.size() - std::string(".branch.h5").size());
  path += "." + name + ".curve.h5";
  write_curve_file(path, spec, event->orbit.periods, curve);
  std::cout << curve.points.size() << " points of the " << request.curve_kind << " curve in (" << request.parameter << ", "
            << request.curve_parameter << ") from (" << curve.points.front().parameter_1 << ", "
            << curve.points.front().parameter_2 << ") to (" << curve.points.back().parameter_1 << ", "
            << curve.points.back().parameter_2 << "): " << curve.end << "\n";
  std::cout << "wrote " << path << "\n";
}

// Whether `path` is an HDF5 file (its signature), so a branch file rather than a sweep file's INI text.
bool is_hdf5_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char signature[8] = {};
  return in.read(signature, 8) && std::string(signature, 8) == std::string("\x89HDF\r\n\x1a\n", 8);
}

// The sweep a branch file came from, parsed again from the text it records (overrides included), with
// every parameter at the value the file records.
std::pair<SweepSpec, ParameterSet> recorded_sweep(const StoredBranch& stored) {
  const auto [text, overrides] = split_recorded_overrides(stored.sweep_text);
  const std::string source = stored.sweep_path.empty() ? stored.sweep_name : stored.sweep_path;
  SweepSpec spec;
  try {
    spec = parse_sweep(text, source, overrides);
  } catch (const InputError& e) {
    throw InputError("'" + stored.path + "': the sweep it records (" + source + ") does not parse now: " + e.what());
  }
  if (spec.model->name() != stored.model || spec.case_count() != 1)
    throw InputError("'" + stored.path + "': the sweep it records (" + source + ") no longer gives model " + stored.model +
                     " with a single case");
  require_continuation_features(*spec.model);
  ParameterSet values = spec.case_parameters(0);
  const auto& specs = spec.model->parameters();
  for (const auto& [name, text_value] : stored.parameters) {
    const int index = values.index_of(name);
    if (index < 0)
      throw InputError("'" + stored.path + "': its parameter '" + name + "' is not one of " + stored.model + "'s now");
    values.set_at(index, specs[static_cast<std::size_t>(index)].parse(text_value));
  }
  if (values.index_of(stored.parameter) < 0)
    throw InputError("'" + stored.path + "': its branch parameter '" + stored.parameter + "' is not one of " +
                     stored.model + "'s now");
  if (!stored.has_modes && spec.model->start(values)->layout().mode_names.size() > 1)
    throw InputError("'" + stored.path + "' cannot be switched from: it lacks the mode of its event orbits "
                     "(/events/mode; written by an older vibro) and " + stored.model + " has several; rerun vibro "
                     "continue on its sweep file with --switch");
  return {std::move(spec), std::move(values)};
}

// vibro continue BRANCH.h5 --switch ...: the branch born at one of the file's events, from the orbit and
// the sweep the file records, towards --to (default: the file's own end of range).
int switch_from_branch_file(const ContinueRequest& request) {
  const StoredBranch stored = read_branch_file(request.sweep_file);
  auto [spec, values] = recorded_sweep(stored);
  SwitchRequest switching = request.switching;
  switching.to = std::isnan(request.to) ? stored.to : request.to;
  ParameterSet end = values;
  end.set_at(values.index_of(stored.parameter), switching.to);  // range-checked before any work
  switch_branch(spec, values, stored.parameter, stored.periods, stored.branch, switching, request.sweep_file);
  return 0;
}

}  // namespace

int continue_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line(
      {"continue", {{"--parameter", true}, {"--to", true}, {"--step", true}, {"--max-step", true}, {"--periods", true}, {"--method", true}, {"--switch", true},
        {"--cascade", true}, {"--curve", true}, {"--parameters", true}, {"--curve-to", true}},
       true, false, 1},
      args);
  if (printed_help(line.help, "continue")) return 0;
  const bool from_branch_file = !line.positional.empty() && is_hdf5_file(line.positional.front());
  const ContinueRequest request = parse(line, from_branch_file);
  if (from_branch_file) return switch_from_branch_file(request);
  const SweepSpec spec = parse_sweep(read_sweep_file(request.sweep_file), request.sweep_file, request.overrides);
  require_continuation_features(*spec.model);
  if (spec.case_count() != 1)
    throw InputError("vibro continue follows one orbit: the sweep file must define a single case (no [axes]); it has " +
                     std::to_string(spec.case_count()));
  ParameterSet values = spec.case_parameters(0);
  const int index = values.index_of(request.parameter);
  if (index < 0 || spec.model->parameters()[static_cast<std::size_t>(index)].kind == ParameterKind::Choice)
    throw InputError("--parameter '" + request.parameter + "' is not a numeric parameter of " + spec.model->name() +
                     " (see vibro describe " + spec.model->name() + ")");
  ParameterSet end = values;
  end.set_at(index, request.to);  // range-checked: names the accepted range before any work
  if (!request.curve_kind.empty()) {
    const int second = values.index_of(request.curve_parameter);
    std::vector<std::string> numeric;
    for (const auto& p : spec.model->parameters())
      if (p.kind != ParameterKind::Choice) numeric.push_back(p.name);
    if (second < 0 || spec.model->parameters()[static_cast<std::size_t>(second)].kind == ParameterKind::Choice)
      throw InputError("--parameters: '" + echoed(request.curve_parameter) + "' is not a numeric parameter of " +
                       spec.model->name() + did_you_mean(request.curve_parameter, numeric) + " (see vibro describe " +
                       spec.model->name() + ")");
    end.set_at(second, request.curve_to);  // --curve-to range-checked likewise
  }
  const double from = values.at(index);

  CaseExtras bounded;
  bounded.limits = spec.limits;
  const CaseResult start = run_case(*spec.model, values, spec.steady, StrobePoints::None, nullptr, bounded);
  if (start.status != CaseStatus::Ok || !start.has_final_state)
    throw InputError("the start case did not run: " + start.reason);
  const int periods = request.periods > 0 ? request.periods : start.period;
  if (periods <= 0)
    throw InputError("the start case (" + request.parameter + " = " + std::to_string(from) + ") settles on no periodic orbit "
                     "(class " + start.class_code + "); give --periods K to shoot for a period-K orbit from its last state");
  const auto follow = request.method == "arclength" ? continue_by_arclength : continue_periodic_orbit;
  const ContinuationSettings settings = steps_for_range({}, from, request.to, request.steps);
  Branch branch = follow(*spec.model, values, request.parameter, from, request.to, start.final_state, periods, settings);
  check_branch_admissibility(*spec.model, values, request.parameter, periods, branch);
  if (branch.points.empty())  // nothing to write: say why (e.g. a conveyor case that ends in coupled motion)
    throw std::runtime_error("the start case (class " + start.class_code + ") gives no orbit to continue: " + branch.end);
  std::string path = spec.output_file;
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".h5") == 0) path.resize(path.size() - 3);
  path += ".branch.h5";
  write_branch_file(path, spec, request.parameter, from, request.to, periods, branch);
  std::cout << branch.points.size() << " orbits of period " << periods << " from " << request.parameter << " = " << from
            << " towards " << request.to << ": " << branch.end << "\n";
  std::cout << std::setprecision(10);
  for (const auto& e : branch.events) std::cout << "  " << e.kind << " at " << request.parameter << " = " << e.parameter << " (" << e.detail << ")\n";
  std::cout << "wrote " << path << "\n";
  if (!request.switching.kind.empty()) {
    SwitchRequest switching = request.switching;
    switching.to = request.to;
    switch_branch(spec, values, request.parameter, periods, branch, switching, path);
  }
  if (!request.curve_kind.empty()) trace_curve(spec, values, request, branch, path);
  return 0;
}

}  // namespace vibro::cli
