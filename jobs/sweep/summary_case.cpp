#include "jobs/sweep/summary_case.hpp"

#include <algorithm>

namespace vibro {

void make_summary_case(long long index, const HeldSummary& summary, const StrobeLayout& layout,
                       const StrobeSample& first, const StrobeSample& last, int window_periods, int periods_run,
                       double wall_seconds, SummaryCase& out) {
  out.index = index;
  out.summary = summary;
  out.window_periods = window_periods;
  out.periods_run = periods_run;
  out.wall_seconds = wall_seconds;
  out.counter_count = static_cast<int>(std::min<std::size_t>(layout.counter_names.size(), kMaxCounters));
  for (int c = 0; c < out.counter_count; ++c) {
    out.counters[c] = last.counters[static_cast<std::size_t>(c)];
    out.window_counters[c] = last.counters[static_cast<std::size_t>(c)] - first.counters[static_cast<std::size_t>(c)];
  }
}

void record_summary_case(const SummaryCase& s, CaseResult& result) {
  result.periods_run = s.periods_run;
  result.jumps = 0;
  result.status = CaseStatus::Ok;
  result.class_code = s.class_code();
  result.observables.assign(s.summary.observables, s.summary.observables + s.summary.observable_count);
  result.periodicity = static_cast<Periodicity>(s.summary.periodicity);
  result.period = s.summary.period;
  result.stopped_early = false;
  result.window_periods = s.window_periods;
  result.wall_seconds = s.wall_seconds;
  result.counters.assign(s.counters, s.counters + s.counter_count);
  result.window_counters.assign(s.window_counters, s.window_counters + s.counter_count);
}

}  // namespace vibro
