#pragma once
// The per-case columns every sweep file has (/cases status, class, periods, timings, observables and
// both counter tables; docs/hdf5_schema.md) for one block of consecutive cases, column by column: the
// shape the file takes them in. Rows are set one case at a time, from any thread (each row its own
// slot), so that a run can fill a block as its cases finish and the file need never hold, copy or
// decode whole case results.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/summary_case.hpp"

namespace vibro {

struct CaseRows {
  // Room for `cases` rows of `observables` observables each; rows keep their last values until set.
  void resize(std::size_t cases, std::size_t observables);
  // Row `row` from case result `c`. Thread-safe across rows.
  void set(std::size_t row, const CaseResult& c);
  // The same from a case finished as a summary (the row its CaseResult, record_summary_case, sets).
  void set(std::size_t row, const SummaryCase& c);
  std::size_t size() const { return status.size(); }

  // The first `count` counters of every row as columns, over the whole run and over the window, -1
  // where a case has no such counter (it did not run, or its layout has fewer), as the file's fill
  // value says.
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
  void set_counters(std::size_t row, const std::int64_t* whole, const std::int64_t* window, std::size_t count);

  // Counters column by column, kMaxCounters columns of each table, and how many a row has (layouts
  // differ in length): a column's memory is allocated and never filled, so the columns no layout
  // uses are never touched (two vectors a row cost two heap blocks a case).
  using CounterColumn = std::unique_ptr<std::int64_t[]>;
  std::array<CounterColumn, kMaxCounters> counters_, window_counters_;
  std::vector<std::uint8_t> counter_count_;
  std::size_t counter_rows_ = 0;  // the columns' length
  std::size_t observable_count_ = 0;
};

}  // namespace vibro
