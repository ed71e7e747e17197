#pragma once
// "cases done / total, cases per second, ETA, failures" on stderr (the caller decides whether to show
// it: by default only on a terminal). On a terminal the line is redrawn in place a few times a
// second; elsewhere (a batch log) it is a whole line every `log_seconds`, so the log reads as a
// history. With several ranks, rank 0 adds what the other ranks report with their chunk requests.
#include <chrono>
#include <functional>
#include <mutex>

namespace vibro {

struct ProgressCount {
  long long done = 0, failed = 0;
};

class ProgressLine {
 public:
  // total: the whole sweep's cases (0: no line); already_done: those loaded from an earlier run's
  // checkpoints, counted as done (a resumed sweep shows its whole progress; the rate and ETA come
  // from this run's cases alone); remote: the other ranks' counts so far (empty on one rank).
  explicit ProgressLine(long long total, long long already_done = 0, std::function<ProgressCount()> remote = {},
                        double log_seconds = 30);
  // Thread-safe; redraws at most a few times per second.
  void case_done(bool failed);
  void finish();

 private:
  void draw(bool final);
  long long total_, already_done_;
  ProgressCount local_;
  std::function<ProgressCount()> remote_;
  bool enabled_, in_place_;
  std::chrono::duration<double> interval_;
  std::chrono::steady_clock::time_point started_, last_draw_;
  std::mutex mutex_;
};

}  // namespace vibro
