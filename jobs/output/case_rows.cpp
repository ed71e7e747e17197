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

std::int64_t CaseRows::counter_at(const std::vector<std::vector<std::int64_t>>& table, std::size_t k,
                                  std::size_t row) const {
  const std::vector<std::int64_t>& own = table[row];
  return k < own.size() ? own[k] : std::int64_t{-1};
}

}  // namespace vibro
