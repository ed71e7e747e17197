#pragma once
// A dynamic work queue over MPI: rank 0 owns the unit counter; its own threads take single units
// from it while a server thread hands chunks to the other ranks on request. A chunk is sized from
// the requester's measured cost per unit (about half a second of work for all its threads), and
// shrinks towards the end so that no rank is left with a long tail: case costs differ by orders of
// magnitude (a hopping orbit against a chattering one).
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "jobs/sweep/unit_source.hpp"

namespace vibro {

class WorkQueueServer : public UnitSource {
 public:
  WorkQueueServer(long long units, int ranks);
  ~WorkQueueServer() override;  // waits (as finish does) unless finish did
  long long next() override;
  ProgressCount others() const override { return {remote_done_.load(), remote_failed_.load()}; }
  // From now on no rank gets a unit: this rank's threads get none, every other rank is told so at
  // its next request. Also when another rank reports that it stops (every rank sees the interrupt).
  void stop() override { stopping_ = true; }
  // Waits until every other rank has been told that the work is done and has sent its final count.
  void finish() override;

 private:
  void serve();
  long long units_;
  int ranks_;
  std::atomic<long long> next_{0};
  std::atomic<long long> remote_done_{0}, remote_failed_{0};
  std::atomic<bool> stopping_{false};
  std::vector<ProgressCount> reported_;  // per rank, as of its last request (server thread only)
  std::thread server_;
};

class WorkQueueClient : public UnitSource {
 public:
  long long next() override;
  void finished(double seconds, int cases, int failed) override;
  // Tells the server once that this rank takes no more units (it counts the rank as done and stops
  // the others), and drops the rest of the chunk.
  void stop() override;
  // Sends this rank's final count (once every thread is done): the server's last progress line.
  void finish() override;

 private:
  std::mutex mutex_;
  long long begin_ = 0, end_ = 0;
  bool done_ = false;
  double seconds_ = 0;
  long long count_ = 0;
  ProgressCount progress_;
};

}  // namespace vibro
