#pragma once
// Builds a sweep's HDF5 file (docs/hdf5_schema.md): the /cases columns block by block, then the rest.
#include <H5Cpp.h>

#include <string>
#include <vector>

#include "jobs/output/case_columns.hpp"
#include "jobs/output/case_rows.hpp"
#include "jobs/output/sweep_file_writer.hpp"
#include "jobs/output/unsettled_extension.hpp"
#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// A sweep file in the making, at `path` (a temporary name: AtomicFile): /cases filled a block of
// cases at a time in case order, the rest once every case is in. write_sweep_file drives it from a
// store; a run that fills the file as its cases finish (streamed_sweep_file.hpp) drives it itself.
class SweepFileBuilder {
 public:
  // `block_rows`: the rows each write() brings, in order from row 0 (the last block may be shorter).
  SweepFileBuilder(const std::string& path, const SweepSpec& spec, long long block_rows);
  SweepFileBuilder(const SweepFileBuilder&) = delete;
  SweepFileBuilder& operator=(const SweepFileBuilder&) = delete;
  // Whether blocks need their cases' results too (write_results): see CaseColumns::needs_results.
  bool needs_results() const { return columns_.needs_results(); }
  void write(hsize_t first, CaseRows& rows) { columns_.write(first, rows); }
  void write_results(hsize_t first, const std::vector<CaseResult>& block) { columns_.write_results(first, block); }
  // Hands what HDF5 holds in its caches (whole chunks written, headers) to the file now, so that
  // closing it has little left to write.
  void flush() { file_.flush(H5F_SCOPE_LOCAL); }
  // The rest of the file: provenance and settings, /parameters and /axes, the string columns,
  // attractor labels and basins (read from `store`; a sweep without stored stroboscopic points has
  // none and needs no store), the grid view. Returns what it holds. The file is closed when the
  // builder is destroyed.
  SweepCensus finish(const Provenance& provenance, CaseStore* store, const UnsettledExtension& extension = {});

 private:
  const SweepSpec& spec_;
  H5::H5File file_;
  CaseColumns columns_;
};

// The threads that read a sweep's cases for its file and label its attractors: run.threads.
int file_threads(const SweepSpec& spec);

}  // namespace vibro
