#include "jobs/sweep/sweep_runner.hpp"

#include <omp.h>

#include <chrono>

#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/progress_line.hpp"

namespace vibro {

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

SweepRun run_sweep(const SweepSpec& spec, bool show_progress, UnitSource* source, std::vector<CaseResult> done,
                   CaseSink* sink) {
  SweepRun run;
  const long long n = spec.case_count();
  run.cases = std::move(done);
  run.cases.resize(static_cast<std::size_t>(n));
  auto already = [&](long long i) { return run.cases[static_cast<std::size_t>(i)].status != CaseStatus::NotRun; };
  run.threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  StaticSource everything(parallel_units(spec), RankShare{});
  UnitSource& units = source ? *source : everything;
  const bool lines_mode = spec.continuation_axis >= 0;
  const ContinuationLines lines = lines_mode ? ContinuationLines(spec) : ContinuationLines();
  long long to_do = 0;
  for (long long i = 0; i < n; ++i) to_do += already(i) ? 0 : 1;
  ProgressLine progress(show_progress ? to_do : 0, [&units] { return units.others(); });
  const auto started = std::chrono::steady_clock::now();

  // One unit: a case, or a line whose cases run in order, each from the previous one's final state.
  // Returns how many cases it computed and how many of them failed.
  auto compute = [&](long long unit) {
    std::pair<int, int> counts{0, 0};
    const int length = lines_mode ? lines.length() : 1;
    const StrobeSample* previous = nullptr;
    for (int step = 0; step < length; ++step) {
      const long long i = lines_mode ? lines.case_index(unit, step) : unit;
      auto& result = run.cases[static_cast<std::size_t>(i)];
      if (!already(i)) {
        result = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.record_strobe, previous,
                          CaseExtras{spec.floquet, spec.lyapunov_periods});
        if (sink) sink->finished(i, result);
        const bool failed = result.status == CaseStatus::Failed;
        ++counts.first;
        counts.second += failed ? 1 : 0;
        if (show_progress) progress.case_done(failed);
      }
      // A failed case breaks the chain: the next one starts from the model's initial condition.
      previous = result.has_final_state ? &result.final_state : nullptr;
    }
    return counts;
  };
#pragma omp parallel num_threads(run.threads)
  for (long long unit = units.next(); unit >= 0; unit = units.next()) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto [cases, failed] = compute(unit);
    units.finished(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), cases, failed);
  }
  if (show_progress) progress.finish();
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

}  // namespace vibro
