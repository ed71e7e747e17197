#include "jobs/output/sweep_attractors.hpp"

#include <cmath>
#include <complex>

#include "analysis/attractor_labels.hpp"
#include "engine/core/case_budget.hpp"

namespace vibro {

namespace {

// Outcome codes of the basin entropy for cases without a label: infeasible, failed (or not run) and
// unsettled (no steady state within the budget) are outcomes of their own, as in the basin maps.
constexpr int kInfeasibleOutcome = -2, kFailedOutcome = -3, kNotRunOutcome = -4, kUnsettledOutcome = -5;

int unlabelled_outcome(const CaseResult& c) {
  switch (c.status) {
    case CaseStatus::Infeasible: return kInfeasibleOutcome;
    case CaseStatus::NotRun: return kNotRunOutcome;
    default: return kFailedOutcome;  // failed, or ok without a steady state
  }
}

}  // namespace

OrbitSummary orbit_summary(const CaseResult& c) {
  OrbitSummary s;
  s.valid = c.status == CaseStatus::Ok && !c.strobe.empty();
  if (!s.valid) return s;
  s.periodic = has_period(c.periodicity);
  s.settled = c.periodicity == Periodicity::Periodic;
  // only means mode stops a case without a period early
  s.aperiodic_steady = !s.periodic && (c.stopped_early || c.periodicity == Periodicity::QuasiPeriodic);
  s.period = c.period;
  s.class_code = c.class_code.substr(0, c.class_code.find('~'));
  for (const auto& p : c.strobe) s.points.push_back(p.state);
  return s;
}

namespace {

// How a sweep's grid splits into parameter points and the cases within one.
struct PointGrid {
  const SweepSpec& spec;
  std::vector<std::size_t> parameter_axes, initial_axes;
  std::vector<long long> initial_sizes;
  long long points = 1, per_point = 1;

  explicit PointGrid(const SweepSpec& s) : spec(s) {
    const auto& specs = spec.model->parameters();
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
      const bool initial = specs[static_cast<std::size_t>(spec.axis_parameter[a])].group == ParameterGroup::Initial;
      const auto size = static_cast<long long>(spec.axes[a].values.size());
      (initial ? initial_axes : parameter_axes).push_back(a);
      (initial ? per_point : points) *= size;
      if (initial) initial_sizes.push_back(size);
    }
  }
  // Splits `k` into indices along `axes` (first axis slowest), into `where`.
  void place(long long k, const std::vector<std::size_t>& axes, std::vector<std::size_t>& where) const {
    for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
      const auto size = static_cast<long long>(spec.axes[*a].values.size());
      where[*a] = static_cast<std::size_t>(k % size);
      k /= size;
    }
  }
  // The case index of member k of parameter point `point`, in increasing case index (C order).
  // `where`: scratch of one index per axis.
  long long member(long long point, long long k, std::vector<std::size_t>& where) const {
    where.resize(spec.axes.size());
    place(point, parameter_axes, where);
    place(k, initial_axes, where);
    long long i = 0;
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
      i = i * static_cast<long long>(spec.axes[a].values.size()) + static_cast<long long>(where[a]);
    return i;
  }
  double continued_value(long long point) const {
    const int continued = spec.global_continuation_axis;
    if (continued < 0) return 0.0;
    std::vector<std::size_t> where(spec.axes.size());
    place(point, parameter_axes, where);
    const auto a = static_cast<std::size_t>(continued);
    return spec.axes[a].values[where[a]];
  }
};

// The dominant Floquet multiplier of each periodic attractor of `point` (PointAttractor), from its first
// settled member's final state. Members in case order: the result does not depend on threads or ranks.
void fill_floquet_multipliers(const SweepSpec& spec, CaseStore& cases, const std::vector<long long>& members,
                              const std::vector<OrbitSummary>& orbits, const std::vector<int>& labels,
                              PointAttractors& point) {
  const ModelCapabilities can = spec.model->capabilities();
  if (!can.jacobians || !can.restart) return;
  CaseResult c;
  for (std::size_t a = 0; a < point.attractors.size(); ++a) {
    PointAttractor& attractor = point.attractors[a];
    if (!attractor.periodic) continue;
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (labels[k] != static_cast<int>(a) || !orbits[k].settled) continue;
      cases.read_into(members[k], c);
      if (!c.has_final_state) continue;
      try {
        const auto simulation = spec.model->start(spec.case_parameters(members[k]));
        if (!simulation->restart_from(c.final_state)) continue;
        // Floquet multipliers are taken where run() stopped: one period of the orbit from its state.
        struct OnePeriod : StrobeObserver {
          int left;
          explicit OnePeriod(int periods) : left(periods) {}
          bool on_sample(const StrobeSample&) override { return --left > 0; }
        } one_period(c.period);
        begin_budget_periods(c.period);
        simulation->run(one_period);
        begin_budget_periods(c.period);
        const auto multipliers = simulation->floquet_multipliers(c.period);
        std::complex<double> largest{0, 0};
        for (const auto& mu : multipliers)
          if (std::abs(mu) > std::abs(largest)) largest = mu;
        if (!multipliers.empty() && std::fabs(largest.imag()) <= 1e-12 * (1 + std::abs(largest)))
          attractor.floquet_multiplier = largest.real();
      } catch (const std::exception&) {  // a model failure: no multiplier, the labels stand
      }
      break;
    }
  }
}

