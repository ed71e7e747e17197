#pragma once
// CaseBatch on CPU threads over a model's host-and-device kernel. A Kernel provides:
//   struct Case;    plain data: one case's constants, start and stepping state
//   struct Sample;  plain data: one stroboscopic sample of one case
//   static Case make(const ParameterSet&);           host, thread-safe; throws what Model::start throws
//   static StrobeLayout layout(const Case&);         host, thread-safe
//     (or, as members of a kernel instance the batch is given, make(values, Case&, StrobeLayout&):
//     a kernel whose layout comes from what it makes the case from; engine/batch/made_cases.hpp)
//   static bool advance(Case&, Sample&);             VIBRO_HD; one period; false: the case failed
//   static void to_strobe(const Case&, const Sample&, StrobeSample&);   host
//   optionally static constexpr StrobeFill kStrobeFill: the fields to_strobe writes, all at every call
//     (engine/batch/strobe_fill.hpp; read_row then compares the others instead of copying them)
//   static bool restart(Case&, const StrobeSample&); host; Simulation::restart_from
//   [[noreturn]] static void throw_failure(const Case&);                host; the CPU path's exception
//   optionally Rules, rules() and reduce(): the kernel reduces a held window (held_reduction.hpp)
// The cases' budgets (engine/core/case_budget.hpp) hold as in the one-case path, except that the
// wall-clock bound is off (cases that advance together share their wall time, so a per-case clock
// means nothing here) and that the periods a case steps past a stop of its detector (fewer than one
// launch, then discarded) count towards its total steps and events too.
#include <omp.h>

#include <cstddef>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/batch/case_batch.hpp"
#include "engine/batch/held_reduction.hpp"
#include "engine/batch/live_set.hpp"
#include "engine/batch/made_cases.hpp"
#include "engine/batch/read_row.hpp"
#include "engine/batch/sample_row_plan.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/core/huge_pages.hpp"

namespace vibro {

template <class Kernel>
class CpuBatch : public CaseBatch {
 public:
  explicit CpuBatch(CaseLimits limits, Kernel kernel = {}) : limits_(limits), kernel_(std::move(kernel)) {
    limits_.wall_seconds = std::numeric_limits<double>::infinity();
  }

  std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) override {
    const std::size_t most = cases_.size() + values.size();  // a first group's, not grown case by case
    taken_.reserve(most);
    slot_.reserve(most);
    failure_.reserve(most);
    return maker_.add(kernel_, values, errors, layouts_, cases_, [this](int slot) {
      live_.add(slot);
      taken_.push_back(0);
      slot_.push_back(0);
      failure_.emplace_back();
    });
  }
  const StrobeLayout& layout(int i) const override { return layouts_[i]; }

  bool hold_samples(int row) override { return rows_.hold<typename Kernel::Sample>(row); }

