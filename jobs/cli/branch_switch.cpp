#include "jobs/cli/branch_switch.hpp"

#include <cctype>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_admissibility.hpp"
#include "analysis/branch_switching.hpp"
#include "analysis/grazing_switching.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"
#include "jobs/output/branch_file_writer.hpp"

namespace vibro::cli {

namespace {

std::string kind_name(const std::string& kind) { return kind == "PD" ? "period_doubling" : "grazing"; }

// The branch's n-th event of `kind` ("period_doubling", "grazing"), or nullptr; `seen` counts them.
const BranchEvent* nth_event(const Branch& branch, const std::string& kind, int n, int& seen) {
  seen = 0;
  const BranchEvent* found = nullptr;
  for (const auto& e : branch.events)
    if (e.kind == kind && ++seen == n) found = &e;
  return found;
}

std::string stem_of(const std::string& branch_path) {
  const std::string suffix = ".branch.h5";
  if (branch_path.size() > suffix.size() && branch_path.compare(branch_path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return branch_path.substr(0, branch_path.size() - suffix.size());
  const std::string h5 = ".h5";
  if (branch_path.size() > h5.size() && branch_path.compare(branch_path.size() - h5.size(), h5.size(), h5) == 0)
    return branch_path.substr(0, branch_path.size() - h5.size());
  return branch_path;
}

void report(const Branch& born, const std::string& parameter, int periods, const std::string& from_what,
            const std::string& path) {
  std::cout << std::setprecision(10) << born.points.size() << " orbits of period " << periods << " from " << from_what
            << ": " << born.end << "\n";
  for (const auto& e : born.events)
    std::cout << "  " << e.kind << " at " << parameter << " = " << e.parameter << " (" << e.detail << ")\n";
  std::cout << "wrote " << path << "\n";
}

}  // namespace

SwitchRequest parse_switch(const std::string& value) {
  SwitchRequest request;
  std::size_t digits = value.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(value[digits - 1]))) --digits;
  const std::string kind = value.substr(0, digits), number = value.substr(digits);
  const int n = number.empty() || number.size() > 6 ? 0 : std::stoi(number);
  if ((kind != "PD" && kind != "G") || n < 1) {
    // The names are short: a typo is mostly the case (pd1).
    std::string upper = kind;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string suggestion = (upper == "PD" || upper == "G") && n >= 1
                                       ? "; did you mean '" + upper + number + "'?"
                                       : did_you_mean(kind, {"PD", "G"});
    throw InputError("--switch = '" + echoed(value) + "'" + suggestion +
                     ": accepted are PDn, the branch's n-th period doubling (PD1, PD2, ...), where the branch of twice "
                     "the period is continued, and Gn, its n-th grazing (G1, ...), where the branch with more impacts "
                     "born there is continued");
  }
  request.kind = kind;
  request.at = n;
  return request;
}

int parse_cascade(const std::string& value) {
  const bool digits = !value.empty() && value.size() <= 3 &&
                      value.find_first_not_of("0123456789") == std::string::npos;
  const int k = digits ? std::stoi(value) : 0;
  if (k < 1 || k > 10)
    throw InputError("--cascade = '" + echoed(value) + "': accepted is K in 1 to 10, the period doublings to follow in "
                     "all (with --switch PDn: the first at PDn, each next at the new branch's first period doubling)");
  return k;
}

void switch_branch(const SweepSpec& spec, const ParameterSet& values, const std::string& parameter, int periods,
                   const Branch& branch, const SwitchRequest& request, const std::string& branch_path) {
  const std::string wanted = kind_name(request.kind);
  int seen = 0;
  const BranchEvent* event = nth_event(branch, wanted, request.at, seen);
  const std::string name = request.kind + std::to_string(request.at);
  if (!event)
    throw std::runtime_error("--switch " + name + ": the branch has " + std::to_string(seen) + " " +
                             (request.kind == "PD" ? "period doubling(s)" : "grazing(s)"));
  BranchEvent current = *event;  // a copy: each step's branch is gone when the next one is born
  std::string stem = stem_of(branch_path);
  for (int step = 0; step < request.cascade; ++step) {
    const bool doubling = request.kind == "PD";
    const int born_periods = doubling ? 2 * periods : periods;
    std::ostringstream from_what;
    from_what << std::setprecision(10) << "the " << (doubling ? "period doubling" : "grazing") << " at " << parameter
              << " = " << current.parameter;
    const BranchFollower follow = request.method == "arclength" ? continue_by_arclength : continue_periodic_orbit;
    const ContinuationSettings settings = steps_for_range({}, current.parameter, request.to, request.steps);
    Branch born = doubling
                      ? continue_doubled_branch(*spec.model, values, parameter, current, request.to, settings, follow)
                      : continue_impacting_branch(*spec.model, values, parameter, current, request.to, settings, follow);
    check_branch_admissibility(*spec.model, values, parameter, born_periods, born);
    if (born.points.empty()) {
      if (step == 0) throw std::runtime_error("--switch " + name + ": " + born.end);
      std::cout << "cascade stopped after period " << periods << ": at " << from_what.str() << ": " << born.end << "\n";
      return;
    }
    stem += "." + (step == 0 ? std::string(doubling ? "pd" : "g") + std::to_string(request.at) : std::string("pd1"));
    const std::string path = stem + ".branch.h5";
    write_branch_file(path, spec, parameter, born.points.front().parameter, request.to, born_periods, born);
    report(born, parameter, born_periods, from_what.str(), path);
    periods = born_periods;
    if (step + 1 == request.cascade) return;
    const BranchEvent* next = nth_event(born, "period_doubling", 1, seen);
    if (!next) {
      std::cout << std::setprecision(10) << "cascade stopped after period " << periods << ": its branch has no period "
                << "doubling between " << parameter << " = " << born.points.front().parameter << " and "
                << born.points.back().parameter << " (" << born.end << ")\n";
      return;
    }
    current = *next;
  }
}

}  // namespace vibro::cli
