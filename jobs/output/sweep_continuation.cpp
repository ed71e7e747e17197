#include "jobs/output/sweep_continuation.hpp"

#include <algorithm>

namespace vibro {

std::vector<std::vector<long long>> continuation_lines(const SweepSpec& spec, const SweepAttractors& attractors) {
  std::vector<std::vector<long long>> out;
  if (spec.global_continuation_axis < 0 || attractors.points.empty()) return out;
  const auto& axes = attractors.parameter_axes;
  const auto position = static_cast<std::size_t>(
      std::find(axes.begin(), axes.end(), static_cast<std::size_t>(spec.global_continuation_axis)) - axes.begin());
  const auto length = static_cast<long long>(spec.axes[axes[position]].values.size());
  long long stride = 1;  // points between neighbours along the axis (C order)
  for (std::size_t b = position + 1; b < axes.size(); ++b) stride *= static_cast<long long>(spec.axes[axes[b]].values.size());
  const auto points = static_cast<long long>(attractors.points.size());
  for (long long line = 0; line < points / length; ++line) {
    const long long outer = line / stride, inner = line % stride;
    out.emplace_back();
    for (long long step = 0; step < length; ++step) out.back().push_back((outer * length + step) * stride + inner);
  }
  return out;
}

SweepContinuation continue_sweep_attractors(const SweepSpec& spec, const SweepAttractors& attractors) {
  SweepContinuation out;
  const auto lines = continuation_lines(spec, attractors);
  if (lines.empty()) return out;
  out.ids.resize(attractors.points.size());
  for (const auto& line : lines) {
    std::vector<PointAttractors> along;
    for (const long long p : line) along.push_back(attractors.points[static_cast<std::size_t>(p)]);
    const GlobalAttractors global = continue_attractors(along, spec.match_distance, spec.match_across_classes);
    for (std::size_t step = 0; step < line.size(); ++step) {
      auto& ids = out.ids[static_cast<std::size_t>(line[step])];
      ids = global.ids[step];
      for (auto& id : ids) id += out.count;  // unique over all lines
    }
    for (AttractorEvent e : global.events) {
      e.point = static_cast<int>(line[static_cast<std::size_t>(e.point)]);
      e.id += out.count;
      if (e.partner >= 0) e.partner += out.count;
      out.events.push_back(e);
    }
    out.count += global.count;
  }
  return out;
}

}  // namespace vibro
