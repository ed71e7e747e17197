#pragma once
// Runs one case to its steady state: start the model, feed its stroboscopic samples to the
// steady-state detector, let the model read the result. Exceptions become a recorded status.
#include <exception>

#include "analysis/steady_state.hpp"
#include "engine/batch/held_summary.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/core/model.hpp"
#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/summary_case.hpp"

namespace vibro {

// warm_start: a final state of another case to start from (continuation); nullptr: the model's own
// initial condition.
// What to compute beyond the steady state, where the model can: the Floquet multipliers of a
// converged periodic orbit, and the Lyapunov exponents over this many periods (0: none).
// limits bound the whole case, extras included (engine/core/case_budget.hpp).
struct CaseExtras {
  bool floquet = false;
  bool shooting = false;  // Newton shooting from the last sample for the detected period
  int lyapunov_periods = 0;
  CaseLimits limits{};
};

CaseResult run_case(const Model& model, const ParameterSet& values, const SteadyStateSettings& settings,
                    StrobePoints strobe_points, const StrobeSample* warm_start = nullptr, CaseExtras extras = {});

// The parts of a result shared by the one-case and the batched runners: what the detector found once
// the case stopped (status Ok, classes, observables, counters, window), and an exception's status.
SteadyState record_steady_state(const Model& model, const ParameterSet& values, const StrobeLayout& layout,
                                SteadyStateDetector& detector, StrobePoints strobe_points, CaseResult& result);
// The same from a window already classified (classify_window): a runner that holds a fixed-length
// run's samples reads its window straight from them, without a detector. `periods_run`: the samples
// the case's detector would have seen; `jumps`: its accelerated transients.
void record_classified_window(const Model& model, const ParameterSet& values, const StrobeLayout& layout,
                              const SteadyState& steady, int periods_run, int jumps, StrobePoints strobe_points,
                              CaseResult& result);
// The same from a window the batch reduced itself (CaseBatch::reduce_held): its summary, its first
// and last samples, its length in periods. Stroboscopic points need the whole window: none here.
// (make_summary_case and record_summary_case, summary_case.hpp, with the final state added.)
void record_held_summary(const HeldSummary& summary, const StrobeLayout& layout, const StrobeSample& first,
                         const StrobeSample& last, int window_periods, int periods_run, CaseResult& result);
void record_case_exception(std::exception_ptr error, CaseResult& result);

}  // namespace vibro
