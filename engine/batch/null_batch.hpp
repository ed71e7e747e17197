#pragma once
// run.backend = null, a benchmark tool and nothing else: a batch whose launches do no work but take a
// set time, as a GPU's would, and return prepared samples. It lets the host's side of a GPU run (the
// groups' set-up, the detectors, the results, the file) run on a machine without a GPU as it would
// beside one, so that the host's time beyond the launches can be measured and cut there.
//
// The cases are made as on every back end (by one of the model's CPU batches, never launched: the
// host's set-up is real). The samples are prepared: a few cases spread evenly over a group (the
// templates) are made again in a second CPU batch, which steps them for real (well under a
// millisecond a launch), and every case reads the samples of template (its index modulo their
// number), so the group's mix of motions reaches the detectors. A case's results are therefore not
// its own: never use them. The batch holds a fixed-mode run's samples when asked (hold_samples), as
// the CPU batch does and the GPU batch built with VIBRO_CUDA_HOLD_SAMPLES.
// Stepping the templates is the tool's work, not the host's: it ran on the host's cores before each
// launch was queued (0.33 s of the 10^6-case map's 2-thread run). So a later group whose plan is that
// of the group the templates came from (the same held row and reduced window, the same launches)
// reads those templates and replays their stepping: the stepping batch is kept as that group left it
// (its held rows and summaries are what every launch's reads need: a held row only grows) and each
// launch's periods taken are those recorded. Where that would not be exact (rows not held, another
// plan, a template that failed) the templates are stepped anew: the group's own when it has not made
// its cases yet, else again those its cases read.
// The detectors read the templates' rows from the cache, where beside a GPU they read each case's
// own row of the copy-back buffer; the memory traffic that adds is not simulated.
//
// Launches go through one simulated device (NullDevice), shared by the run's batches: each takes
// its periods times a set time per period, after the launches queued before it, so the launches of
// all groups in flight take the set time in all and the whole run cannot be shorter than they are.
#include <chrono>
#include <memory>
#include <utility>
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
  // Cases stepped for real (the templates): enough for a mix of the model's motions.
  // Few: they are stepped on the host's cores, which a GPU run leaves to the host's own work (64 of
  // them took 0.38 s of the 10^6-case map's 2-thread run).
  static constexpr int kTemplates = 16;

  // `making` and `stepping`: two of the model's CPU batches, one to make the cases, one to step the
  // templates. One add() a group. `replay` false: the templates are stepped anew in every group, as
  // before replays were made (what a replay must equal).
  NullBatch(std::unique_ptr<CaseBatch> making, std::unique_ptr<CaseBatch> stepping, std::shared_ptr<NullDevice> device,
            bool replay = true);

  std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) override;
  const StrobeLayout& layout(int i) const override { return making_->layout(i); }
  bool hold_samples(int row) override;
  void launch(int periods, int unkept) override;
  void wait() override;
  bool ready() override { return NullDevice::Clock::now() >= done_at_; }
  double device_seconds() const override { return device_seconds_; }
  void clear() override;
  // Launch n of a replayed group took what launch n of the recorded one did. Called for every case
  // after every launch.
  int taken(int i) const override { return taken_now_[template_position(i)]; }
  void sample(int i, int k, StrobeSample& out) const override { stepping_->sample(template_of(i), k, out); }
  void samples(int i, int first, int count, StrobeSample* out) const override {
    stepping_->samples(template_of(i), first, count, out);
  }
  // The templates' windows reduced by the stepping batch: every case's summary is its template's,
  // as a GPU's reduction would return them.
  bool reduces_held() const override { return stepping_->reduces_held(); }
  void reduce_held(const HeldWindow& window) override;
  void held_summary(int i, HeldSummary& summary, StrobeSample& first, StrobeSample& last) const override {
    stepping_->held_summary(template_of(i), summary, first, last);
  }
  [[noreturn]] void rethrow(int i) const override;
  // Refused: a case has no state of its own to restart from (a detector's jump then goes on without).
  bool restart(int /*i*/, const StrobeSample& /*sample*/) override { return false; }
  void retire(int i) override { retired_[static_cast<std::size_t>(i)] = 1; }  // safe from several threads at once
  int live() const override;
  // Whether the group in hand replays the templates' stepping (tests).
  bool replaying() const { return replaying_; }

 private:
  // What a group asked of the templates' stepping.
  struct Plan {
    HeldWindow window;  // reduce_held's (samples 0: not asked)
    int row = -1;       // hold_samples' (-1: not asked)
    bool held = false;  // its answer
    std::vector<std::pair<int, int>> launches;  // periods, unkept
    bool same_setup(const Plan& other) const;   // window and row
  };
  // One launch of the templates: its periods and the periods each template took.
  struct Stepped {
    int periods = 0;
    std::vector<int> taken;  // by template
  };

  // Case i's template: its index in the stepping batch.
  int template_of(int i) const { return templates_[template_position(i)]; }
  std::size_t template_position(int i) const {
    return static_cast<unsigned>(i) % static_cast<unsigned>(templates_.size());  // 32 bits: a shorter division
  }
  // Whether the group just done can be replayed: its rows held, a launch made, no template failed.
  bool replayable() const;
  void add_templates();
  void step_templates(int periods, int unkept);
  void stop_replaying();

  std::unique_ptr<CaseBatch> making_;
  std::unique_ptr<CaseBatch> stepping_;
  std::shared_ptr<NullDevice> device_;
  bool replay_;
  std::vector<ParameterSet> template_values_;
  std::vector<int> templates_;  // the stepped cases' indices in stepping_
  std::vector<Stepped> stepped_;  // by launch since the stepping batch's clear()
  const int* taken_now_ = nullptr;  // the group's last launch's in stepped_
  Plan plan_;                   // the group's
  Plan recorded_;               // the replayed group's (while replaying_)
  bool replaying_ = false;
  bool added_ = false;          // the group's add() is done
  std::vector<char> retired_;   // by case index (an index no case was made for counts as retired)
  std::vector<std::size_t> made_;  // add()'s scratch, kept (1 MB a group: fresh pages each time)
  int cases_ = 0;
  NullDevice::Clock::time_point done_at_{};
  double device_seconds_ = 0;
};

}  // namespace vibro
