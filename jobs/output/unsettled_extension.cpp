#include "jobs/output/unsettled_extension.hpp"

#include <omp.h>

#include <algorithm>
#include <optional>

#include "analysis/attractor_labels.hpp"
#include "jobs/output/extension_checkpoint.hpp"
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
  return s.valid && !s.settled && !s.aperiodic_steady;
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

UnsettledExtension extend_unsettled_cases(const SweepSpec& spec, ExtendedCaseStore& out, int threads, const ExtensionLog& log) {
  UnsettledExtension tally;
  if (spec.extend_unsettled <= 0 || !spec.record_strobe()) return tally;
  const long long n = out.case_count();
  // What an earlier run of this sweep saved: each case as its last rerun left it. A case whose last
  // rerun failed is done (a failed rerun leaves the case as it was).
  SavedExtension saved;
  if (!log.path.empty()) saved = load_extension_log(log.path, spec);
  tally.damaged = saved.damaged;
  for (auto& [index, result] : saved.latest) out.replace(index, std::move(result));
  saved.latest.clear();
  std::map<long long, int>& runs = saved.runs;  // per case: its reruns so far
  for (const auto& [index, count] : runs) tally.loaded += count;
  const auto goes_on = [&](const CaseResult& c) {
    return c.has_final_state && c.periods_run < spec.extend_unsettled && case_extended(c);
  };
  std::vector<long long> pending;  // cases to run on
#pragma omp parallel num_threads(threads)
  {
    std::vector<long long> mine;
    CaseResult c;
#pragma omp for schedule(static, 256) nowait
    for (long long i = 0; i < n; ++i) {
      if (const auto f = saved.failed.find(i); f != saved.failed.end() && f->second) continue;
      out.read_into(i, c);
      if (goes_on(c)) mine.push_back(i);
    }
#pragma omp critical
    pending.insert(pending.end(), mine.begin(), mine.end());
  }
  std::sort(pending.begin(), pending.end());  // the same rounds whatever the threads
  std::optional<CheckpointWriter> writer;
  if (!log.path.empty() && !pending.empty()) writer.emplace(log.path, log.header, log.flush_seconds, log.stop);
  const auto stopping = [&] { return log.stop && log.stop(); };
  const CaseExtras extras{spec.floquet, spec.shooting, spec.lyapunov_periods, spec.limits};
  while (!pending.empty() && !stopping()) {
    const auto m = static_cast<long long>(pending.size());
    std::vector<CaseResult> results(pending.size());
    std::vector<char> ran(pending.size(), 0), again(pending.size(), 0);
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (long long k = 0; k < m; ++k) {
      if (stopping()) continue;  // a stop signal: no rerun starts, those under way finish
      const auto slot = static_cast<std::size_t>(k);
      const long long i = pending[slot];
      const CaseResult before = out.read(i);
      CaseResult& after = results[slot];
      after = run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.strobe_points, &before.final_state, extras);
      ran[slot] = 1;
      if (after.status == CaseStatus::Ok) {  // a failed one is saved as failed; the case stays as it was
        carry_over(before, after);
        again[slot] = goes_on(after);
      }
      if (writer) writer->finished(i, after);  // its record of the round before is on disk already
    }
    std::vector<long long> next;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      if (!ran[k]) {
        tally.interrupted = true;
        continue;
      }
      ++runs[pending[k]];
      if (results[k].status == CaseStatus::Ok) out.replace(pending[k], std::move(results[k]));
      if (again[k]) next.push_back(pending[k]);
    }
    if (writer) writer->flush();  // a case's records lie in the order of its reruns
    pending = std::move(next);
  }
  tally.interrupted = tally.interrupted || !pending.empty();
  for (const auto& [index, count] : runs) {
    tally.reruns += count;
    ++tally.cases;
    tally.rounds = std::max(tally.rounds, count);
  }
  return tally;
}

}  // namespace vibro
