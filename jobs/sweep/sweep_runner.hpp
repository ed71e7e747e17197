#pragma once
// Runs every case of a sweep over OpenMP threads with dynamic scheduling: case costs differ by
// orders of magnitude (a clean hopping orbit against a chattering one), so static splits idle.
// Results stream to a sink as they finish (the checkpoint log of a real run): nothing is held per
// case, so memory does not grow with the grid.
#include <optional>
#include <unordered_map>
#include <vector>

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/rank_share.hpp"
#include "jobs/sweep/summary_case.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "jobs/sweep/unit_source.hpp"

namespace vibro {

// Receives every case as it finishes, from any thread (e.g. the checkpoint log).
class CaseSink {
 public:
  virtual ~CaseSink() = default;
  virtual void finished(long long index, const CaseResult& result) = 0;
  // Whether this sink takes cases finished as summaries (summary_case.hpp) through
  // finished_summaries; a batched run hands them over that way only then.
  virtual bool takes_summaries() const { return false; }
  // `count` cases finished as summaries, from any thread. By default each goes to finished() as its
  // CaseResult (record_summary_case).
  virtual void finished_summaries(const SummaryCase* cases, std::size_t count);
};

// Cases an earlier run already computed (loaded from its checkpoints): they are not computed again.
// A continuation line resumed in its middle restarts from the final state of its last done case.
struct CompletedCases {
  std::vector<bool> done;                                  // per case; empty: none
  std::unordered_map<long long, StrobeSample> final_state;  // continuation sweeps: done cases' final states
  bool has(long long i) const { return !done.empty() && done[static_cast<std::size_t>(i)]; }
};

struct SweepTally {
  long long computed = 0;  // cases this rank computed
  long long failed = 0;
  int threads = 1;
  double wall_seconds = 0;
  // Batched back ends only: where the host's wall time went (adding cases and their detectors; the
  // launches: stepping the cases on CPU threads, or queueing a GPU's launch and waiting for it; the
  // detectors' pass, with the finished cases handed to the sink), and on a GPU what the device spent
  // on the launches, kernels and transfers (cudaEvent timing, summed over the groups in flight: their
  // spans may overlap each other and the host's phases).
  struct BatchedPhases {
    int groups = 0;
    int launches = 0;
    double setup_seconds = 0, advance_seconds = 0, detect_seconds = 0;
    // The set-up's parts: the cases' parameter sets, making the cases into their batch, their
    // detectors; and the set-up of each batch's first group (its host memory is fresh: pages touched
    // for the first time; a GPU batch allocates its device buffers at its first launch, not here).
    double parameters_seconds = 0, cases_seconds = 0, detectors_seconds = 0, first_groups_seconds = 0;
    double device_seconds = -1;  // negative: no device clock (CPU threads)
    long long reduced = 0;       // cases whose window the batch reduced itself (CaseBatch::reduce_held)
  };
  std::optional<BatchedPhases> batched;
};

// Runs the parallel units (cases, or continuation lines) that `source` hands this rank (all of
// them when null) over OpenMP threads, handing every computed case to `sink`.
SweepTally compute_sweep(const SweepSpec& spec, CaseSink& sink, bool show_progress = false,
                         UnitSource* source = nullptr, const CompletedCases& completed = {});

// A whole sweep on this process with its results in memory: for tests and small in-process studies.
struct SweepRun {
  std::vector<CaseResult> cases;
  int threads = 1;
  double wall_seconds = 0;
};
SweepRun run_sweep(const SweepSpec& spec);

// The number of parallel units of a sweep: its cases, or its continuation lines.
long long parallel_units(const SweepSpec& spec);

}  // namespace vibro
