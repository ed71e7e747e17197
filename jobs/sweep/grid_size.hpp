#pragma once
// Whether a sweep's grid fits, from the sizes of its axis expressions alone: checked before any axis
// is built, so a grid too large is refused with a message instead of exhausting memory first.
#include <vector>

#include "jobs/sweep/axis.hpp"

namespace vibro {

struct GridEstimate {
  double cases = 1;
  double bytes = 0;  // memory a rank needs for the grid: its axes and the per-case index
};

// continuation: a continuation sweep also keeps the final state of every case it resumes past.
GridEstimate estimate_grid(const std::vector<AxisPlan>& axes, bool continuation);

// Throws InputError naming every axis with its size, the estimate and the limit.
void check_grid_size(const std::vector<AxisPlan>& axes, bool continuation, double memory_limit_bytes);

// The memory a grid may take: half of this machine's physical memory (sysconf), at most 16 GB
// (the index of a case is 8 bytes plus its flags; 1e9 cases is more than one file should hold).
double grid_memory_limit();

}  // namespace vibro
