#pragma once
// Checkpoints of a running sweep: every rank appends its finished cases to its own log file,
// OUT.h5.ckpt.<rank>, in checksummed batches flushed to disk every few seconds. A killed run
// (kill -9 included) leaves logs whose complete batches are valid and whose torn tail is detected
// and dropped, so a rerun of the same sweep (or `vibro run --resume OUT.h5`) loads every flushed
// case and computes only the rest. A log made by a different sweep is refused, by fingerprint.
// The logs are also the store the HDF5 file is written from (checkpoint_index.hpp).
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

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

struct CheckpointHeader {
  std::string fingerprint;  // SweepSpec::fingerprint() of the sweep that wrote it
  std::string source_name;  // the sweep file's name
  std::string sweep_text;   // the sweep file's text, as read
  std::vector<std::string> overrides;
};

// Appends finished cases to a log. Computing threads only encode into their own buffer (no shared
// lock, no disk): a writer thread of its own collects the buffers every flush interval, or sooner
// when they grow large, and writes and syncs them as one batch.
class CheckpointWriter : public CaseSink {
 public:
  CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds);
  ~CheckpointWriter() override;  // writes what is left
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;
  void finished(long long index, const CaseResult& result) override;  // thread-safe; never waits on the disk
  void flush();  // every case finished so far, on disk now

 private:
  // One buffer per computing thread (numbered by first arrival; beyond kSlots threads share, then its
  // mutex counts).
  struct alignas(64) Slot {
    std::mutex mutex;
    std::vector<char> bytes;
  };
  static constexpr std::size_t kSlots = 64;
  void write_loop();
  // Appends every slot's bytes as one checksummed record and syncs it; one batch at a time.
  void write_pending();
  std::FILE* file_ = nullptr;
  std::string path_;
  double flush_seconds_;
  std::array<Slot, kSlots> slots_;
  std::array<std::vector<char>, kSlots> outgoing_;  // the writer's side of each slot (file_mutex_)
  std::atomic<long long> pending_bytes_{0};  // approximate: adds and collections race harmlessly
  std::mutex file_mutex_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stop_ = false, urgent_ = false;
  std::thread writer_;
};

// The existing checkpoint logs of an output file, OUT.h5.ckpt.<rank>, in rank order.
std::vector<std::string> checkpoint_files(const std::string& output_file);
// Throws InputError when the file is not a vibro checkpoint.
CheckpointHeader read_checkpoint_header(const std::string& path);

// Reads a log batch by batch (one batch in memory at a time): `batch` gets each intact batch's
// payload and the file offset of its first byte. Stops at the end, at a torn or corrupt record, or
// when `batch` returns false. Returns the length of the valid prefix (0 when the header is damaged
// or `header` returns false). Throws InputError when the file cannot be read.
std::uint64_t scan_checkpoint(const std::string& path, const std::function<bool(const CheckpointHeader&)>& header,
                              const std::function<bool(const std::vector<char>&, std::uint64_t)>& batch);

}  // namespace vibro
