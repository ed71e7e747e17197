#include "analysis/natural_fold.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <sstream>

#include "analysis/arclength_continuation.hpp"

namespace vibro {

namespace {

// Steps of the arclength run that looks for the fold: enough to round it, few enough to stay cheap.
constexpr int kSearchPoints = 40;

thread_local bool search_off = false;

// The real multiplier nearest +1 (NaN when none is real).
double real_multiplier_nearest_one(const PeriodicOrbit& orbit) {
  double nearest = std::nan("");
  for (const auto& mu : orbit.multipliers)
    if (std::fabs(mu.imag()) <= 1e-12 * (1 + std::abs(mu)) && !(std::fabs(mu.real() - 1) >= std::fabs(nearest - 1)))
      nearest = mu.real();
  return nearest;
}

}  // namespace

FoldSearchOff::FoldSearchOff() : was_(search_off) { search_off = true; }
FoldSearchOff::~FoldSearchOff() { search_off = was_; }

std::vector<BranchEvent> fold_just_ahead(const Model& model, ParameterSet values, const std::string& parameter,
                                         const std::vector<BranchPoint>& points, double to, double reach,
                                         int periods, const ContinuationSettings& settings) {
  if (search_off || points.empty()) return {};
  const BranchPoint& last = points.back();
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
    if (e.kind == "fold" && !e.orbit.converged) break;  // arclength's estimate: not located either
    events.push_back(e);
    if (e.kind == "fold") return events;
  }
  if (const auto estimated = fold_by_extrapolation(points, direction)) return {*estimated};
  return {};
}

std::optional<BranchEvent> fold_by_extrapolation(const std::vector<BranchPoint>& points, double direction) {
  if (points.size() < 3) return std::nullopt;
  double p[3], q[3], mu[3];
  for (int i = 0; i < 3; ++i) {
    const BranchPoint& point = points[points.size() - 3 + static_cast<std::size_t>(i)];
    p[i] = point.parameter;
    mu[i] = real_multiplier_nearest_one(point.orbit);
    q[i] = (mu[i] - 1) * (mu[i] - 1);
    if (!(std::fabs(mu[i] - 1) < 0.05)) return std::nullopt;
  }
  if (!(q[0] > q[1] && q[1] > q[2]) || (mu[0] - 1) * (mu[2] - 1) <= 0) return std::nullopt;  // approaching +1, one side
  const double slope = (q[2] - q[1]) / (p[2] - p[1]);
  const double fold = p[2] - q[2] / slope;
  const double on_line = q[1] + slope * (p[0] - p[1]);  // the first point against the last two's line
  if (std::fabs(on_line - q[0]) > 0.1 * q[0]) return std::nullopt;
  if (direction * (fold - p[2]) < 0 || std::fabs(fold - p[2]) > 10 * std::fabs(p[2] - p[1])) return std::nullopt;
  BranchEvent event;
  event.kind = "fold";
  event.parameter = fold;
  event.multiplier = {1.0, 0.0};
  std::ostringstream detail;
  detail << std::setprecision(3) << "estimated, not located: (mu - 1)^2 of the last 3 points (mu - 1 = " << mu[0] - 1
         << ", " << mu[1] - 1 << ", " << mu[2] - 1 << ") extrapolated to zero";
  event.detail = detail.str();
  event.orbit.reason =
      "the fold is estimated, not located: no map reaches it, e.g. where an impact reaches the section t = k T; "
      "a parameter that shifts the excitation's phase moves the section";
  return event;
}

}  // namespace vibro
