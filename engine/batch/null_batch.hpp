#pragma once
// run.backend = null, a benchmark tool and nothing else: a batch whose launches do no work but take a
// set time, as a GPU's would, and return prepared samples. It lets the host's side of a GPU run (the
// groups' set-up, the detectors, the results, the file) run on a machine without a GPU as it would
// beside one, so that the host's time beyond the launches can be measured and cut there.
//
// The cases are made as on every back end (by one of the model's CPU batches, never launched: the
// host's set-up is real). The samples are prepared: a few cases spread evenly over each group (the
// templates) are made again in a second CPU batch, which steps them for real (well under a
// millisecond a launch), and every case reads the samples of template (its index modulo their
// number), so the group's mix of motions reaches the detectors. A case's results are therefore not
// its own: never use them. The batch holds a fixed-mode run's samples when asked (hold_samples), as
// the CPU batch does and the GPU batch built with VIBRO_CUDA_HOLD_SAMPLES.
// The detectors read the templates' rows from the cache, where beside a GPU they read each case's
// own row of the copy-back buffer; the memory traffic that adds is not simulated.
//
// Launches go through one simulated device (NullDevice), shared by the run's batches: each takes
// its periods times a set time per period, after the launches queued before it, so the launches of
// all groups in flight take the set time in all and the whole run cannot be shorter than they are.
#include <chrono>
#include <memory>
#include <vector>

#include "engine/batch/case_batch.hpp"

namespace vibro {

// The device the null batches of one run share: launches run one after another.
class NullDevice {
 public:
  using Clock = std::chrono::steady_clock;
  explicit NullDevice(double seconds_per_period) : seconds_per_period_(seconds_per_period) {}
  // A launch of `periods` periods queued now: when it ends. From one thread (the runner's).
  Clock::time_point queue(int periods);
  double seconds(int periods) const { return seconds_per_period_ * periods; }

 private:
  double seconds_per_period_;
  Clock::time_point free_at_{};
};

class NullBatch : public CaseBatch {
 public:
  // Cases that are stepped for real in each group: enough for a mix of the model's motions.
  // Few: they are stepped on the host's cores, which a GPU run leaves to the host's own work (64 of
  // them took 0.38 s of the 10^6-case map's 2-thread run).
  static constexpr int kTemplates = 16;

  // `making` and `stepping`: two of the model's CPU batches, one to make the cases, one to step the
  // templates. One add() a group.
  NullBatch(std::unique_ptr<CaseBatch> making, std::unique_ptr<CaseBatch> stepping, std::shared_ptr<NullDevice> device);

  std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) override;
  const StrobeLayout& layout(int i) const override { return making_->layout(i); }
  bool hold_samples(int row) override { return stepping_->hold_samples(row); }
  void launch(int periods, int unkept) override;
  void wait() override;
  double device_seconds() const override { return device_seconds_; }
  void clear() override;
  int taken(int i) const override { return stepping_->taken(template_of(i)); }
  void sample(int i, int k, StrobeSample& out) const override { stepping_->sample(template_of(i), k, out); }
  void samples(int i, int first, int count, StrobeSample* out) const override {
    stepping_->samples(template_of(i), first, count, out);
  }
  // The templates' windows reduced by the stepping batch: every case's summary is its template's,
  // as a GPU's reduction would return them.
  bool reduces_held() const override { return stepping_->reduces_held(); }
  void reduce_held(const HeldWindow& window) override { stepping_->reduce_held(window); }
  void held_summary(int i, HeldSummary& summary, StrobeSample& first, StrobeSample& last) const override {
    stepping_->held_summary(template_of(i), summary, first, last);
  }
  [[noreturn]] void rethrow(int i) const override;
  // Refused: a case has no state of its own to restart from (a detector's jump then goes on without).
  bool restart(int /*i*/, const StrobeSample& /*sample*/) override { return false; }
  void retire(int i) override { retired_[static_cast<std::size_t>(i)] = 1; }  // safe from several threads at once
  int live() const override;

 private:
  // Case i's template: its index in the stepping batch.
  int template_of(int i) const { return templates_[static_cast<std::size_t>(i) % templates_.size()]; }

  std::unique_ptr<CaseBatch> making_;
  std::unique_ptr<CaseBatch> stepping_;
  std::shared_ptr<NullDevice> device_;
  std::vector<int> templates_;  // the stepped cases' indices in stepping_ (-1: not made there)
  std::vector<char> retired_;   // by case index (an index no case was made for counts as retired)
  int cases_ = 0;
  int last_periods_ = 0;        // of the last launch: a template that took fewer failed
  NullDevice::Clock::time_point done_at_{};
  double device_seconds_ = 0;
};

}  // namespace vibro
