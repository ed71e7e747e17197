#include "jobs/output/sweep_attractors.hpp"

namespace vibro {

SweepAttractors label_sweep_attractors(const SweepSpec& spec, const SweepRun& run) {
  SweepAttractors out;
  if (!spec.record_strobe) return out;
  const auto& specs = spec.model->parameters();
  std::vector<bool> initial(spec.axes.size());
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    initial[a] = specs[static_cast<std::size_t>(spec.axis_parameter[a])].group == ParameterGroup::Initial;
    if (initial[a]) out.initial_axes.push_back(spec.axes[a].name);
  }
  // Parameter point: the flattened index over the axes that are not initial conditions.
  const long long n = spec.case_count();
  out.group.resize(static_cast<std::size_t>(n));
  long long groups = 1;
  for (std::size_t a = 0; a < spec.axes.size(); ++a)
    if (!initial[a]) groups *= static_cast<long long>(spec.axes[a].values.size());
  std::vector<std::vector<double>> scales(static_cast<std::size_t>(groups));
  std::vector<OrbitSummary> orbits(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    const auto where = spec.grid_indices(i);
    long long g = 0;
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
      if (!initial[a]) g = g * static_cast<long long>(spec.axes[a].values.size()) + where[a];
    out.group[static_cast<std::size_t>(i)] = g;
    const CaseResult& c = run.cases[static_cast<std::size_t>(i)];
    OrbitSummary& s = orbits[static_cast<std::size_t>(i)];
    s.valid = c.status == CaseStatus::Ok && !c.strobe.empty();
    if (!s.valid) continue;
    if (scales[static_cast<std::size_t>(g)].empty())  // the layout's scales depend on the parameters
      scales[static_cast<std::size_t>(g)] = spec.model->start(spec.case_parameters(i))->layout().state_scales;
    s.periodic = c.periodicity != Periodicity::NotConverged && c.period > 0;
    s.settled = c.periodicity == Periodicity::Periodic;
    s.period = c.period;
    s.class_code = c.class_code.substr(0, c.class_code.find('~'));
    for (const auto& p : c.strobe) s.points.push_back(p.state);
  }
  out.labels = label_attractors(orbits, out.group, scales);
  return out;
}

}  // namespace vibro
