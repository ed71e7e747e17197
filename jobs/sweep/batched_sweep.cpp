#include "jobs/sweep/batched_sweep.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/history_arena.hpp"
#include "engine/batch/batch_registry.hpp"
#include "engine/batch/null_batch.hpp"
#include "engine/core/huge_pages.hpp"
#include "engine/core/input_error.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/held_window.hpp"
#include "jobs/sweep/progress_line.hpp"

namespace vibro {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

BatchDevice batch_device(Backend backend) { return backend == Backend::Cuda ? BatchDevice::Cuda : BatchDevice::Cpu; }

// A batch of the spec's model on its back end; the null back end's over two of the model's CPU
// batches, its launches on `device`.
std::unique_ptr<CaseBatch> make_batch(const SweepSpec& spec, const std::shared_ptr<NullDevice>& device) {
  const auto cpu = [&] { return BatchRegistry::instance().make(*spec.model, batch_device(spec.backend), spec.limits); };
  if (spec.backend != Backend::Null) return cpu();
  return std::make_unique<NullBatch>(cpu(), cpu(), device);
}

// One case of a group: its grid index, its slot in the batch, its detector. Its CaseResult is made
// when it finishes (a group's 10^5 results held from the start were hundreds of MB to clear and free).
struct LiveCase {
  long long index = -1;
  int slot = -1;
  std::unique_ptr<SteadyStateDetector> detector;
  std::exception_ptr error;  // why it could not start, or failed: its result is that status
  int jump_at = -1;          // >= 0: its detector asked for a jump at this sample of the last launch
  int held_row = -1;         // >= 0: finished with a held row of this many samples, read without a detector
  bool done = false;
};
// A group's cases on huge pages where granted: 10^5 of them on fresh 4-KB pages cost each batch's
// first group some 1300 page faults.
using LiveCases = std::vector<LiveCase, HugePageAllocator<LiveCase>>;

// Sets the OpenMP threads of this sweep's parallel regions and restores the caller's on leaving.
class ThreadCount {
 public:
  explicit ThreadCount(int threads) : previous_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~ThreadCount() { omp_set_num_threads(previous_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
};

// The periods of a group's launches: `length` each (run.batch_periods), except the first of a run
// whose detectors read only the newest samples (fixed mode: its window): that one steps the unread
// periods first, unsampled, then as many sampled ones as make the rest whole launches, so that no
// launch steps past the budget. When more launches follow, it keeps `length` samples where the unread
// periods allow (a few more than the window needs, which the detector drops): every launch then
// leaves as many samples a case, and a GPU batch's sample buffers keep one size.
class LaunchPlan {
 public:
  struct Launch {
    int periods, unkept;
  };
  LaunchPlan(const SteadyStateSettings& settings, int length)
      : length_(length), unkept_(unread_leading_periods(settings)), budget_(settings.max_periods) {}
  // Samples a case keeps over the whole plan (the launches up to the budget).
  int kept_samples() const {
    LaunchPlan rest = *this;
    int periods = 0, kept = 0;
    while (periods < budget_) {
      const Launch launch = rest.next();
      periods += launch.periods;
      kept += launch.periods - launch.unkept;
    }
    return kept;
  }
  // The unkept periods of the plan's first launch: the unread leading periods of every row.
  int first_unkept() const {
    LaunchPlan rest = *this;
    return rest.next().unkept;
  }
  // Whether launches of `periods` periods in all reach the budget: the last one is in.
  bool spent(int periods) const { return periods >= budget_; }
  Launch next() {
    if (unkept_ == 0) return {length_, 0};
    const int kept = (budget_ - unkept_ - 1) % length_ + 1;
    const bool more = budget_ - unkept_ - kept > 0;
    const int also_kept = more ? std::min(length_ - kept, unkept_) : 0;
    const Launch first{unkept_ + kept, unkept_ - also_kept};
    unkept_ = 0;
    return first;
  }

 private:
  int length_;
  int unkept_;
  int budget_;
};

// What a case's samples of the last launch led to.
enum class Fed { GoesOn, Finished, Jumps };

// Feeds case c's first `samples` samples of its row to its detector, as Simulation::run feeds them one
// by one, after the `skipped` leading periods stepped without samples; then, when the case stopped
// short of its launch (it failed), takes its exception.
Fed feed(CaseBatch& batch, LiveCase& c, int skipped, int samples, bool stopped_short) {
  if (skipped > 0) c.detector->skip(skipped);
  StrobeSample sample;
  for (int k = 0; k < samples; ++k) {
    batch.sample(c.slot, k, sample);
    if (c.detector->on_sample(sample)) continue;
    // Later samples are void. A case that stops for good needs no re-base (the one-case path's
    // re-base at this sample matters only to a run that goes on); a jump is made with the launch's
    // other jumps (make_jumps).
    if (!c.detector->jump_target()) return Fed::Finished;
    c.jump_at = k;
    return Fed::Jumps;
  }
  if (stopped_short) {
    try {
      batch.rethrow(c.slot);
    } catch (...) {
      c.error = std::current_exception();
    }
    return Fed::Finished;
  }
  return Fed::GoesOn;
}

// Makes the jumps the detectors asked for in the last launch, all at once (CaseBatch::jump), and tells
// each detector; returns the jumping cases that are finished: jump refused and no re-base either, or
// a restart that threw (the case fails with it).
std::vector<std::size_t> make_jumps(CaseBatch& batch, LiveCases& cases) {
  std::vector<std::size_t> jumping;
  for (std::size_t j = 0; j < cases.size(); ++j)
    if (cases[j].jump_at >= 0) jumping.push_back(j);
  std::vector<CaseBatch::Jump> jumps(jumping.size());
  const auto n = static_cast<long long>(jumping.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long long r = 0; r < n; ++r) {
    const LiveCase& c = cases[jumping[static_cast<std::size_t>(r)]];
    CaseBatch::Jump& jump = jumps[static_cast<std::size_t>(r)];
    jump.slot = c.slot;
    batch.sample(c.slot, c.jump_at, jump.stop);
    jump.target = c.detector->jump_target();
  }
  batch.jump(jumps);
  std::vector<std::size_t> finished;
  for (std::size_t r = 0; r < jumping.size(); ++r) {
    LiveCase& c = cases[jumping[r]];
    c.jump_at = -1;
    if (jumps[r].error) {
      c.error = jumps[r].error;
      finished.push_back(jumping[r]);
      continue;
    }
    c.detector->jump_done(jumps[r].accepted);
    if (!jumps[r].accepted && !jumps[r].rebased) finished.push_back(jumping[r]);  // goes on otherwise
  }
  return finished;
}

// Gives case c its detector; false (c.error set) when it cannot have one.
bool make_detector(const SweepSpec& spec, const CaseBatch& batch, LiveCase& c, HistoryArena* arena) {
  try {
    c.detector = std::make_unique<SteadyStateDetector>(batch.layout(c.slot), spec.steady, arena);
    return true;
  } catch (...) {
    c.error = std::current_exception();
    return false;
  }
}

// Puts the group's cases into the batch with their detectors, all on the OpenMP threads (the set-up
// of 10^5 cases, serial, cost a share of the sweep comparable to the launches). A case that cannot
// start is finished at once with its exception's status, as the one-case path records it.
// `parameters` is the run's scratch, kept from group to group and filled in place on the threads
// (made anew, 10^5 parameter sets were as many allocations on one thread; one scratch a group in
// flight was twice the fresh pages, some 30 MB a group of 131072 conveyor cases).
// Unless `arena` is null, the detectors' histories take their memory from it, sized here for all of them.
// Without `detectors` (held samples: fed once, at the end), each case gets its detector when it is
// fed, and frees it when it finishes: 10^5 detectors alive at once from the start were as many
// allocations on fresh pages (on the 10^6 conveyor map, 2 threads, its set-up's detectors phase took
// 4.6-6.6 s wall at load 10-12, and 0.25-0.36 s with detectors made at feeding).
// Adds the time its parts took to `phases`. `meanwhile` is called between its parts (the runner
// relaunches other groups there; its time lies outside the parts timed here).
void add_group(const SweepSpec& spec, const std::vector<long long>& pending, CaseBatch& batch,
               LiveCases& cases, std::vector<ParameterSet>& parameters, bool detectors,
               HistoryArena* arena, SweepTally::BatchedPhases& phases, const std::function<void()>& meanwhile) {
  const auto started = Clock::now();
  const auto n = static_cast<long long>(pending.size());
  parameters.resize(pending.size(), ParameterSet(nullptr));  // empty: the threads fill them
#pragma omp parallel for schedule(dynamic, 256)
  for (long long j = 0; j < n; ++j) spec.fill_case_parameters(pending[static_cast<std::size_t>(j)], parameters[static_cast<std::size_t>(j)]);
  std::vector<std::exception_ptr> errors;
  const auto parameters_made = Clock::now();
  meanwhile();
  const auto adding = Clock::now();
  const std::vector<int> slots = batch.add(parameters, errors);
  const auto cases_made = Clock::now();
  meanwhile();
  const auto detecting = Clock::now();
  phases.parameters_seconds += seconds_between(started, parameters_made);
  phases.cases_seconds += seconds_between(adding, cases_made);
#pragma omp parallel for schedule(dynamic, 256)
  for (long long jj = 0; jj < n; ++jj) {
    const auto j = static_cast<std::size_t>(jj);
    LiveCase& c = cases[j];
    c.index = pending[j];
    c.slot = slots[j];
    if (errors[j]) {
      c.error = errors[j];
    } else if (!detectors || make_detector(spec, batch, c, arena)) {
      continue;
    }
    c.done = true;
    if (c.slot >= 0) batch.retire(c.slot);
  }
  phases.detectors_seconds += seconds_between(detecting, Clock::now());
  if (!arena) return;
  // Half as much again: room for aux entries and for a history that widens (a case that runs out
  // takes heap memory).
  std::size_t words = 0;
  for (const LiveCase& c : cases) words += c.detector ? c.detector->history_words() : 0;
  arena->reset(words + words / 2);
}

// One group of cases in its batch: the cases with their detectors, the launch plan, the launch in
// flight. The batch outlives its groups (CaseBatch::clear keeps a GPU's buffers for the next).
struct Group {
  std::unique_ptr<CaseBatch> batch;
  LiveCases cases;
  LaunchPlan plan{SteadyStateSettings{}, kBatchPeriods};
  LaunchPlan::Launch launch{0, 0};  // the launch in flight
  int launches = 0;                 // the group's launches so far, the one in flight included
  int periods = 0;                  // and their periods
  // Fixed mode, where the batch holds the samples (CaseBatch::hold_samples): the detectors are fed once,
  // after the last launch. The first launch's unkept periods, and the samples each row had before the
  // launch in flight.
  bool held = false;
  int first_unkept = 0;
  int held_before = 0;
  // Held rows the batch reduces itself in the launch that fills them (CaseBatch::reduce_held, planned
  // by hold_rows): the window it reduces (samples 0: not reduced, the runner classifies the rows).
  HeldWindow reduced;
  // Otherwise the detectors' histories live here (a held run's detectors live a moment each: the
  // heap reuses their memory at once).
  HistoryArena arena;
  Clock::time_point started;
  bool set_up_before = false;  // a group of this batch was set up before (its memory is no longer fresh)
  bool in_flight = false;      // a launch was queued and not yet received (receive())
};

// Feeds what case c's last launch left to its detector.
Fed consume(const SweepSpec& spec, CaseBatch& batch, const Group& g, LiveCase& c) {
  const int taken = batch.taken(c.slot);
  const bool stopped_short = taken < g.launch.periods;
  if (!g.held) {
    const int unkept = g.launch.unkept;
    return feed(batch, c, unkept > 0 && taken >= unkept ? unkept : 0, std::max(0, taken - unkept), stopped_short);
  }
  // Held rows: fed once the last launch is in, or at once when the case stopped short (it failed: its
  // detector may still have finished on a sample before the failure, as in the one-case path).
  if (!stopped_short && !g.plan.spent(g.periods)) return Fed::GoesOn;
  const int row = g.held_before + std::max(0, taken - g.launch.unkept);
  if (!stopped_short && row_reaches_budget(g.first_unkept, row, spec.steady)) {
    c.held_row = row;  // finish() classifies the row itself
    return Fed::Finished;
  }
  if (!c.detector && !make_detector(spec, batch, c, nullptr)) return Fed::Finished;
  const int skipped = g.launches > 1 || taken >= g.first_unkept ? g.first_unkept : 0;
  return feed(batch, c, skipped, row, stopped_short);
}

// Drives the groups of one rank's share of a sweep through their batches, up to `groups.size()` in
// flight: while one group's launch runs on the device, the host's threads work on another's
// samples or set up the next group's cases.
class BatchedRun {
 public:
  BatchedRun(const SweepSpec& spec, CaseSink& sink, UnitSource& units, const CompletedCases& completed,
             ProgressLine* progress)
      : spec_(spec), sink_(sink), units_(units), completed_(completed), progress_(progress) {}

  // Counts the computed and failed cases into `tally` and leaves where the time went in tally.batched.
  void run(int in_flight, int group_cases, SweepTally& tally) {
    group_cases_ = group_cases;
    std::vector<Group> groups(static_cast<std::size_t>(in_flight));
    // The null back end's launches take the group's time spread over the budget's periods.
    const auto device = std::make_shared<NullDevice>(spec_.null_group_seconds / spec_.steady.max_periods);
    for (Group& g : groups) {
      g.batch = make_batch(spec_, device);
      if (start_group(g)) queue_.push_back(&g);
    }
    while (!queue_.empty()) {
      Group& g = *queue_.front();
      queue_.pop_front();
      if (g.in_flight) receive(g);  // else received while the host worked on another group
      if (g.batch->live() > 0 && !units_.stopping()) {
        launch(g);
        queue_.push_back(&g);
      } else if (start_group(g)) {  // the group is done (or the run stops): the next one takes its batch
        queue_.push_back(&g);
      }
    }
    for (const Group& g : groups)
      if (g.batch && g.batch->device_seconds() >= 0)
        phases_.device_seconds = std::max(phases_.device_seconds, 0.0) + g.batch->device_seconds();
    tally.computed += computed_;
    tally.failed += failed_;
    tally.batched = phases_;
  }

 private:
  // Takes the next group of cases this rank has still to compute into g's batch and starts its first
  // launch; false when there are none (or the run stops).
  bool start_group(Group& g) {
    g.batch->clear();
    g.cases.clear();
    if (drained_ || units_.stopping()) return false;
    pending_.clear();
    while (static_cast<int>(pending_.size()) < group_cases_) {
      const long long i = units_.next();
      if (i < 0) {
        drained_ = true;
        break;
      }
      if (!completed_.has(i)) pending_.push_back(i);
    }
    if (pending_.empty()) return false;
    g.started = Clock::now();
    ++phases_.groups;
    g.cases.resize(pending_.size());
    g.launches = g.periods = g.held_before = 0;
    plan_launches(g);
    const double serviced_before = serviced_seconds_;
    add_group(spec_, pending_, *g.batch, g.cases, parameters_, !g.held, g.held ? nullptr : &g.arena, phases_,
              [&] { keep_device_busy(g); });
    for (std::size_t j = 0; j < g.cases.size(); ++j)
      if (g.cases[j].done) count(finish(g, j));
    const double setup = seconds_between(g.started, Clock::now()) - (serviced_seconds_ - serviced_before);
    phases_.setup_seconds += setup;
    if (!g.set_up_before) phases_.first_groups_seconds += setup;
    g.set_up_before = true;
    if (g.batch->live() == 0) return start_group(g);  // every case failed to start
    launch(g);
    return true;
  }

  void launch(Group& g) {
    const auto t0 = Clock::now();
    if (g.launches > 0) g.held_before += g.launch.periods - g.launch.unkept;
    g.launch = g.plan.next();
    if (g.launches == 0) g.first_unkept = g.launch.unkept;
    ++g.launches;
    g.periods += g.launch.periods;
    g.batch->launch(g.launch.periods, g.launch.unkept);
    g.in_flight = true;
    ++phases_.launches;
    phases_.advance_seconds += seconds_between(t0, Clock::now());
  }

  // Waits for g's launch and feeds what it left to the detectors.
  void receive(Group& g) {
    const auto waited = Clock::now();
    g.batch->wait();
    g.in_flight = false;
    const auto advanced = Clock::now();
    phases_.advance_seconds += seconds_between(waited, advanced);
    const double serviced_before = serviced_seconds_;
    consume_launch(g);
    phases_.detect_seconds += seconds_between(advanced, Clock::now()) - (serviced_seconds_ - serviced_before);
  }

  // While the host works on `busy` (its last launch's results, its set-up), relaunches the other groups
  // whose launch is done and was not their last: a held group's launches before its last leave the
  // host nothing to do but queue the next (and finish a case that failed), and waiting for the host's
  // work on another group first left the device idle (7 launches a group: 0.3 s of the null bench's
  // 0.5 s of launches). Only where launches run on a device; its time goes to serviced_seconds_ (the
  // phases it interrupts leave it out).
  void keep_device_busy(const Group& busy) {
    if (!on_device_ || servicing_) return;
    const auto started = Clock::now();
    servicing_ = true;
    const std::vector<Group*> waiting(queue_.begin(), queue_.end());
    for (Group* h : waiting) {
      if (h == &busy || !h->in_flight || !h->held || h->plan.spent(h->periods) || !h->batch->ready()) continue;
      queue_.erase(std::find(queue_.begin(), queue_.end(), h));
      receive(*h);
      if (h->batch->live() > 0 && !units_.stopping()) launch(*h);
      queue_.push_back(h);  // received: the main loop goes on with it in turn
    }
    servicing_ = false;
    serviced_seconds_ += seconds_between(started, Clock::now());
  }

  // Feeds the last launch's samples to the detectors; retires the cases that finished, makes the
  // jumps the detectors asked for. A slice of the cases at a time, relaunching other groups between
  // (keep_device_busy).
  void consume_launch(Group& g) {
    LiveCases& cases = g.cases;
    CaseBatch& batch = *g.batch;
    // Cases whose window the batch reduced go to a sink that takes them as summaries, a chunk at a time.
    const bool summaries = g.reduced.samples > 0 && sink_.takes_summaries();
    // The group's time so far bounds the time of each case this launch finished (a clock read a case
    // was 3 % of a 10^6-case run's host time).
    const double wall = seconds_between(g.started, Clock::now());
    long long computed = 0, failed = 0, jumps = 0, reduced = 0;
    for (std::size_t first = 0; first < cases.size(); first += kSliceCases) {
      const std::size_t end = std::min(cases.size(), first + kSliceCases);
#pragma omp parallel reduction(+ : computed, failed, jumps, reduced)
      {
        SummaryChunk& chunk = summary_chunk();
#pragma omp for schedule(dynamic, 64) nowait
        for (std::size_t j = first; j < end; ++j) {
          LiveCase& c = cases[j];
          if (c.done) continue;
          const Fed fed = consume(spec_, batch, g, c);
          jumps += fed == Fed::Jumps ? 1 : 0;
          if (fed != Fed::Finished) continue;
          ++computed;
          const bool summarised = c.held_row >= 0 && g.reduced.samples > 0 && !c.error;
          reduced += summarised ? 1 : 0;
          if (summarised && summaries) {
            summarise(g, j, wall, chunk);
          } else {
            failed += retire(g, j) ? 1 : 0;
          }
        }
        hand_over(chunk);
      }
      if (end < cases.size()) keep_device_busy(g);
    }
    phases_.reduced += reduced;
    if (jumps > 0) {
      const std::vector<std::size_t> stopped = make_jumps(batch, cases);
      const auto n_stopped = static_cast<long long>(stopped.size());
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : computed, failed)
      for (long long r = 0; r < n_stopped; ++r) {
        ++computed;
        failed += retire(g, stopped[static_cast<std::size_t>(r)]) ? 1 : 0;
      }
    }
    computed_ += computed;
    failed_ += failed;
  }

  // A thread's summaries not yet handed to the sink; its memory kept for the run.
  struct SummaryChunk {
    static constexpr std::size_t kCases = 256;  // one sink call (one lock of the log's buffer) a chunk
    std::vector<SummaryCase> cases = std::vector<SummaryCase>(kCases);
    std::size_t size = 0;
  };
  static SummaryChunk& summary_chunk() {
    thread_local SummaryChunk chunk;
    return chunk;
  }
  void hand_over(SummaryChunk& chunk) {
    if (chunk.size > 0) sink_.finished_summaries(chunk.cases.data(), chunk.size);
    chunk.size = 0;
  }

  // Retires case j, which finished with a window the batch reduced after `wall` seconds of its group,
  // and adds its summary to the chunk (it never fails: a case that failed has no summary).
  void summarise(Group& g, std::size_t j, double wall, SummaryChunk& chunk) {
    LiveCase& c = g.cases[j];
    c.done = true;
    g.batch->retire(c.slot);
    HeldSummary summary;
    thread_local StrobeSample first, last;  // 736 bytes each: not made anew a case
    g.batch->held_summary(c.slot, summary, first, last);
    SummaryCase& out = chunk.cases[chunk.size++];
    make_summary_case(c.index, summary, g.batch->layout(c.slot), first, last, g.reduced.samples - 1,
                      spec_.steady.max_periods, wall, out);
    units_.finished(wall, 1, 0);
    if (progress_) progress_->case_done(false);
    if (chunk.size == chunk.cases.size()) hand_over(chunk);
  }

  // The group's launches and whether its batch holds its rows (hold_rows). Only fixed-mode detectors
  // can wait for the end: the others may stop a case or jump at any sample. Where the launches run on
  // a device and the batch holds the rows, the host has nothing to do between two launches of the
  // group but queue the next, so unless run.batch_periods is set the group is stepped in one launch:
  // launches queued one by one waited for the host's work on the other group in flight, and two groups
  // stepped in turn ended together, leaving the device idle while the host took in both (on the null
  // bench, 8-period launches left the device idle 0.18-0.36 s of a 0.75-1.1 s sweep).
  void plan_launches(Group& g) {
    const int length = spec_.batch_periods > 0 ? spec_.batch_periods : kBatchPeriods;
    const bool one_launch = on_device_ && spec_.batch_periods == 0 && spec_.steady.mode == SteadyMode::Fixed;
    g.plan = LaunchPlan(spec_.steady, one_launch ? spec_.steady.max_periods : length);
    hold_rows(g);
    if (!one_launch || g.held) return;
    g.plan = LaunchPlan(spec_.steady, length);  // rows not held: every launch's samples come to the host
    hold_rows(g);
  }

  // A fixed run's batch reduces the windows itself where it can (on a GPU, beside the samples): a
  // result needs no more of the row unless stroboscopic points are stored. Planned before the batch
  // is asked to hold the rows (a GPU batch that reduces them keeps them on the device), then holds
  // only if the batch holds them.
  void hold_rows(Group& g) {
    g.reduced = HeldWindow{};
    if (spec_.steady.mode != SteadyMode::Fixed) {
      g.held = false;
      return;
    }
    if (spec_.strobe_points == StrobePoints::None && g.batch->reduces_held()) {
      const HeldWindow window = held_window(g.plan.first_unkept(), spec_.steady);
      if (window.samples >= 2) {
        g.batch->reduce_held(window);
        g.reduced = window;
      }
    }
    g.held = g.batch->hold_samples(g.plan.kept_samples());
    if (!g.held) g.reduced = HeldWindow{};
  }

  void count(bool failed) {
    ++computed_;
    failed_ += failed ? 1 : 0;
  }

  // A case of the batch that is finished: it advances no more, and its result goes out.
  bool retire(Group& g, std::size_t j) {
    g.cases[j].done = true;
    g.batch->retire(g.cases[j].slot);
    return finish(g, j);
  }

  // Case c's parameter values, made again (add_group's scratch has moved on to other groups): for the
  // model's summary, which the windows the batch reduced itself do without.
  const ParameterSet& case_parameters(const LiveCase& c) const {
    thread_local ParameterSet values(nullptr);
    spec_.fill_case_parameters(c.index, values);
    return values;
  }

  // Records a finished case and hands it on; returns whether it failed. Thread-safe across cases.
  bool finish(Group& g, std::size_t j) {
    LiveCase& c = g.cases[j];
    thread_local CaseResult result;  // its vectors' memory kept from case to case (the sink copies what it keeps)
    result = empty_case_result();
    if (c.error) {
      record_case_exception(c.error, result);
    } else if (c.held_row >= 0 && g.reduced.samples > 0) {
      HeldSummary summary;
      thread_local StrobeSample first, last;  // 736 bytes each: not made anew a case
      g.batch->held_summary(c.slot, summary, first, last);
      record_held_summary(summary, g.batch->layout(c.slot), first, last, g.reduced.samples - 1, spec_.steady.max_periods,
                          result);
    } else if (c.held_row >= 0) {
      try {
        thread_local SteadyState steady;  // its window's memory kept from case to case
        const StrobeLayout& layout = g.batch->layout(c.slot);
        const int seen = classify_held_row(*g.batch, c.slot, g.first_unkept, c.held_row, layout, spec_.steady, steady);
        record_classified_window(*spec_.model, case_parameters(c), layout, steady, seen, 0, spec_.strobe_points, result);
      } catch (...) {
        record_case_exception(std::current_exception(), result);
      }
    } else {
      try {
        record_steady_state(*spec_.model, case_parameters(c), g.batch->layout(c.slot), *c.detector,
                            spec_.strobe_points, result);
      } catch (...) {
        record_case_exception(std::current_exception(), result);
      }
    }
    // Cases of a group advance together: the group's time so far bounds each one's.
    result.wall_seconds = seconds_between(g.started, Clock::now());
    sink_.finished(c.index, result);
    units_.finished(result.wall_seconds, 1, result.status == CaseStatus::Failed ? 1 : 0);
    if (progress_) progress_->case_done(result.status == CaseStatus::Failed);
    c.detector.reset();
    return result.status == CaseStatus::Failed;
  }

  // Cases a consume pass feeds between two looks at the other groups (keep_device_busy).
  static constexpr std::size_t kSliceCases = 16384;

  const SweepSpec& spec_;
  CaseSink& sink_;
  UnitSource& units_;
  const CompletedCases& completed_;
  ProgressLine* progress_;
  const bool on_device_ = spec_.backend == Backend::Cuda || spec_.backend == Backend::Null;
  std::deque<Group*> queue_;  // groups with a launch in flight or received, oldest launch first
  bool servicing_ = false;    // in keep_device_busy
  double serviced_seconds_ = 0;
  int group_cases_ = 0;
  bool drained_ = false;
  std::vector<long long> pending_;
  std::vector<ParameterSet> parameters_;  // add_group's scratch
  SweepTally::BatchedPhases phases_;
  long long computed_ = 0, failed_ = 0;
};

}  // namespace

std::string backend_device_problem(const SweepSpec& spec) {
  std::string why;
  if (spec.backend != Backend::Cuda || cuda_backend_available(true, why)) return "";
  return "run.backend = cuda: " + why + "; accepted here: cpu, batched";
}

SweepTally compute_sweep_batched(const SweepSpec& spec, CaseSink& sink, bool show_progress, UnitSource& units,
                                 const CompletedCases& completed) {
  SweepTally tally;
  tally.threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  if (const std::string problem = backend_device_problem(spec); !problem.empty()) throw InputError(problem);
  const long long n = spec.case_count();
  long long to_do = n;
  for (long long i = 0; i < n && !completed.done.empty(); ++i) to_do -= completed.has(i) ? 1 : 0;
  ProgressLine progress(show_progress ? n : 0, n - to_do, [&units] { return units.others(); }, spec.progress_seconds);
  const auto started = Clock::now();
  const ThreadCount threads(tally.threads);
  const bool cuda = spec.backend == Backend::Cuda || spec.backend == Backend::Null;  // null stands in for a GPU
  BatchedRun run(spec, sink, units, completed, show_progress ? &progress : nullptr);
  const int group_cases = spec.batch_cases > 0 ? spec.batch_cases
                          : cuda                ? kCudaBatchCases
                                                : kBatchCasesPerThread * tally.threads;
  run.run(kGroupsInFlight, group_cases, tally);
  units.finish();
  if (show_progress) progress.finish();
  tally.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return tally;
}

}  // namespace vibro
