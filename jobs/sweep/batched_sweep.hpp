#pragma once
// run.backend = batched | cuda: the sweep's cases stepped many at a time through the model's
// host-and-device kernel (engine/batch), K periods per launch. Between launches every live case's
// samples go to its own steady-state detector (the one-case runner's, on OpenMP threads); converged
// cases retire and the rest go on, so the results, checkpoints and HDF5 file are those of
// run.backend = cpu (bit for bit on the CPU batch).
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

// Periods every live case advances per launch (run.batch_periods' default): short enough that a
// converged case stops soon after its detector says so, long enough that a launch amortises the
// detectors' pass.
inline constexpr int kBatchPeriods = 8;
// Fixed mode too, although its detectors decide nothing before the budget: one 100-period launch of
// the 10^6-case map took 8.1 s on an H200, against 4.5 s for all its 8-period launches on an H100
// (bench/README.md; not yet compared on one machine; a likely cause, not yet measured: a warp's lanes
// drift apart in phase, and a launch's end brings them back; cmake -DVIBRO_CUDA_WARP_SYNC=ON brings
// them back every period instead).
// Cases stepped together (run.batch_cases' defaults): bounds the detectors' memory (each holds its history span packed, some
// 7 KB a case on the conveyor's Fig. 6 study). On CPU threads, 1024 a thread: a thread's detectors then
// stay near its share of the cache (on 2 threads, groups of 2048 against 16384: the conveyor's 10^5-case
// map 7 % faster fixed, 11 % adaptive, peak memory 135 against 398 MiB; bench/README.md). A GPU needs
// far more threads than CPU cores to be busy (an H100 keeps up to 270,336 resident), so its groups are
// larger.
inline constexpr int kBatchCasesPerThread = 1024;
inline constexpr int kCudaBatchCases = 131072;
// Groups in flight at once: while a GPU steps one, the host's threads feed the other's samples to its
// detectors (or set up its cases), so neither waits for the other. A CPU batch's launch returns when
// it is done (no overlap to gain), but it runs the same interleaving, which CI thereby tests.
inline constexpr int kGroupsInFlight = 2;

// Why this process cannot run `spec` on its back end now ("" when it can): run.backend = cuda needs a
// usable GPU here (parsing checked only the build). Checked before a run creates its checkpoint, so
// that a refused run leaves nothing behind.
std::string backend_device_problem(const SweepSpec& spec);

// compute_sweep for a spec whose backend is not cpu (same contract).
SweepTally compute_sweep_batched(const SweepSpec& spec, CaseSink& sink, bool show_progress, UnitSource& units,
                                 const CompletedCases& completed);

}  // namespace vibro
