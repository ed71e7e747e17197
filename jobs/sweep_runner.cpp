#include "jobs/sweep_runner.hpp"

#include <omp.h>

#include <chrono>

#include "jobs/case_runner.hpp"
#include "jobs/progress_line.hpp"

namespace vibro {

namespace {

// Flattened case indices of the lines along the continuation axis (C order, first axis slowest).
class ContinuationLines {
 public:
  explicit ContinuationLines(const SweepSpec& spec) : descending_(spec.descending) {
    const auto a = static_cast<std::size_t>(spec.continuation_axis);
    length_ = static_cast<int>(spec.axes[a].values.size());
    stride_ = 1;
    for (std::size_t b = a + 1; b < spec.axes.size(); ++b) stride_ *= static_cast<long long>(spec.axes[b].values.size());
    count_ = spec.case_count() / length_;
  }
  long long count() const { return count_; }
  int length() const { return length_; }
  long long line_of(long long index) const {
    return index / (static_cast<long long>(length_) * stride_) * stride_ + index % stride_;
  }
  long long case_index(long long line, int step) const {
    const long long outer = line / stride_, inner = line % stride_;
    const int position = descending_ ? length_ - 1 - step : step;
    return (outer * length_ + position) * stride_ + inner;
  }

 private:
  bool descending_;
  int length_;
  long long stride_, count_;
};

}  // namespace

SweepRun run_sweep(const SweepSpec& spec, bool show_progress, RankShare share, std::vector<CaseResult> done,
                   CaseSink* sink) {
  SweepRun run;
  const long long n = spec.case_count();
  run.cases = std::move(done);
  run.cases.resize(static_cast<std::size_t>(n));
  auto already = [&](long long i) { return run.cases[static_cast<std::size_t>(i)].status != CaseStatus::NotRun; };
  run.threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  // This rank's number of cases: its share of the parallel units (cases, or whole lines).
  const bool lines_mode = spec.continuation_axis >= 0;
  const long long line_length = lines_mode ? static_cast<long long>(spec.axes[static_cast<std::size_t>(spec.continuation_axis)].values.size()) : 1;
  long long to_do = 0;  // this rank's cases not loaded from a checkpoint
  for (long long i = 0; i < n; ++i) {
    const long long unit = lines_mode ? ContinuationLines(spec).line_of(i) : i;
    if (share.owns(unit) && !already(i)) ++to_do;
  }
  ProgressLine progress(show_progress ? to_do : 0);
  const auto started = std::chrono::steady_clock::now();
  if (!lines_mode) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(run.threads)
    for (long long i = 0; i < n; ++i) {
      if (!share.owns(i) || already(i)) continue;
      auto& result = run.cases[static_cast<std::size_t>(i)];
      result = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.record_strobe);
      if (sink) sink->finished(i, result);
      if (show_progress) progress.case_done();
    }
  } else {
    // Independent lines along the continuation axis are the parallel units; within a line each case
    // starts from the previous one's final state.
    const ContinuationLines lines(spec);
#pragma omp parallel for schedule(dynamic, 1) num_threads(run.threads)
    for (long long line = 0; line < lines.count(); ++line) {
      if (!share.owns(line)) continue;
      const StrobeSample* previous = nullptr;
      for (int step = 0; step < lines.length(); ++step) {
        const long long i = lines.case_index(line, step);
        auto& result = run.cases[static_cast<std::size_t>(i)];
        const bool was_done = already(i);
        if (!was_done) {
          result = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.record_strobe, previous);
          if (sink) sink->finished(i, result);
        }
        // A failed case breaks the chain: the next one starts from the model's initial condition.
        previous = result.has_final_state ? &result.final_state : nullptr;
        if (show_progress && !was_done) progress.case_done();
      }
    }
  }
  if (show_progress) progress.finish();
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

}  // namespace vibro
