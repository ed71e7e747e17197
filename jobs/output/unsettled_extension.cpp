#include "jobs/output/unsettled_extension.hpp"

#include <omp.h>

#include <algorithm>

#include "analysis/attractor_labels.hpp"
#include "jobs/output/sweep_attractors.hpp"
#include "jobs/sweep/case_runner.hpp"

namespace vibro {

CaseResult ExtendedCaseStore::read(long long index) const {
  const auto it = replaced_.find(index);
  return it != replaced_.end() ? it->second : base_.read(index);
}

void ExtendedCaseStore::read_into(long long index, CaseResult& out) const {
  const auto it = replaced_.find(index);
  if (it != replaced_.end()) out = it->second;
  else base_.read_into(index, out);
}

bool case_extended(const CaseResult& c) {
  const OrbitSummary s = orbit_summary(c);
  return s.valid && !s.periodic && !s.aperiodic_steady;
}

namespace {

// The whole-run tallies of the run before go on in the extension's.
void carry_over(const CaseResult& before, CaseResult& after) {
  after.periods_run += before.periods_run;
  after.jumps += before.jumps;
  after.wall_seconds += before.wall_seconds;
  if (after.counters.size() == before.counters.size())
    for (std::size_t k = 0; k < after.counters.size(); ++k) after.counters[k] += before.counters[k];
}

}  // namespace

UnsettledExtension extend_unsettled_cases(const SweepSpec& spec, ExtendedCaseStore& out, int threads) {
  UnsettledExtension tally;
  if (spec.extend_unsettled <= 0 || !spec.record_strobe()) return tally;
  const long long n = out.case_count();
  std::vector<long long> pending;  // cases to run on
  std::vector<char> extended(static_cast<std::size_t>(n), 0);
#pragma omp parallel num_threads(threads)
  {
    std::vector<long long> mine;
    CaseResult c;
#pragma omp for schedule(static, 256) nowait
    for (long long i = 0; i < n; ++i) {
      out.read_into(i, c);
      if (c.has_final_state && c.periods_run < spec.extend_unsettled && case_extended(c)) mine.push_back(i);
    }
#pragma omp critical
    pending.insert(pending.end(), mine.begin(), mine.end());
  }
  std::sort(pending.begin(), pending.end());  // the same rounds whatever the threads
  const CaseExtras extras{spec.floquet, spec.shooting, spec.lyapunov_periods, spec.limits};
  while (!pending.empty()) {
    ++tally.rounds;
    const auto m = static_cast<long long>(pending.size());
    std::vector<CaseResult> results(pending.size());
    std::vector<char> again(pending.size(), 0);
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (long long k = 0; k < m; ++k) {
      const long long i = pending[static_cast<std::size_t>(k)];
      const CaseResult before = out.read(i);
      CaseResult& after = results[static_cast<std::size_t>(k)];
      after = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.strobe_points, &before.final_state, extras);
      if (after.status != CaseStatus::Ok) {
        after = before;  // a failed extension leaves the case as it was
        continue;
      }
      carry_over(before, after);
      again[static_cast<std::size_t>(k)] =
          after.has_final_state && after.periods_run < spec.extend_unsettled && case_extended(after);
    }
    std::vector<long long> next;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      ++tally.reruns;
      if (!extended[static_cast<std::size_t>(pending[k])]) ++tally.cases;
      extended[static_cast<std::size_t>(pending[k])] = 1;
      out.replace(pending[k], std::move(results[k]));
      if (again[k]) next.push_back(pending[k]);
    }
    pending = std::move(next);
  }
  return tally;
}

}  // namespace vibro
