#pragma once
// Ctrl-C (SIGINT), SIGTERM (what Slurm and mpirun send before they kill a job) and SIGUSR1 (Slurm's
// --signal warning before a time limit) stop a sweep cleanly: the handler only records the signal;
// the ranks' unit sources then hand out no more units, the cases in progress finish, every rank's
// checkpoint writer flushes, and `vibro run` reports what was saved (exit 128 + the signal number).
// A second signal of the same kind ends the process at once, as the signal's default would.
#include "jobs/sweep/unit_source.hpp"

namespace vibro {

// Installs the handlers for its lifetime (the sweep's computing phase) and restores the previous
// ones after: a signal while the HDF5 file is written ends the process, and the logs stay to resume.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

// The signal that interrupted this process, or 0.
int interrupt_signal();

// Hands out `inner`'s units until a signal arrives, then none (telling `inner` once, so that a
// work-queue server stops serving and its clients stop asking).
class InterruptibleSource : public UnitSource {
 public:
  explicit InterruptibleSource(UnitSource& inner) : inner_(inner) {}
  long long next() override;
  void finished(double seconds, int cases, int failed) override { inner_.finished(seconds, cases, failed); }
  ProgressCount others() const override { return inner_.others(); }
  void stop() override { inner_.stop(); }
  bool stopping() const override { return interrupt_signal() != 0; }
  void finish() override { inner_.finish(); }

 private:
  UnitSource& inner_;
};

}  // namespace vibro
