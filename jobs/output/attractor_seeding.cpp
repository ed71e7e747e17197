#include "jobs/output/attractor_seeding.hpp"

#include <omp.h>

#include <algorithm>
#include <map>

#include "analysis/attractor_labels.hpp"
#include "jobs/output/sweep_continuation.hpp"
#include "jobs/sweep/case_runner.hpp"

namespace vibro {

namespace {

// Per parameter point: a case of it (its parameters), and per attractor the summary of one case
// that reached it and that case's final state (a state on the attractor).
struct KnownAttractors {
  long long any_case = -1;
  std::vector<OrbitSummary> summaries;
  std::vector<StrobeSample> states;
  std::vector<bool> has_state;
};

std::vector<KnownAttractors> grid_attractors(const SweepSpec& spec, CaseStore& cases, const SweepAttractors& attractors) {
  std::vector<KnownAttractors> known(attractors.points.size());
  for (long long i = 0; i < spec.case_count(); ++i) {
    KnownAttractors& k = known[static_cast<std::size_t>(parameter_point(spec, attractors, i))];
    if (k.any_case < 0) k.any_case = i;
    const auto label = static_cast<std::size_t>(attractors.label[static_cast<std::size_t>(i)]);
    // one case of each label, the first in case order
    if (attractors.label[static_cast<std::size_t>(i)] < 0 || (label < k.summaries.size() && k.summaries[label].valid))
      continue;
    if (label >= k.summaries.size()) {
      k.summaries.resize(label + 1);
      k.states.resize(label + 1);
      k.has_state.resize(label + 1, false);
    }
    const CaseResult c = cases.read(i);
    k.summaries[label] = orbit_summary(c);
    k.states[label] = c.final_state;
    k.has_state[label] = c.has_final_state;
  }
  return known;
}

}  // namespace

SeedTally seed_from_previous_points(const SweepSpec& spec, CaseStore& cases, SweepAttractors& attractors) {
  SeedTally tally;
  if (!spec.seed_from_previous) return tally;
  std::vector<KnownAttractors> known = grid_attractors(spec, cases, attractors);
  // point -> the points its attractors seed: the next along its line, and the one before it (both directions)
  std::map<long long, std::vector<long long>> targets;
  for (const auto& line : continuation_lines(spec, attractors))
    for (std::size_t s = 0; s + 1 < line.size(); ++s) {
      targets[line[s]].push_back(line[s + 1]);
      if (spec.seed_both_directions) targets[line[s + 1]].push_back(line[s]);
    }
  // A seed: the attractor `label` of point `from`, run at point `to`.
  struct Seed {
    long long from;
    std::size_t label;
    long long to;
  };
  std::vector<Seed> seeds;
  for (const auto& [from, to] : targets)
    for (std::size_t l = 0; l < known[static_cast<std::size_t>(from)].summaries.size(); ++l)
      for (const long long t : to) seeds.push_back({from, l, t});
  const CaseExtras extras{false, false, 0, spec.limits};
  while (!seeds.empty()) {
    ++tally.rounds;
    std::vector<CaseResult> results(seeds.size());
    const auto n = static_cast<long long>(seeds.size());
#pragma omp parallel for schedule(dynamic) num_threads(spec.threads > 0 ? spec.threads : omp_get_max_threads())
    for (long long s = 0; s < n; ++s) {
      const Seed& seed = seeds[static_cast<std::size_t>(s)];
      const KnownAttractors& from = known[static_cast<std::size_t>(seed.from)];
      if (!from.has_state[seed.label]) continue;  // left NotRun
      const long long target = known[static_cast<std::size_t>(seed.to)].any_case;
      results[static_cast<std::size_t>(s)] = run_case(*spec.model, spec.case_parameters(target), spec.steady, spec.strobe_points,
                                                      &from.states[seed.label], extras);
    }
    // In seed order, so that two seeds reaching the same new attractor add it once, whatever the threads.
    std::vector<Seed> found;
    for (std::size_t s = 0; s < seeds.size(); ++s) {
      tally.cases += results[s].status == CaseStatus::NotRun ? 0 : 1;
      const OrbitSummary summary = orbit_summary(results[s]);
      if (!summary.valid) continue;
      const long long to = seeds[s].to;
      KnownAttractors& there = known[static_cast<std::size_t>(to)];
      PointAttractors& point = attractors.points[static_cast<std::size_t>(to)];
      // the point's attractors as labelled from the grid, then the seed: a new label is a new attractor
      std::vector<OrbitSummary> compared = there.summaries;
      compared.push_back(summary);
      const AttractorLabels labels =
          label_attractors(compared, std::vector<long long>(compared.size(), 0), {point.scales});
      // the seed is a new attractor when it settled and shares its label with none of the point's
      const int seed_label = labels.label.back();
      if (seed_label < 0 || std::count(labels.label.begin(), labels.label.end() - 1, seed_label) > 0) continue;
      PointAttractor seeded = summarize_point(point.parameter, {summary}, {0}, point.scales).attractors[0];
      seeded.cases = 0;
      point.attractors.push_back(seeded);
      there.summaries.push_back(summary);
      there.states.push_back(results[s].final_state);
      there.has_state.push_back(results[s].has_final_state);
      ++tally.found;
      if (targets.count(to))
        for (const long long t : targets.at(to)) found.push_back({to, there.summaries.size() - 1, t});
    }
    seeds = found;
  }
  return tally;
}

}  // namespace vibro
