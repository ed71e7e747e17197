#include "analysis/branch_admissibility.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace vibro {

void check_branch_admissibility(const Model& model, ParameterSet values, const std::string& parameter, int periods,
                                Branch& branch) {
  const int index = values.index_of(parameter);
  if (index < 0 || branch.points.empty()) return;
  for (auto& point : branch.points) {
    values.set_at(index, point.parameter);
    point.admissibility = model.start(values)->admissibility(point.orbit.state, periods);
  }
  const auto& start = branch.points.front().admissibility;
  if (!start.admissible) {
    branch.end += "; not admissible from the start: " + start.violation;
    return;
  }
  for (std::size_t i = 1; i < branch.points.size(); ++i) {
    if (branch.points[i].admissibility.admissible) continue;
    const BranchPoint& last = branch.points[i - 1];
    std::ostringstream where;
    where << "non-physical after " << parameter << " = " << last.parameter << ": "
          << branch.points[i].admissibility.violation;
    // Events come in branch order, each between two consecutive points: keep those on the segments
    // up to the one that crosses into the non-physical part.
    std::vector<BranchEvent> kept;
    std::size_t segment = 0;
    for (const auto& event : branch.events) {
      auto on = [&](std::size_t k) {
        const double a = branch.points[k].parameter, b = branch.points[k + 1].parameter;
        const double slack = 1e-9 * (std::fabs(a) + std::fabs(b) + 1);
        return event.parameter >= std::min(a, b) - slack && event.parameter <= std::max(a, b) + slack;
      };
      while (segment < i && !on(segment)) ++segment;
      if (segment >= i) break;
      kept.push_back(event);
    }
    BranchEvent inadmissible;
    inadmissible.kind = "inadmissible";
    inadmissible.parameter = 0.5 * (last.parameter + branch.points[i].parameter);
    inadmissible.detail = branch.points[i].admissibility.violation;
    kept.push_back(inadmissible);
    branch.events = kept;
    branch.points.erase(branch.points.begin() + static_cast<long>(i), branch.points.end());
    branch.end = where.str();
    return;
  }
}

}  // namespace vibro
