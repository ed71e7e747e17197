#pragma once
// Checkpoints of a running sweep: every rank appends its finished cases to its own log file,
// OUT.h5.ckpt.<rank>, in checksummed batches flushed to disk every few seconds. A killed run
// (kill -9 included) leaves logs whose complete batches are valid and whose torn tail is detected
// and dropped, so a rerun of the same sweep (or `vibro run --resume OUT.h5`) loads every flushed
// case and computes only the rest. A log made by a different sweep is refused, by fingerprint.
// The logs are also the store the HDF5 file is written from (checkpoint_index.hpp).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
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

class CheckpointWriter : public CaseSink {
 public:
  CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds);
  ~CheckpointWriter() override;
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;
  void finished(long long index, const CaseResult& result) override;  // thread-safe
  void flush();

 private:
  // Appends one batch as a checksummed record and syncs it; batches are written one at a time.
  void write_batch(const std::vector<char>& batch);
  std::FILE* file_ = nullptr;
  std::string path_;
  double flush_seconds_;
  std::vector<char> pending_;
  std::chrono::steady_clock::time_point last_flush_;
  std::mutex mutex_;       // guards pending_ and last_flush_
  std::mutex file_mutex_;  // guards file_: one batch written at a time
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
