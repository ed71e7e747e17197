#include "analysis/natural_fold.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/arclength_continuation.hpp"

namespace vibro {

namespace {

// Steps of the arclength run that looks for the fold: enough to round it, few enough to stay cheap.
constexpr int kSearchPoints = 40;

thread_local bool search_off = false;

}  // namespace

FoldSearchOff::FoldSearchOff() : was_(search_off) { search_off = true; }
FoldSearchOff::~FoldSearchOff() { search_off = was_; }

std::vector<BranchEvent> fold_just_ahead(const Model& model, ParameterSet values, const std::string& parameter,
                                         const BranchPoint& last, double to, double reach, int periods,
                                         const ContinuationSettings& settings) {
  if (search_off) return {};
  const FoldSearchOff inside;
  ContinuationSettings search = settings;
  search.max_points = kSearchPoints;
  search.step = std::max(settings.min_step, std::min(settings.step, reach));
  values.set_at(values.index_of(parameter), last.parameter);
  const Branch around =
      continue_by_arclength(model, values, parameter, last.parameter, to, last.orbit.state, periods, search);
  const double direction = to >= last.parameter ? 1 : -1;
  std::vector<BranchEvent> events;
  for (const auto& e : around.events) {
    if (direction * (e.parameter - last.parameter) < 0 || direction * (e.parameter - last.parameter) > reach) break;
    events.push_back(e);
    if (e.kind == "fold") return events;
  }
  return {};
}

}  // namespace vibro
