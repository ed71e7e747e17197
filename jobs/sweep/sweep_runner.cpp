#include "jobs/sweep/sweep_runner.hpp"

#include <omp.h>

#include <chrono>

#include "jobs/sweep/batched_sweep.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/progress_line.hpp"

namespace vibro {

void CaseSink::finished_summaries(const SummaryCase* cases, std::size_t count) {
  thread_local CaseResult result;
  for (std::size_t k = 0; k < count; ++k) {
    result = empty_case_result();
    record_summary_case(cases[k], result);
    finished(cases[k].index, result);
  }
}

namespace {

// Flattened case indices of the lines along the continuation axis (C order, first axis slowest).
class ContinuationLines {
 public:
  ContinuationLines() = default;
  explicit ContinuationLines(const SweepSpec& spec) : descending_(spec.descending) {
    const auto a = static_cast<std::size_t>(spec.continuation_axis);
    length_ = static_cast<int>(spec.axes[a].values.size());
    stride_ = 1;
    for (std::size_t b = a + 1; b < spec.axes.size(); ++b) stride_ *= static_cast<long long>(spec.axes[b].values.size());
    count_ = spec.case_count() / length_;
  }
  long long count() const { return count_; }
  int length() const { return length_; }
  long long case_index(long long line, int step) const {
    const long long outer = line / stride_, inner = line % stride_;
    const int position = descending_ ? length_ - 1 - step : step;
    return (outer * length_ + position) * stride_ + inner;
  }

 private:
  bool descending_ = false;
  int length_ = 1;
  long long stride_ = 1, count_ = 0;
};

}  // namespace

long long parallel_units(const SweepSpec& spec) {
  return spec.continuation_axis < 0 ? spec.case_count() : ContinuationLines(spec).count();
}

SweepTally compute_sweep(const SweepSpec& spec, CaseSink& sink, bool show_progress, UnitSource* source,
                         const CompletedCases& completed) {
  SweepTally tally;
  const long long n = spec.case_count();
  tally.threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  StaticSource everything(parallel_units(spec), RankShare{});
  UnitSource& units = source ? *source : everything;
  if (spec.backend != Backend::Cpu) return compute_sweep_batched(spec, sink, show_progress, units, completed);
  const bool lines_mode = spec.continuation_axis >= 0;
  const ContinuationLines lines = lines_mode ? ContinuationLines(spec) : ContinuationLines();
  long long to_do = n;
  for (long long i = 0; i < n && !completed.done.empty(); ++i) to_do -= completed.has(i) ? 1 : 0;
  ProgressLine progress(show_progress ? n : 0, n - to_do, [&units] { return units.others(); }, spec.progress_seconds);
  const auto started = std::chrono::steady_clock::now();

  // One unit: a case, or a line whose cases run in order, each from the previous one's final state.
  // Returns how many cases it computed and how many of them failed.
  auto compute = [&](long long unit) {
    std::pair<int, int> counts{0, 0};
    const int length = lines_mode ? lines.length() : 1;
    StrobeSample previous{};
    bool has_previous = false;
    for (int step = 0; step < length && !(step > 0 && units.stopping()); ++step) {
      const long long i = lines_mode ? lines.case_index(unit, step) : unit;
      if (completed.has(i)) {
        const auto state = completed.final_state.find(i);
        has_previous = state != completed.final_state.end();
        if (has_previous) previous = state->second;
        continue;
      }
      const CaseResult result = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.strobe_points,
                                         has_previous ? &previous : nullptr,
                                         CaseExtras{spec.floquet, spec.shooting, spec.lyapunov_periods, spec.limits});
      sink.finished(i, result);
      const bool failed = result.status == CaseStatus::Failed;
      ++counts.first;
      counts.second += failed ? 1 : 0;
      if (show_progress) progress.case_done(failed);
      // A failed case breaks the chain: the next one starts from the model's initial condition.
      has_previous = result.has_final_state;
      if (has_previous) previous = result.final_state;
    }
    return counts;
  };
  long long computed = 0, failed = 0;
#pragma omp parallel num_threads(tally.threads) reduction(+ : computed, failed)
  for (long long unit = units.next(); unit >= 0; unit = units.next()) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto [cases, failures] = compute(unit);
    computed += cases;
    failed += failures;
    units.finished(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), cases, failures);
  }
  units.finish();
  if (show_progress) progress.finish();
  tally.computed = computed;
  tally.failed = failed;
  tally.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return tally;
}

namespace {

// Each case lands in its own slot: no two threads write the same element.
class MemorySink : public CaseSink {
 public:
  explicit MemorySink(std::vector<CaseResult>& cases) : cases_(cases) {}
  void finished(long long index, const CaseResult& result) override { cases_[static_cast<std::size_t>(index)] = result; }

 private:
  std::vector<CaseResult>& cases_;
};

}  // namespace

SweepRun run_sweep(const SweepSpec& spec) {
  SweepRun run;
  run.cases.resize(static_cast<std::size_t>(spec.case_count()));
  MemorySink sink(run.cases);
  const SweepTally tally = compute_sweep(spec, sink);
  run.threads = tally.threads;
  run.wall_seconds = tally.wall_seconds;
  return run;
}

}  // namespace vibro
