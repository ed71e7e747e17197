#pragma once
// A sweep's file written while the sweep runs. Every finished case goes on to the next sink (the
// checkpoint log, which a resumed run reads) and into its block's CaseRows; a writer thread of its
// own writes each block into /cases, in case order, once its last case is in. When the sweep's last
// case finishes, only the last blocks and the file's closing parts are left, where a file written
// from the logs after the sweep read and decoded every case again (on the 10^6-case conveyor map,
// 2 threads, about a second).
//
// For a fresh run (no checkpoint log found at its start) on one rank, of a sweep whose file needs no
// case read back and no data beyond CaseRows (no stored stroboscopic points, so no attractors or
// extension; no Floquet multipliers, shooting or Lyapunov exponents) and whose cases finish close
// to case order (no continuation axis): applies() says so, and output.stream_cases may turn it off.
// Otherwise the file is written from the logs after the sweep. The file is the same either way.
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "jobs/output/case_rows.hpp"
#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_builder.hpp"
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

class StreamedSweepFile : public CaseSink {
 public:
  // `fresh`: no checkpoint log of the output existed when the run started.
  static bool applies(const SweepSpec& spec, int ranks, bool fresh);

  // Starts the file (spec.output_file's temporary name) and its writer. `next` receives every case
  // first, while the sweep runs.
  StreamedSweepFile(const SweepSpec& spec, CaseSink& next);
  ~StreamedSweepFile() override;  // stops the writer; a file not finished is removed
  StreamedSweepFile(const StreamedSweepFile&) = delete;
  StreamedSweepFile& operator=(const StreamedSweepFile&) = delete;

  void finished(long long index, const CaseResult& result) override;  // thread-safe
  bool takes_summaries() const override { return next_.takes_summaries(); }
  void finished_summaries(const SummaryCase* cases, std::size_t count) override;  // thread-safe

  // Once every case has finished: writes the blocks left and the rest of the file, and renames it to
  // its name. Throws std::runtime_error naming the file when a write failed, now or while the sweep
  // ran (the checkpoint log still holds every case: the run can be resumed).
  SweepCensus finish(const Provenance& provenance);

 private:
  struct Block {
    long long first = 0;
    CaseRows rows;
    std::atomic<std::size_t> filled{0};
  };
  Block* block_of(long long block);  // made (or reused) at its first case
  void add_filled(Block& block, std::size_t rows);  // rows of it were set: wakes the writer when it is full
  void write_loop();
  bool complete(long long block) const;  // under mutex_

  const SweepSpec& spec_;
  CaseSink& next_;
  const long long cases_, block_cases_, blocks_;
  h5::AtomicFile file_;
  std::optional<SweepFileBuilder> builder_;
  std::map<long long, std::unique_ptr<Block>> pending_;  // blocks with cases in them, not yet written
  std::vector<std::unique_ptr<Block>> spare_;             // written blocks, their memory kept for reuse
  std::mutex mutex_;
  std::condition_variable changed_;
  long long written_ = 0;  // blocks written so far (the writer's next)
  bool no_more_ = false;   // every case is in: the writer writes what is complete and stops
  bool abandon_ = false;   // the run stops without a file: the writer stops at once
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
  std::thread writer_;
};

}  // namespace vibro
