#pragma once
// A fixed-length run's steady state read straight from a batch's held row (CaseBatch::hold_samples):
// the window a SteadyStateDetector fed that row would classify, the same bits, without the detector.
// Why: fed once at the end, a detector only copies the row into its packed history and unpacks its
// newest samples again; on the conveyor's 10^6-case map that was a detector made and freed and 50
// history pushes a case, some 15 % of the host's time on the null back end.
#include "analysis/steady_state.hpp"
#include "engine/batch/case_batch.hpp"

namespace vibro {

// Whether a held row of `row` samples after `skipped` unsampled periods reaches a fixed-mode budget
// (a detector fed it would stop at its last sample it needs): classify_held_row can read it.
bool row_reaches_budget(int skipped, int row, const SteadyStateSettings& settings);

// Where the window lies in every held row of a run that skipped `skipped` leading periods, and the
// tests' settings: what a batch that reduces its rows itself needs (CaseBatch::reduce_held). No
// samples (samples 0) when the settings' window is empty.
HeldWindow held_window(int skipped, const SteadyStateSettings& settings);

// Case `slot`'s window from its held row of `row` samples, after `skipped` leading periods stepped
// without samples, into `steady` (its window resized, reused from call to call; then classified).
// Returns the periods the detector would have seen (its samples_seen). The row must reach the budget.
int classify_held_row(const CaseBatch& batch, int slot, int skipped, int row, const StrobeLayout& layout,
                      const SteadyStateSettings& settings, SteadyState& steady);

}  // namespace vibro
