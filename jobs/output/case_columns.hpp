#pragma once
// The per-case datasets of a sweep file's /cases (docs/hdf5_schema.md), filled a block of cases at a
// time in case order: one column per scalar result, counters, observables (from CaseRows), and the
// optional Floquet, shooting, Lyapunov and stroboscopic-point datasets (from the cases' results).
// The string columns (class, reason) are written last, as wide as their longest entry: the
// columns can be filled while the sweep runs, before its longest class code is known.
#include <H5Cpp.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "jobs/output/sweep_attractors.hpp"
#include "jobs/output/sweep_continuation.hpp"
#include "jobs/output/case_rows.hpp"
#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_writer.hpp"
#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

class CaseColumns {
 public:
  // `block_rows`: the rows each write() brings, from row 0 (the columns it writes skip HDF5's chunk
  // cache where that fills whole chunks: h5::ChunkCache).
  CaseColumns(H5::H5File& file, const SweepSpec& spec, long long block_rows);
  // Whether the sweep's file has datasets that CaseRows does not hold (Floquet multipliers, shooting,
  // Lyapunov exponents, stroboscopic points): their blocks need write_results too.
  bool needs_results() const;
  // Writes a block's rows (cases first, first + 1, ...); blocks come in case order.
  void write(hsize_t first, CaseRows& rows);  // fills the rows' missing counters (CaseRows::fill_missing_counters)
  // Writes the same block's datasets beyond CaseRows from its cases' results (needs_results()).
  void write_results(hsize_t first, const std::vector<CaseResult>& block);
  // The columns known only once every case is written: the string columns, attractor labels and
  // global ids.
  void finish(const SweepAttractors& attractors, const SweepContinuation& continuation);
  // The cases written, per status and per class.
  SweepCensus census() const;

 private:
  // Counter and state names come from the layout of the first case that ran: cases before it have
  // no counters, which the datasets' fill value (-1) records.
  void name_layout(long long i);

  void create_strobe_values();

  // Rows of different lengths, padded with NaN to the widest row so far.
  static void write_padded(H5::DataSet& set, hsize_t first, const std::vector<std::vector<double>>& rows);

  void write_floquet(hsize_t first, const std::vector<CaseResult>& block);

  void write_shooting(hsize_t first, const std::vector<CaseResult>& block);

  void write_strobe(hsize_t first, const std::vector<CaseResult>& block);

  // The class code of each case (from /cases/class_index, read back) and its failure reasons.
  void write_strings();

  // The class codes' numbers in order of first appearance, for a block's rows.
  const std::vector<std::int32_t>& class_numbers(const CaseRows& rows);

  H5::H5File& file_;
  const SweepSpec& spec_;
  const hsize_t n_;
  const h5::ChunkCache rows_cache_;  // of the columns write() fills
  H5::Group cases_, counters_group_, window_counters_group_, strobe_;
  H5::DataSet status_, periodicity_, period_, periods_run_, window_periods_, jumps_, stopped_early_, wall_;
  // /cases/class_index: class codes numbered in order of first appearance (netCDF tools map flags,
  // not strings; written with CF flag attributes in finish()).
  H5::DataSet class_index_;
  std::map<std::string, std::int32_t> class_numbers_;
  std::vector<std::int32_t> class_numbers_scratch_;
  std::vector<std::string> class_codes_;
  std::vector<long long> class_counts_;  // ok cases per class number
  long long status_counts_[4] = {0, 0, 0, 0};
  long long ok_without_class_ = 0;  // ok cases whose model gave no class code
  // Failure and infeasibility reasons by case (few, as a rule), written with the string columns.
  std::vector<std::pair<hsize_t, std::string>> reasons_;
  bool layout_named_ = false;
  std::vector<H5::DataSet> observables_, counters_, window_counters_;
  H5::DataSet floquet_real_, floquet_imag_, floquet_modulus_, lyapunov_, stretch_exponent_, stretch_resets_;
  H5::DataSet shooting_converged_, shooting_residual_, shooting_state_;
  H5::DataSet strobe_values_, drift_, modes_, offsets_;
  bool strobe_values_created_ = false;
  struct StrobeRows {  // one block's stroboscopic rows (write_strobe), kept from block to block
    std::vector<double> values, drift;
    std::vector<std::int8_t> modes;
    std::vector<std::int64_t> offsets;
    // Emptied, with room for `points` rows of `dims` components from `cases` cases.
    void restart(std::size_t points, std::size_t dims, std::size_t cases) {
      values.clear();
      drift.clear();
      modes.clear();
      offsets.clear();
      values.reserve(points * dims);
      drift.reserve(points);
      modes.reserve(points);
      offsets.reserve(cases);
    }
  };
  StrobeRows strobe_rows_;
  std::vector<std::string> counter_names_, state_names_, state_units_;
  std::int64_t points_ = 0;
};

}  // namespace vibro
