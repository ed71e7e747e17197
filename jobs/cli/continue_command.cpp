// vibro continue: the periodic orbit that the sweep file's single case settles on, followed in one
// parameter by Newton shooting, with its stability and the points where the branch changes character.
#include <cmath>
#include <algorithm>
#include <cctype>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_admissibility.hpp"
#include "analysis/branch_switching.hpp"
#include "analysis/codim1_curve.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/usage_text.hpp"
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
  int switch_at = 0;  // --switch PDn: continue the doubled branch born at the branch's n-th period doubling
  // --curve KINDn --parameters P1,P2 --curve-to V2: the curve in (P1, P2) of the branch's n-th event of
  // that kind, from the sweep file's value of P2 to V2.
  std::string curve_kind;
  int curve_at = 0;
  std::string curve_parameter;  // P2
  double curve_to = std::nan("");
  ContinuationSettings settings;
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

ContinueRequest parse(const CommandLine& line) {
  ContinueRequest r;
  std::string curve_first;  // P1 of --parameters, which must be --parameter
  if (!line.positional.empty()) r.sweep_file = line.positional.front();
  r.overrides = line.overrides;
  for (const auto& [key, value] : line.options) {
    if (key == "--parameter") r.parameter = value;
    else if (key == "--to") r.to = number("--to", value);
    else if (key == "--step") r.settings.step = number("--step", value);
    else if (key == "--max-step") r.settings.max_step = number("--max-step", value);
    else if (key == "--periods") r.periods = static_cast<int>(number("--periods", value));
    else if (key == "--method") r.method = value;
    else if (key == "--switch") {
      std::size_t used = 0;
      int n = 0;
      try {
        if (value.rfind("PD", 0) == 0) n = std::stoi(value.substr(2), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (value.size() < 3 || used != value.size() - 2 || n < 1)
        throw InputError("--switch = '" + echoed(value) + "': accepted is PDn, the branch's n-th period doubling "
                         "(PD1, PD2, ...), where the branch of twice the period is continued");
      r.switch_at = n;
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
  if (r.sweep_file.empty() || r.parameter.empty() || std::isnan(r.to))
    throw InputError("usage: vibro continue SWEEP.ini --parameter NAME --to VALUE [--step S] [--periods K] "
                     "[--max-step S] [--method natural|arclength] [--switch PDn]");
  if (r.method != "natural" && r.method != "arclength")
    throw InputError("--method = '" + echoed(r.method) + "'" + did_you_mean(r.method, {"natural", "arclength"}) +
                     ": accepted are natural (parameter steps) and arclength "
                     "(pseudo-arclength, follows the branch round folds)");
  if (!(r.settings.step > 0)) throw InputError("--step must be > 0");
  if (!(r.settings.max_step >= r.settings.step))
    throw InputError("--max-step must be >= --step (" + std::to_string(r.settings.step) + ")");
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
  return r;
}

// --switch PDn: the branch of twice the period born at the n-th period doubling, written next to the
// branch as OUT.pdN.branch.h5.
void switch_at_doubling(const SweepSpec& spec, const ParameterSet& values, const ContinueRequest& request,
                        const Branch& branch, const std::string& branch_path) {
  int seen = 0;
  const BranchEvent* doubling = nullptr;
  for (const auto& e : branch.events)
    if (e.kind == "period_doubling" && ++seen == request.switch_at) doubling = &e;
  if (!doubling)
    throw std::runtime_error("--switch PD" + std::to_string(request.switch_at) + ": the branch has " +
                             std::to_string(seen) + " period doubling(s)");
  Branch doubled = continue_doubled_branch(*spec.model, values, request.parameter, *doubling, request.to, request.settings);
  check_branch_admissibility(*spec.model, values, request.parameter, 2 * doubling->orbit.periods, doubled);
  if (doubled.points.empty()) throw std::runtime_error("--switch: " + doubled.end);
  std::string path = branch_path.substr(0, branch_path.size() - std::string(".branch.h5").size());
  path += ".pd" + std::to_string(request.switch_at) + ".branch.h5";
  write_branch_file(path, spec, request.parameter, doubled.points.front().parameter, request.to,
                    2 * doubling->orbit.periods, doubled);
  std::cout << doubled.points.size() << " orbits of period " << 2 * doubling->orbit.periods << " from the period doubling at "
            << request.parameter << " = " << doubling->parameter << ": " << doubled.end << "\n";
  for (const auto& e : doubled.events)
    std::cout << "  " << e.kind << " at " << request.parameter << " = " << e.parameter << " (" << e.detail << ")\n";
  std::cout << "wrote " << path << "\n";
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

}  // namespace

int continue_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line(
      {"continue", {{"--parameter", true}, {"--to", true}, {"--step", true}, {"--max-step", true}, {"--periods", true}, {"--method", true}, {"--switch", true},
        {"--curve", true}, {"--parameters", true}, {"--curve-to", true}},
       true, false, 1},
      args);
  if (printed_help(line.help, "continue")) return 0;
  const ContinueRequest request = parse(line);
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
  Branch branch =
      follow(*spec.model, values, request.parameter, from, request.to, start.final_state, periods, request.settings);
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
  if (request.switch_at > 0) switch_at_doubling(spec, values, request, branch, path);
  if (!request.curve_kind.empty()) trace_curve(spec, values, request, branch, path);
  return 0;
}

}  // namespace vibro::cli
