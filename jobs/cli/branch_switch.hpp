#pragma once
// vibro continue --switch: from a branch (just continued, or read back from its branch file) to the
// branch born at one of its events, written beside it: at the n-th period doubling (PDn) the branch of
// twice the period, OUT.pdn.branch.h5, and with --cascade K from that branch's own first period doubling
// on, K doublings in all (OUT.pdn.pd1.branch.h5, ...); at the n-th grazing (Gn) the branch with more
// impacts born there, OUT.gn.branch.h5.
#include <string>

#include "analysis/continuation_steps.hpp"
#include "analysis/orbit_continuation.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::cli {

struct SwitchRequest {
  std::string kind;  // "PD" (period doubling) or "G" (grazing)
  int at = 0;        // n: the branch's n-th event of that kind
  int cascade = 1;   // period doublings to follow in all (PD only)
  double to = 0;     // where each new branch should end
  std::string method = "natural";  // how each new branch is continued: natural or arclength
  // --step, --max-step; unset: relative to each new branch's own range, from its event to `to`.
  StepRequest steps;
};

// --switch PDn or Gn (n >= 1): InputError naming the option and what is accepted otherwise.
SwitchRequest parse_switch(const std::string& value);

// --cascade K (1 <= K <= 10): InputError otherwise.
int parse_cascade(const std::string& value);

// Switches from `branch` (period `periods`, in `parameter`; its file at `branch_path`, NAME.branch.h5)
// and writes each new branch's file. Throws when the first switch finds no branch; a cascade that meets
// a branch without a period doubling stops there and says so.
void switch_branch(const SweepSpec& spec, const ParameterSet& values, const std::string& parameter, int periods,
                   const Branch& branch, const SwitchRequest& request, const std::string& branch_path);

}  // namespace vibro::cli
