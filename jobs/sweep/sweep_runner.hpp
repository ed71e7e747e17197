#pragma once
// Runs every case of a sweep over OpenMP threads with dynamic scheduling: case costs differ by
// orders of magnitude (a clean hopping orbit against a chattering one), so static splits idle.
#include <vector>

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/rank_share.hpp"
#include "jobs/sweep/unit_source.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

struct SweepRun {
  std::vector<CaseResult> cases;  // every case of the grid; those of other ranks stay NotRun
  int threads = 1;
  double wall_seconds = 0;
};

// Receives every case as it finishes, from any thread (e.g. the checkpoint log).
class CaseSink {
 public:
  virtual ~CaseSink() = default;
  virtual void finished(long long index, const CaseResult& result) = 0;
};

// Runs the parallel units (cases, or continuation lines) that `source` hands this rank (all of
// them when null) over OpenMP threads. `done` holds results loaded from checkpoints (status !=
// NotRun): those cases are not computed again.
SweepRun run_sweep(const SweepSpec& spec, bool show_progress = true, UnitSource* source = nullptr,
                   std::vector<CaseResult> done = {}, CaseSink* sink = nullptr);

// The number of parallel units of a sweep: its cases, or its continuation lines.
long long parallel_units(const SweepSpec& spec);

}  // namespace vibro
