#pragma once
// "cases done / total, cases per second, ETA" on stderr, redrawn in place, only when stderr is a
// terminal: logs of batch jobs stay clean.
#include <chrono>
#include <mutex>

namespace vibro {

class ProgressLine {
 public:
  explicit ProgressLine(long long total);
  // Thread-safe; redraws at most a few times per second.
  void case_done();
  void finish();

 private:
  void draw(long long done, bool final);
  long long total_;
  long long done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point started_, last_draw_;
  std::mutex mutex_;
};

}  // namespace vibro
