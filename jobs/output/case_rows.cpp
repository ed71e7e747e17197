#include "jobs/output/case_rows.hpp"

#include <algorithm>
#include <cmath>

namespace vibro {

void CaseRows::resize(std::size_t cases, std::size_t observables_per_case) {
  observable_count_ = observables_per_case;
  status.resize(cases);
  periodicity.resize(cases);
  stopped_early.resize(cases);
  period.resize(cases);
  periods_run.resize(cases);
  window_periods.resize(cases);
  jumps.resize(cases);
  wall_seconds.resize(cases);
  class_code.resize(cases);
  reason.resize(cases);
  observables.resize(cases * observables_per_case);
  counter_count_.resize(cases);
  if (counter_rows_ != cases) {
    const std::size_t bytes = kMaxCounters * cases * sizeof(std::int64_t);
    counters_.reset(static_cast<std::int64_t*>(allocate_on_huge_pages(bytes)));  // not filled: see the header
    window_counters_.reset(static_cast<std::int64_t*>(allocate_on_huge_pages(bytes)));
    counter_rows_ = cases;
  }
}

void CaseRows::set_counters(std::size_t row, const std::int64_t* whole, const std::int64_t* window, std::size_t count) {
  count = std::min<std::size_t>(count, kMaxCounters);
  counter_count_[row] = static_cast<std::uint8_t>(count);
  for (std::size_t k = 0; k < count; ++k) {
    counters_[k * counter_rows_ + row] = whole[k];
    window_counters_[k * counter_rows_ + row] = window[k];
  }
}

void CaseRows::set(std::size_t row, const CaseResult& c) {
  status[row] = static_cast<std::int8_t>(c.status);
  periodicity[row] = static_cast<std::int8_t>(c.periodicity);
  stopped_early[row] = static_cast<std::int8_t>(c.stopped_early);
  period[row] = c.period;
  periods_run[row] = c.periods_run;
  window_periods[row] = c.window_periods;
  jumps[row] = c.jumps;
  wall_seconds[row] = c.wall_seconds;
  class_code[row] = c.class_code;
  reason[row] = c.reason;
  for (std::size_t o = 0; o < observable_count_; ++o)
    observables[o * size() + row] = o < c.observables.size() ? c.observables[o] : std::nan("");
  // A result's two tables have one length where it ran; where it did not, both are empty.
  set_counters(row, c.counters.data(), c.window_counters.data(), std::min(c.counters.size(), c.window_counters.size()));
}

void CaseRows::set(std::size_t row, const SummaryCase& c) {
  status[row] = static_cast<std::int8_t>(CaseStatus::Ok);
  periodicity[row] = static_cast<std::int8_t>(c.summary.periodicity);
  stopped_early[row] = 0;
  period[row] = c.summary.period;
  periods_run[row] = c.periods_run;
  window_periods[row] = c.window_periods;
  jumps[row] = 0;
  wall_seconds[row] = c.wall_seconds;
  class_code[row] = c.class_code();
  reason[row].clear();
  for (std::size_t o = 0; o < observable_count_; ++o)
    observables[o * size() + row] =
        o < static_cast<std::size_t>(c.summary.observable_count) ? c.summary.observables[o] : std::nan("");
  set_counters(row, c.counters, c.window_counters, static_cast<std::size_t>(c.counter_count));
}

void CaseRows::fill_missing_counters(std::size_t count) {
  count = std::min<std::size_t>(count, kMaxCounters);
  const std::size_t n = size();
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t row = 0; row < n; ++row)
      if (k >= counter_count_[row]) {
        counters_[k * counter_rows_ + row] = -1;
        window_counters_[k * counter_rows_ + row] = -1;
      }
}

}  // namespace vibro
