#pragma once
// Checkpoints of a running sweep: every rank appends its finished cases to its own log file,
// OUT.h5.ckpt.<rank>, in checksummed batches flushed to disk every few seconds. A killed run
// (kill -9 included) leaves logs whose complete batches are valid and whose torn tail is detected
// and dropped, so a rerun of the same sweep (or `vibro run --resume OUT.h5`) loads every flushed
// case and computes only the rest. A log made by a different sweep is refused, by fingerprint.
#include <chrono>
#include <cstdio>
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
  void flush_locked();
  std::FILE* file_ = nullptr;
  std::string path_;
  double flush_seconds_;
  std::vector<char> pending_;
  std::chrono::steady_clock::time_point last_flush_;
  std::mutex mutex_;
};

// The existing checkpoint logs of an output file, OUT.h5.ckpt.<rank>, in rank order.
std::vector<std::string> checkpoint_files(const std::string& output_file);
// Throws InputError when the file is not a vibro checkpoint.
CheckpointHeader read_checkpoint_header(const std::string& path);
struct CheckpointLoad {
  long long loaded = 0;      // distinct cases now available
  long long duplicates = 0;  // cases found more than once (a case computed again after it was saved)
  int torn = 0;              // logs whose last batch was cut short by a kill (dropped)
};

// Loads every complete batch of the logs into `cases`. Throws InputError naming the file when a
// log belongs to another sweep.
CheckpointLoad load_checkpoints(const std::vector<std::string>& paths, const std::string& fingerprint,
                                std::vector<CaseResult>& cases);

}  // namespace vibro
