#include "jobs/output/sweep_attractors.hpp"

#include "analysis/attractor_labels.hpp"

namespace vibro {

namespace {

// Outcome codes of the basin entropy for cases without a label: infeasible and failed (or not run)
// are outcomes of their own, as in the basin maps.
constexpr int kInfeasibleOutcome = -2, kFailedOutcome = -3, kNotRunOutcome = -4;

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
  s.period = c.period;
  s.class_code = c.class_code.substr(0, c.class_code.find('~'));
  for (const auto& p : c.strobe) s.points.push_back(p.state);
  return s;
}

SweepAttractors label_sweep_attractors(const SweepSpec& spec, CaseStore& cases) {
  SweepAttractors out;
  if (!spec.record_strobe) return out;
  const auto& specs = spec.model->parameters();
  // Axes split into parameter axes (which point) and initial-condition axes (which case within it).
  std::vector<std::size_t> initial_axes;
  std::vector<long long> initial_sizes;
  long long points = 1, per_point = 1;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const bool initial = specs[static_cast<std::size_t>(spec.axis_parameter[a])].group == ParameterGroup::Initial;
    const auto size = static_cast<long long>(spec.axes[a].values.size());
    (initial ? initial_axes : out.parameter_axes).push_back(a);
    (initial ? per_point : points) *= size;
    if (initial) {
      out.initial_axes.push_back(spec.axes[a].name);
      initial_sizes.push_back(size);
    }
  }
  out.label.assign(static_cast<std::size_t>(spec.case_count()), -1);
  std::vector<std::size_t> where(spec.axes.size());
  // Splits `k` into indices along `axes` (first axis slowest), into `where`.
  const auto place = [&](long long k, const std::vector<std::size_t>& axes) {
    for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
      const auto size = static_cast<long long>(spec.axes[*a].values.size());
      where[*a] = static_cast<std::size_t>(k % size);
      k /= size;
    }
  };
  const int continued = spec.global_continuation_axis;
  for (long long point = 0; point < points; ++point) {
    place(point, out.parameter_axes);
    std::vector<long long> members(static_cast<std::size_t>(per_point));
    std::vector<OrbitSummary> orbits(members.size());
    std::vector<int> outcomes(members.size());
    std::vector<std::vector<double>> scales(1);
    for (long long k = 0; k < per_point; ++k) {  // in increasing case index (C order)
      place(k, initial_axes);
      long long i = 0;
      for (std::size_t a = 0; a < spec.axes.size(); ++a)
        i = i * static_cast<long long>(spec.axes[a].values.size()) + static_cast<long long>(where[a]);
      members[static_cast<std::size_t>(k)] = i;
      const CaseResult c = cases.read(i);
      outcomes[static_cast<std::size_t>(k)] = unlabelled_outcome(c);
      orbits[static_cast<std::size_t>(k)] = orbit_summary(c);
      if (orbits[static_cast<std::size_t>(k)].valid && scales[0].empty())  // the layout's scales depend on the parameters
        scales[0] = spec.model->start(spec.case_parameters(i))->layout().state_scales;
    }
    const AttractorLabels labels = label_attractors(orbits, std::vector<long long>(members.size(), 0), scales);
    for (std::size_t k = 0; k < members.size(); ++k) {
      out.label[static_cast<std::size_t>(members[k])] = labels.label[k];
      if (labels.label[k] >= 0) outcomes[k] = labels.label[k];
    }
    const double parameter = continued < 0 ? 0.0 : spec.axes[static_cast<std::size_t>(continued)].values[where[static_cast<std::size_t>(continued)]];
    out.points.push_back(summarize_point(parameter, orbits, labels.label, scales[0]));
    out.entropy.push_back(grid_basin_entropy(outcomes, initial_sizes, kBasinEntropyBox));
  }
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