// Labels one parameter point's cases into `out` (its labels, attractors and basin entropy). The
// point's cases are decoded on `threads` threads (1 when the points themselves run in parallel).
void label_point(const PointGrid& grid, CaseStore& cases, long long point, int threads, SweepAttractors& out) {
  const auto n = static_cast<std::size_t>(grid.per_point);
  std::vector<long long> members(n);
  std::vector<OrbitSummary> orbits(n);
  std::vector<int> outcomes(n);
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    CaseResult c;  // decoded into case after case: a result made afresh is 1.8 KB to clear and several allocations
    std::vector<std::size_t> where;
#pragma omp for schedule(static, 64)
    for (long long k = 0; k < grid.per_point; ++k) {
      const auto m = static_cast<std::size_t>(k);
      members[m] = grid.member(point, k, where);
      cases.read_into(members[m], c);
      outcomes[m] = unlabelled_outcome(c);
      orbits[m] = orbit_summary(c);
    }
  }
  std::vector<std::vector<double>> scales(1);
  for (std::size_t k = 0; k < n && scales[0].empty(); ++k)  // the layout's scales depend on the parameters
    if (orbits[k].valid) scales[0] = grid.spec.model->start(grid.spec.case_parameters(members[k]))->layout().state_scales;
  const AttractorLabels labels = label_attractors(orbits, std::vector<long long>(n, 0), scales);
  for (std::size_t k = 0; k < n; ++k) {
    out.label[static_cast<std::size_t>(members[k])] = labels.label[k];
    if (labels.label[k] >= 0) outcomes[k] = labels.label[k];
    else if (orbits[k].valid) outcomes[k] = kUnsettledOutcome;  // ran to its budget without a steady state
  }
  const auto p = static_cast<std::size_t>(point);
  out.points[p] = summarize_point(grid.continued_value(point), orbits, labels.label, scales[0]);
  fill_floquet_multipliers(grid.spec, cases, members, orbits, labels.label, out.points[p]);
  out.entropy[p] = grid_basin_entropy(outcomes, grid.initial_sizes, kBasinEntropyBox);
}

}  // namespace

SweepAttractors label_sweep_attractors(const SweepSpec& spec, CaseStore& cases, int threads) {
  SweepAttractors out;
  if (!spec.record_strobe()) return out;
  const PointGrid grid(spec);
  out.parameter_axes = grid.parameter_axes;
  for (const auto a : grid.initial_axes) out.initial_axes.push_back(spec.axes[a].name);
  out.label.assign(static_cast<std::size_t>(spec.case_count()), -1);
  out.points.resize(static_cast<std::size_t>(grid.points));
  out.entropy.resize(static_cast<std::size_t>(grid.points));
  // Points are independent (each writes only its own members' labels and its own slots): with enough
  // of them, one a thread; otherwise each point's cases are decoded in parallel. Memory holds one
  // point's orbits a thread.
  const bool by_point = grid.points >= 2LL * threads;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (by_point && threads > 1)
  for (long long point = 0; point < grid.points; ++point) label_point(grid, cases, point, by_point ? 1 : threads, out);
  return out;
}

std::vector<long long> point_cases(const SweepSpec& spec, long long point) {
  const PointGrid grid(spec);
  std::vector<long long> out(static_cast<std::size_t>(grid.per_point));
  std::vector<std::size_t> where;
  for (long long k = 0; k < grid.per_point; ++k) out[static_cast<std::size_t>(k)] = grid.member(point, k, where);
  return out;
}

long long parameter_point(const SweepSpec& spec, const SweepAttractors& attractors, long long index) {
  const std::vector<int> where = spec.grid_indices(index);
  long long point = 0;
  for (const auto a : attractors.parameter_axes)
    point = point * static_cast<long long>(spec.axes[a].values.size()) + where[a];
  return point;
}

}  // namespace vibro
