#pragma once
// Checkpoints of a running sweep: every rank appends its finished cases to its own log file,
// OUT.h5.ckpt.<rank>, in batches flushed to disk every few seconds. Every batch is framed by a sync
// marker, the log's run id (random, from its header), its length and a checksum over all three and
// the payload: a killed run (kill -9 included) leaves a torn tail that is dropped, a damaged batch
// drops only itself (the reader resyncs at the next marker), and a batch from another log
// (concatenated or spliced logs) is ignored by its run id. A rerun of the same sweep (or
// `vibro run --resume OUT.h5`) loads every flushed case and computes only the rest. A log made by a
// different sweep is refused, naming the first setting that differs; a file that is not a vibro log
// is never read, truncated or deleted. The logs are also the store the HDF5 file is written from
// (checkpoint_index.hpp).
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/huge_pages.hpp"
#include "engine/core/input_error.hpp"
#include "jobs/output/mapped_file.hpp"
#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/case_result_codec.hpp"
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

struct CheckpointHeader {
  std::string fingerprint;  // SweepSpec::fingerprint() of the sweep that wrote it
  std::string source_name;  // the sweep file's name
  std::string sweep_text;   // the sweep file's text, as read
  std::vector<std::string> overrides;
  std::string settings;     // SweepSpec::result_settings(): the fingerprinted key = value lines
  std::uint64_t run_id = 0; // set by the writer (random) and the reader; frames every batch of the log
};

// A file at a checkpoint's name that is not a vibro checkpoint log of this version (bad magic, or a
// header that does not read back): never read, truncated or deleted.
class ForeignCheckpoint : public InputError {
 public:
  using InputError::InputError;
};

// Throws InputError naming `path` and the first result-changing setting that differs between the
// log's header and this sweep (or the fingerprint, for a log without settings).
void require_same_sweep(const CheckpointHeader& header, const std::string& fingerprint, const std::string& settings,
                        const std::string& path);

// Appends finished cases to a log. Computing threads only encode into their own buffer (no shared
// lock, no disk): a writer thread of its own collects the buffers every flush interval, or sooner
// when they grow large, and writes them as one batch. Batches are synced to disk once the log is one
// flush interval old (or holds 256 MB unsynced), each as it is written: a run that ends within its
// first interval never waits for the disk (a kill loses nothing written, only a crash of the machine
// would), and a completed run's log, about to be read and removed, need not be synced at all
// (skip_sync_at_close).
//
// `hurry`, if given, is polled every kHurryPollSeconds; once it returns true (a stop signal: under
// mpirun the ranks get SIGKILL 1 s after its SIGTERM, whatever they are computing), what is pending is
// written at once and from then on every case as soon as it is finished.
//
// `final_states`: whether records keep each case's final state (SweepSpec::keeps_final_states; a
// 10^6-case map without stored stroboscopic points wrote a third of its log for states never read).
class CheckpointWriter : public CaseSink {
 public:
  static constexpr double kHurryPollSeconds = 0.02;
  CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds,
                   std::function<bool()> hurry = {}, FinalState final_states = FinalState::Kept);
  ~CheckpointWriter() override;  // writes what is left
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;
  void finished(long long index, const CaseResult& result) override;  // thread-safe; never waits on the disk
  // Summaries are taken where the records keep no final state (a summary has none).
  bool takes_summaries() const override { return final_states_ == FinalState::Dropped; }
  void finished_summaries(const SummaryCase* cases, std::size_t count) override;  // as finished()
  void flush();  // every case finished so far, on disk now
  // The log will be read and removed right after it is closed (the run completed): closing writes
  // what is left without syncing it. Unsynced, the blocks of a short run's log were never allocated
  // on disk: deleting a synced 95 MB log slept 0.04 s of a 0.75 s run, an unsynced one a few ms.
  void skip_sync_at_close() { sync_at_close_ = false; }

 private:
  // Runs encode(bytes) on the calling thread's buffer, under its lock, and wakes the writer when
  // the buffers have grown large or a stop is near.
  template <class Encode>
  void encode_into_slot(Encode encode);
  // One buffer per computing thread (numbered by first arrival; beyond kSlots threads share, then its
  // mutex counts).
  // On huge pages: the buffers take the whole log's bytes in turn (97 bytes a case), and their fresh
  // 4-KB pages were most of the page faults of a 10^6-case run.
  using SlotBytes = std::vector<char, HugePageAllocator<char>>;
  struct alignas(64) Slot {
    std::mutex mutex;
    SlotBytes bytes;
  };
  static constexpr std::size_t kSlots = 64;
  void write_loop();
  // Appends every slot's bytes as one checksummed record, synced to disk as `sync` says (WhenDue:
  // once the log is a flush interval old); one batch at a time.
  enum class Sync { Never, WhenDue, Now };
  void write_pending(Sync sync);
  std::FILE* file_ = nullptr;
  std::string path_;
  std::uint64_t run_id_ = 0;
  double flush_seconds_;
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  bool sync_at_close_ = true;
  std::uint64_t unsynced_bytes_ = 0;  // written since the last sync (file_mutex_)
  FinalState final_states_;
  std::array<Slot, kSlots> slots_;
  std::array<SlotBytes, kSlots> outgoing_;  // the writer's side of each slot (file_mutex_)
  std::atomic<long long> pending_bytes_{0};  // approximate: adds and collections race harmlessly
  std::mutex file_mutex_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stop_ = false, urgent_ = false;
  std::function<bool()> hurry_;
  std::atomic<bool> hurrying_{false};
  std::thread writer_;
};

// The existing checkpoint logs of an output file, OUT.h5.ckpt.<rank>, in rank order (anything at
// such a name, links and folders included: opening them refuses what is not a regular file).
std::vector<std::string> checkpoint_files(const std::string& output_file);
// Throws ForeignCheckpoint when the file is not a vibro checkpoint, InputError when it is a link, a
// FIFO, a folder or cannot be read.
CheckpointHeader read_checkpoint_header(const std::string& path);

struct CheckpointScan {
  std::uint64_t end = 0;   // the end of the last intact batch of this log's run (where appending resumes)
  int damaged = 0;         // stretches of damaged or torn bytes skipped (each loses the batch it held)
  int foreign = 0;         // intact batches of another run (another log's id), ignored
};

// A log's bytes, mapped read-only (never through a link, never blocking on a FIFO). Throws
// InputError naming the file when it cannot be opened or mapped.
MappedFile map_checkpoint(const std::string& path);

// What a scan hands over of each intact batch of the log's own run: its payload (inside the mapping)
// and the file offset of the payload's first byte. Returns false to stop the scan.
using BatchReader = std::function<bool(const char* payload, std::size_t size, std::uint64_t offset)>;

// Reads a mapped log batch by batch, in file order, and leaves none of its pages resident
// (MappedFile::release). Resyncs at the next marker after a damaged stretch; stops early when `batch`
// returns false, and reads no batch when `header` returns false.
// Throws ForeignCheckpoint naming `path` when it is not a log of this version.
CheckpointScan scan_checkpoint(const MappedFile& log, const std::string& path,
                               const std::function<bool(const CheckpointHeader&)>& header, const BatchReader& batch);
// The same, mapping the file at `path` for the scan (throws as read_checkpoint_header).
CheckpointScan scan_checkpoint(const std::string& path, const std::function<bool(const CheckpointHeader&)>& header,
                               const BatchReader& batch);

}  // namespace vibro
