#include "jobs/output/sweep_continuation.hpp"

#include <algorithm>

namespace vibro {

SweepContinuation continue_sweep_attractors(const SweepSpec& spec, const SweepAttractors& attractors) {
  SweepContinuation out;
  if (spec.global_continuation_axis < 0 || attractors.points.empty()) return out;
  const auto& axes = attractors.parameter_axes;
  const auto position = static_cast<std::size_t>(
      std::find(axes.begin(), axes.end(), static_cast<std::size_t>(spec.global_continuation_axis)) - axes.begin());
  const auto length = static_cast<long long>(spec.axes[axes[position]].values.size());
  long long stride = 1;  // points between neighbours along the axis (C order)
  for (std::size_t b = position + 1; b < axes.size(); ++b) stride *= static_cast<long long>(spec.axes[axes[b]].values.size());
  const auto points = static_cast<long long>(attractors.points.size());
  out.ids.resize(attractors.points.size());
  for (long long line = 0; line < points / length; ++line) {
    const long long outer = line / stride, inner = line % stride;
    const auto point_of = [&](long long step) { return (outer * length + step) * stride + inner; };
    std::vector<PointAttractors> along;
    for (long long step = 0; step < length; ++step) along.push_back(attractors.points[static_cast<std::size_t>(point_of(step))]);
    const GlobalAttractors global = continue_attractors(along, spec.match_distance, spec.match_across_classes);
    for (long long step = 0; step < length; ++step) {
      auto& ids = out.ids[static_cast<std::size_t>(point_of(step))];
      ids = global.ids[static_cast<std::size_t>(step)];
      for (auto& id : ids) id += out.count;  // unique over all lines
    }
    for (AttractorEvent e : global.events) {
      e.point = static_cast<int>(point_of(e.point));
      e.id += out.count;
      if (e.partner >= 0) e.partner += out.count;
      out.events.push_back(e);
    }
    out.count += global.count;
  }
  return out;
}

}  // namespace vibro
