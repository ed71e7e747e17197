#pragma once
// Many cases of one model stepped together, K forcing periods per launch (on CPU threads or a GPU):
// the interface the batched sweep runner drives. It knows no model and no sweep: a model provides a
// batch over its host-and-device kernel (cpu_batch.hpp, and the CUDA back end), the runner feeds the
// samples to its steady-state detectors and retires the cases that have converged.
#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "engine/batch/held_summary.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

class CaseBatch {
 public:
  virtual ~CaseBatch() = default;
  // Adds the cases in order, made on all OpenMP threads; returns each one's index in the batch, or -1
  // for a case Model::start throws for (InfeasibleCase, InputError): errors[j] then holds the exception.
  virtual std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) = 0;
  virtual const StrobeLayout& layout(int i) const = 0;
  // Every live case advances `periods` forcing periods. The first `unkept` of them leave no sample:
  // the kernel steps them and nothing is stored or copied back (a fixed-length run's detectors read
  // only their window, so the periods before it need no samples). The others leave theirs behind.
  // launch() may return before the cases have advanced (a GPU batch queues the kernel and the copies
  // back): wait() returns once they have, and only then are taken(), sample() and the rest valid.
  // Meanwhile the host may work on another batch: that is how a GPU's launches overlap the
  // detectors' pass of another group.
  virtual void launch(int periods, int unkept) = 0;
  virtual void wait() {}
  // Whether the last launch has advanced the cases (wait() would return at once), asked without
  // waiting: a runner busy with another group's results relaunches a batch whose launch is done, so
  // that the device does not stand idle meanwhile. True where launch() itself does the work.
  virtual bool ready() { return true; }
  // Seconds the device spent on this batch's launches so far, kernels and copies (cudaEvent timing),
  // counted at wait(); negative where the batch has no device clock (CPU threads).
  virtual double device_seconds() const { return -1; }
  // Empties the batch for another group of cases, keeping its buffers (device and page-locked
  // memory is slow to allocate, and freeing it synchronises the whole device). Every reference into
  // the batch (layout()) is void after.
  virtual void clear() = 0;
  // Periods case i completed in the last launch: all asked for, or fewer when it failed (rethrow
  // says why), the unkept ones included.
  virtual int taken(int i) const = 0;
  // Sample k of case i's row: the last launch's kept samples, 0 <= k < taken(i) - unkept, or, once the
  // batch holds samples, every launch's since hold_samples, in order.
  virtual void sample(int i, int k, StrobeSample& out) const = 0;
  // Samples first .. first + count - 1 of case i's row into out[0 .. count): each read over a copy of
  // the one before (out[0] over what it holds), so that every out[k] is what sample() into one scratch
  // leaves after reading sample first + k (a kernel may leave fields it does not fill as they were).
  // Why one call a row: a fixed run's runner reads each case's window once, 10^6 rows of 51 samples on
  // a large map, and a call chain a sample (a null batch's, its CPU batch's, the kernel's) cost as
  // much as the reading. A batch over a kernel overrides it with one loop over the row (read_row).
  virtual void samples(int i, int first, int count, StrobeSample* out) const {
    for (int k = 0; k < count; ++k) {
      if (k > 0) out[k] = out[k - 1];
      sample(i, first + k, out[k]);
    }
  }
  // From the next launch until clear(), each launch appends its kept samples to the case's row of `row`
  // samples instead of replacing the last launch's: a runner whose detectors read only a final window
  // (fixed mode) then feeds each case once, after its last launch, from one contiguous row. Fed after
  // every launch, 8 samples at a time, each detector's history was cold memory again (the conveyor's
  // map, 10^5 cases in groups of 16384, 2 threads: the detectors' phase took 0.87 s, 0.32 s held).
  // A case that completes fewer periods than asked (it failed) must be retired before the next
  // launch. False where the batch keeps only the last launch's samples (the default): the runner then
  // feeds them after every launch.
  virtual bool hold_samples(int /*row*/) { return false; }
  // The largest row a batch holds is kMaxHeldRowBytes (held_summary.hpp).
  // Held rows reduced in the batch (held_summary.hpp): whether this batch can (its kernel reduces a
  // window), and the plan, given before hold_samples (a GPU batch then keeps the rows on the device)
  // and the group's first launch: if the rows are held, the launch
  // that fills the rows then summarises the window of every case that completed it (on a GPU, a
  // kernel beside the samples and one copy of the summaries, not of the rows). After that launch (and
  // wait()), a case's summary and its window's first and last samples are read with held_summary().
  // A batch that cannot leaves the runner to classify the rows.
  virtual bool reduces_held() const { return false; }
  virtual void reduce_held(const HeldWindow& /*window*/) {}
  virtual void held_summary(int /*i*/, HeldSummary& /*summary*/, StrobeSample& /*first*/, StrobeSample& /*last*/) const {}
  [[noreturn]] virtual void rethrow(int i) const = 0;
  // The next launch of case i starts from this sample (Simulation::restart_from); false if refused.
  virtual bool restart(int i, const StrobeSample& sample) = 0;
  // A detector's extrapolation jump of case `slot`, as the one-case path makes it: re-base at the
  // sample the detector stopped at, then restart from the target.
  struct Jump {
    int slot = -1;
    StrobeSample stop;
    const StrobeSample* target = nullptr;
    bool rebased = false;   // the re-base at `stop` was accepted
    bool accepted = false;  // the restart from `target` was accepted
    std::exception_ptr error;  // what a restart threw (the case fails with it, as a one-case restart's would)
  };
  // One jump by `restart(state)`: the re-base, then the target; an exception ends it in `error`.
  template <class Restart>
  static void make_jump(Jump& jump, Restart restart) {
    try {
      jump.rebased = restart(jump.stop);
      jump.accepted = restart(*jump.target);
    } catch (...) {
      jump.error = std::current_exception();
    }
  }
  // Makes the jumps of one launch, each to its own case. Here: two restarts a case, on all OpenMP
  // threads. A GPU batch overrides it to move the jumping cases' states once each way for all of
  // them (a restart's two copies of one case, 10^5 times a launch, cost more than the launch).
  virtual void jump(std::vector<Jump>& jumps) {
    const auto n = static_cast<long long>(jumps.size());
#if defined(_OPENMP)  // nvcc's host pass may run without OpenMP
#pragma omp parallel for schedule(dynamic, 64)
#endif
    for (long long j = 0; j < n; ++j) {
      Jump& jump = jumps[static_cast<std::size_t>(j)];
      make_jump(jump, [&](const StrobeSample& to) { return restart(jump.slot, to); });
    }
  }
  // Case i advances no more: it leaves the live set at the next launch.
  virtual void retire(int i) = 0;
  virtual int live() const = 0;
};

// Which back end steps the cases (run.backend).
enum class BatchDevice : int { Cpu, Cuda };

// Whether this build has the CUDA back end and, when `need_device`, a GPU it can use now; `why` says
// what is missing when not. Parsing a sweep checks the build (a job may be submitted from a node
// without a GPU); running one checks the device too.
bool cuda_backend_available(bool need_device, std::string& why);

}  // namespace vibro
