#pragma once
// Global continuation over a finished sweep (analysis/attractor_continuation): the parameter points
// along analysis.global_continuation form lines (one per combination of the other parameter axes);
// the attractors of each line are matched from point to point (analysis.match_by: by distance, or by
// the initial conditions their basins share, /cases/attractor). A pass over the per-point summaries
// and labels, after every rank's cases are in: the answer does not depend on how the points were spread.
#include <vector>

#include "analysis/attractor_continuation.hpp"
#include "jobs/output/sweep_attractors.hpp"

namespace vibro {

struct SweepContinuation {
  std::vector<std::vector<int>> ids;   // per parameter point, per label within it: the global id
  std::vector<AttractorEvent> events;  // point: the flattened parameter point where it is first seen
  int count = 0;                       // ids are 0 .. count-1, unique over the whole sweep
};

// The parameter points of each line along analysis.global_continuation, in axis order (C order over
// the parameter axes); none without it.
std::vector<std::vector<long long>> continuation_lines(const SweepSpec& spec, const SweepAttractors& attractors);

// Empty (no ids) when the sweep has no analysis.global_continuation.
SweepContinuation continue_sweep_attractors(const SweepSpec& spec, const SweepAttractors& attractors);

}  // namespace vibro
