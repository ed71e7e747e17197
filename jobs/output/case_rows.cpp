#include "jobs/output/case_rows.hpp"

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
  counters.resize(cases);
  window_counters.resize(cases);
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
  counters[row] = c.counters;
  window_counters[row] = c.window_counters;
}

void CaseRows::counter_columns(std::size_t count, std::vector<std::vector<std::int64_t>>& whole,
                               std::vector<std::vector<std::int64_t>>& window) const {
  const std::size_t n = size();
  whole.assign(count, std::vector<std::int64_t>(n));
  window.assign(count, std::vector<std::int64_t>(n));
  for (std::size_t row = 0; row < n; ++row) {
    const std::vector<std::int64_t>& own = counters[row];
    const std::vector<std::int64_t>& own_window = window_counters[row];
    for (std::size_t k = 0; k < count; ++k) {
      whole[k][row] = k < own.size() ? own[k] : std::int64_t{-1};
      window[k][row] = k < own_window.size() ? own_window[k] : std::int64_t{-1};
    }
  }
}

}  // namespace vibro
