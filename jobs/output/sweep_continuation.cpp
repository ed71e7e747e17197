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

namespace {

// Between each point of a line and the one before it: the initial conditions shared by the basins of
// their attractors (/cases/attractor at the same place in both points' grids).
std::vector<BasinOverlap> line_overlaps(const SweepSpec& spec, const SweepAttractors& attractors,
                                        const std::vector<long long>& line) {
  std::vector<BasinOverlap> out(line.size());
  std::vector<long long> before = point_cases(spec, line[0]);
  for (std::size_t step = 1; step < line.size(); ++step) {
    const std::vector<long long> after = point_cases(spec, line[step]);
    BasinOverlap& shared = out[step];
    shared.assign(attractors.points[static_cast<std::size_t>(line[step - 1])].attractors.size(),
                  std::vector<long long>(attractors.points[static_cast<std::size_t>(line[step])].attractors.size(), 0));
    for (std::size_t k = 0; k < after.size(); ++k) {
      const int i = attractors.label[static_cast<std::size_t>(before[k])], j = attractors.label[static_cast<std::size_t>(after[k])];
      if (i >= 0 && j >= 0) ++shared[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    }
    before = after;
  }
  return out;
}

}  // namespace

SweepContinuation continue_sweep_attractors(const SweepSpec& spec, const SweepAttractors& attractors) {
  SweepContinuation out;
  const auto lines = continuation_lines(spec, attractors);
  if (lines.empty()) return out;
  out.ids.resize(attractors.points.size());
  for (const auto& line : lines) {
    std::vector<PointAttractors> along;
    for (const long long p : line) along.push_back(attractors.points[static_cast<std::size_t>(p)]);
    // the shared initial conditions decide between an orbit and its period doubling, whatever the method
    const GlobalAttractors global = continue_attractors(along, spec.match, line_overlaps(spec, attractors, line));
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
