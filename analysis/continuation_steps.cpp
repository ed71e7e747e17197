#include "analysis/continuation_steps.hpp"

#include <algorithm>
#include <cmath>

namespace vibro {

ContinuationSettings steps_for_range(ContinuationSettings settings, double from, double to, const StepRequest& given) {
  const double size = std::max(std::fabs(from), std::fabs(to));
  const double span = std::max(std::fabs(to - from), std::max(1e-9 * size, 1e-300));
  settings.max_step = given.max_step ? *given.max_step : std::max(span / kRangeSegments, given.step.value_or(0.0));
  settings.step = given.step ? *given.step : std::min(span / kFirstStepSegments, settings.max_step);
  settings.min_step = std::min({kMinStepFraction * span, kMinStepCeiling, settings.step});
  return settings;
}

}  // namespace vibro
