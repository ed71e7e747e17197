#pragma once
// Where a rank's threads get their next parallel unit (a case, or a whole continuation line).
#include <atomic>
#include <memory>

#include "jobs/sweep/progress_line.hpp"
#include "jobs/sweep/rank_share.hpp"

namespace vibro {

class UnitSource {
 public:
  virtual ~UnitSource() = default;
  // The next unit for the calling thread, or -1 when none is left; called from many threads.
  virtual long long next() = 0;
  // The calling thread finished a unit of `cases` cases (`failed` of them failed) in `seconds`;
  // feeds chunk sizing and the progress report where they matter.
  virtual void finished(double /*seconds*/, int /*cases*/, int /*failed*/) {}
  // What the other ranks have reported so far (rank 0 of a work queue; zero elsewhere).
  virtual ProgressCount others() const { return {}; }
  // No more units for this rank (an interrupt); may be called from many threads, more than once.
  virtual void stop() {}
  // Whether the rank should stop even inside a unit (a continuation line stops between its cases;
  // the rest of the line resumes from the last saved case's final state).
  virtual bool stopping() const { return false; }
  // This rank's threads are done: a rank serving the others waits for every rank's final count (so
  // that the last progress line counts the whole sweep); the others send theirs.
  virtual void finish() {}
};

// This rank's fixed share of `units` (u mod ranks == rank), handed out in order.
class StaticSource : public UnitSource {
 public:
  StaticSource(long long units, RankShare share) : units_(units), share_(share), next_(share.rank) {}
  long long next() override {
    const long long u = next_.fetch_add(share_.ranks);
    return u < units_ ? u : -1;
  }

 private:
  long long units_;
  RankShare share_;
  std::atomic<long long> next_;
};

}  // namespace vibro