  void launch(int periods, int unkept) override {
    last_periods_ = periods;
    budget_added_cases();
    const std::vector<int>& live = live_.compact();
    buffer_.resize(rows_.begin_launch(periods, unkept, cases_.size(), live.size(), "CpuBatch"));
    const auto n = static_cast<long long>(live.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (long long j = 0; j < n; ++j) {
      const auto i = static_cast<std::size_t>(live[static_cast<std::size_t>(j)]);
      slot_[i] = static_cast<std::size_t>(j);
      taken_[i] = 0;
      const ActiveBudget active(budgets_[i]);
      typename Kernel::Sample unkept_sample{};  // the unkept periods' samples: overwritten, never read
      typename Kernel::Sample* row = buffer_.data() + rows_.launch_start(i, slot_[i]);
      try {
        for (int k = 0; k < periods; ++k) {
          auto& out = k < unkept ? unkept_sample : row[k - unkept];
          if (!Kernel::advance(cases_[i], out)) Kernel::throw_failure(cases_[i]);
          ++taken_[i];
          begin_budget_periods(1);  // every period starts a new period of the case's budget
        }
      } catch (...) {
        failure_[i] = std::current_exception();
      }
    }
    rows_.end_launch();
    if (reducing_ && rows_.full()) reduce(live);
  }
  bool reduces_held() const override { return ReducesHeldRows<Kernel>::value; }
  void reduce_held(const HeldWindow& window) override {
    window_ = window;
    reducing_ = true;
  }
  void held_summary(int i, HeldSummary& summary, StrobeSample& first, StrobeSample& last) const override {
    summary = summaries_[at(i)];
    const typename Kernel::Sample* window = held_window(at(i));
    window_ends<Kernel>(cases_[at(i)], window[0], window[window_.samples - 1], first, last);
  }
  void clear() override {
    rows_.release();
    reducing_ = false;
    summaries_.clear();
    cases_.clear();
    layouts_.clear();
    budgets_.clear();
    live_.clear();
    taken_.clear();
    slot_.clear();
    failure_.clear();
  }
  int taken(int i) const override { return taken_[at(i)]; }
  void sample(int i, int k, StrobeSample& out) const override {
    Kernel::to_strobe(cases_[at(i)], buffer_[rows_.row(at(i), slot_[at(i)]) + static_cast<std::size_t>(k)], out);
  }
  void samples(int i, int first, int count, StrobeSample* out) const override {
    read_row<Kernel>(cases_[at(i)], buffer_.data() + rows_.row(at(i), slot_[at(i)]) + static_cast<std::size_t>(first),
                     count, out);
  }
  [[noreturn]] void rethrow(int i) const override { std::rethrow_exception(failure_[at(i)]); }
  bool restart(int i, const StrobeSample& sample) override { return Kernel::restart(cases_[at(i)], sample); }
  void retire(int i) override { live_.retire(i); }
  int live() const override { return live_.live(); }

 private:
  static std::size_t at(int i) { return static_cast<std::size_t>(i); }
  // The budgets of the cases added since the last launch, made on all threads. Not in add(): a batch
  // whose cases are never launched (the null back end's, which only makes them) needs none, and add()
  // made them one by one on one thread, a clock read each (and in a batch's first group, on fresh pages).
  void budget_added_cases() {
    const std::size_t from = budgets_.size();
    if (from == cases_.size()) return;
    budgets_.resize(cases_.size());  // uninitialised: made below
    const auto n = static_cast<long long>(cases_.size());
#pragma omp parallel for schedule(static)
    for (long long i = static_cast<long long>(from); i < n; ++i)
      ::new (static_cast<void*>(&budgets_[static_cast<std::size_t>(i)])) CaseBudget(limits_);
  }
  // The window of every case of `live` that completed the last launch, on all OpenMP threads (what a
  // GPU's reduction does beside its samples).
  void reduce(const std::vector<int>& live) {
    if constexpr (ReducesHeldRows<Kernel>::value) {
      const std::vector<typename Kernel::Rules> rules = held_rules<Kernel>(layouts_, window_);
      summaries_.resize(cases_.size());
      const auto n = static_cast<long long>(live.size());
#pragma omp parallel for schedule(dynamic, 64)
      for (long long j = 0; j < n; ++j) {
        const auto i = static_cast<std::size_t>(live[static_cast<std::size_t>(j)]);
        if (taken_[i] < last_periods_) continue;  // it failed: no whole row
        Kernel::reduce(cases_[i], held_window(i), window_.samples,
                       rules[static_cast<std::size_t>(layouts_.kept_index(static_cast<int>(i)))], summaries_[i]);
      }
    }
  }
  // Case i's window in its held row (reduce_held's).
  const typename Kernel::Sample* held_window(std::size_t i) const {
    return buffer_.data() + rows_.row(i, slot_[i]) + static_cast<std::size_t>(window_.first);
  }

  CaseLimits limits_;
  Kernel kernel_;
  CaseArray<Kernel> cases_;
  BatchLayouts layouts_;
  CaseMaker<Kernel> maker_;  // its scratch kept from group to group
  // A vector kept from group to group: a deque's blocks, allocated in add() and freed in clear(),
  // cost some 0.04 s of CPU a 131072-case group (0.3 s on the conveyor's 10^6-case null-back-end map).
  // By case; made at the launch after a case's add() (budget_added_cases).
  std::vector<CaseBudget, UninitialisedHugePageAllocator<CaseBudget>> budgets_;
  LiveSet live_;
  std::vector<int> taken_;
  std::vector<std::size_t> slot_;  // case -> its row of the sample buffer in the last advance
  std::vector<std::exception_ptr> failure_;
  std::vector<typename Kernel::Sample> buffer_;  // the last launch's kept samples, or the held rows
  SampleRowPlan rows_;
  int last_periods_ = 0;            // of the last launch: a case that took fewer failed in it
  bool reducing_ = false;           // reduce_held was called for this group
  HeldWindow window_;               // its window
  std::vector<HeldSummary> summaries_;  // by case, after reduce_held
};

}  // namespace vibro
