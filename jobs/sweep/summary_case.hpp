#pragma once
// A case finished from the window its batch reduced itself (CaseBatch::held_summary), in a sweep that
// keeps no final states: everything its CaseResult would hold, in one flat record without strings,
// vectors or full samples. A batched run hands such cases to a sink that takes them
// (CaseSink::takes_summaries) a chunk at a time: a CaseResult made, reset and copied a case (1.7 KB
// with its two full samples) was a large share of the host's time beside a GPU's launches.
#include <cstdint>
#include <string_view>

#include "engine/batch/held_summary.hpp"
#include "engine/core/strobe_sample.hpp"
#include "jobs/sweep/case_result.hpp"

namespace vibro {

struct SummaryCase {
  long long index = -1;
  HeldSummary summary;     // class, observables, periodicity, period
  int counter_count = 0;   // the case's layout's counters
  int window_periods = 0;
  int periods_run = 0;
  double wall_seconds = 0;
  std::int64_t counters[kMaxCounters];         // at the window's end (first counter_count set)
  std::int64_t window_counters[kMaxCounters];  // over the window

  std::string_view class_code() const { return {summary.class_code.text, static_cast<std::size_t>(summary.class_code.length)}; }
};

// Case `index` from its reduced window: its summary, the window's first and last samples, the
// window's length and the periods it ran, and its wall time.
void make_summary_case(long long index, const HeldSummary& summary, const StrobeLayout& layout,
                       const StrobeSample& first, const StrobeSample& last, int window_periods, int periods_run,
                       double wall_seconds, SummaryCase& out);

// The same case as a CaseResult, as record_held_summary makes it but without the final state
// (has_final_state false: the sweeps that take summaries keep none).
void record_summary_case(const SummaryCase& s, CaseResult& result);

}  // namespace vibro
