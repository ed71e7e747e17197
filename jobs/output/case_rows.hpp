#pragma once
// The per-case columns every sweep file has (/cases status, class, periods, timings, observables and
// both counter tables; docs/hdf5_schema.md) for one block of consecutive cases, column by column: the
// shape the file takes them in. Rows are set one case at a time, from any thread (each row its own
// slot), so that a run can fill a block as its cases finish and the file need never hold, copy or
// decode whole case results. The columns live on huge pages and keep their memory when the block is
// resized for the next cases: on a paravirtualised VM a fresh 4-KB page costs microseconds to touch,
// and a 10^6-case run fills some fifteen blocks of 65536 rows.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/huge_pages.hpp"
#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/summary_case.hpp"

namespace vibro {

template <class T>
using RowColumn = std::vector<T, HugePageAllocator<T>>;

struct CaseRows {
  // Room for `cases` rows of `observables` observables each; rows keep their last values until set.
  void resize(std::size_t cases, std::size_t observables);
  // Row `row` from case result `c`. Thread-safe across rows.
  void set(std::size_t row, const CaseResult& c);
  // The same from a case finished as a summary (the row its CaseResult, record_summary_case, sets).
  void set(std::size_t row, const SummaryCase& c);
  std::size_t size() const { return status.size(); }

  // Sets counter k of every row to -1 where the case has no such counter (it did not run, or its
  // layout has fewer), as the file's fill value says, for k < count; then counter_column(k) is the
  // file's column. Once all rows are set.
  void fill_missing_counters(std::size_t count);
  const std::int64_t* counter_column(std::size_t k) const { return counters_.get() + k * counter_rows_; }
  const std::int64_t* window_counter_column(std::size_t k) const { return window_counters_.get() + k * counter_rows_; }
  // Observable o of every row (NaN where a case has none).
  const double* observable_column(std::size_t o) const { return observables.data() + o * size(); }

  RowColumn<std::int8_t> status, periodicity, stopped_early;
  RowColumn<std::int32_t> period, periods_run, window_periods, jumps;
  RowColumn<double> wall_seconds;
  RowColumn<std::string> class_code, reason;
  RowColumn<double> observables;  // observable-major: observables[o * size() + row]

 private:
  void set_counters(std::size_t row, const std::int64_t* whole, const std::int64_t* window, std::size_t count);

  // Counters column by column, kMaxCounters columns in each table (column k at k * counter_rows_),
  // and how many a row has (layouts differ in length): the tables are allocated and never filled, so
  // the columns no layout uses are never touched (two vectors a row cost two heap blocks a case).
  struct Free {
    void operator()(std::int64_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::int64_t[], Free> counters_, window_counters_;
  RowColumn<std::uint8_t> counter_count_;
  std::size_t counter_rows_ = 0;  // the tables' column length
  std::size_t observable_count_ = 0;
};

}  // namespace vibro
