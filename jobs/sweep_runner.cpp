#include "jobs/sweep_runner.hpp"

#include <omp.h>

#include <chrono>

#include "jobs/case_runner.hpp"
#include "jobs/progress_line.hpp"

namespace vibro {

SweepRun run_sweep(const SweepSpec& spec, bool show_progress) {
  SweepRun run;
  const long long n = spec.case_count();
  run.cases.resize(static_cast<std::size_t>(n));
  run.threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  ProgressLine progress(show_progress ? n : 0);
  const auto started = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic, 1) num_threads(run.threads)
  for (long long i = 0; i < n; ++i) {
    run.cases[static_cast<std::size_t>(i)] =
        run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.record_strobe);
    if (show_progress) progress.case_done();
  }
  if (show_progress) progress.finish();
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

}  // namespace vibro
