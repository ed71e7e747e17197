#pragma once
// The per-case columns every sweep file has (/cases status, class, periods, timings, observables and
// both counter tables; docs/hdf5_schema.md) for one block of consecutive cases, column by column: the
// shape the file takes them in. Rows are set one case at a time, from any thread (each row its own
// slot), so that a run can fill a block as its cases finish and the file need never hold, copy or
// decode whole case results.
#include <cstdint>
#include <string>
#include <vector>

#include "jobs/sweep/case_result.hpp"

namespace vibro {

struct CaseRows {
  // Room for `cases` rows of `observables` observables each; rows keep their last values until set.
  void resize(std::size_t cases, std::size_t observables);
  // Row `row` from case result `c`. Thread-safe across rows.
  void set(std::size_t row, const CaseResult& c);
  std::size_t size() const { return status.size(); }

  // The first `count` counters of every row as columns, over the whole run and over the window, -1
  // where a case has no such counter (it did not run, or its layout has fewer), as the file's fill
  // value says. One pass over the rows: each row's counters lie apart from the others'.
  void counter_columns(std::size_t count, std::vector<std::vector<std::int64_t>>& whole,
                       std::vector<std::vector<std::int64_t>>& window) const;
  // Observable o of row `row` (NaN where the case has none).
  double observable(std::size_t o, std::size_t row) const { return observables[o * size() + row]; }

  std::vector<std::int8_t> status, periodicity, stopped_early;
  std::vector<std::int32_t> period, periods_run, window_periods, jumps;
  std::vector<double> wall_seconds;
  std::vector<std::string> class_code, reason;
  std::vector<double> observables;  // observable-major: observables[o * size() + row]

 private:
  // Counters case by case: layouts differ in length (a table as wide as the most counters any layout
  // may have, kMaxCounters, was mostly padding). A row keeps its vector's memory when set again.
  std::vector<std::vector<std::int64_t>> counters, window_counters;
  std::size_t observable_count_ = 0;
};

}  // namespace vibro
