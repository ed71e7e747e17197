#include "jobs/sweep/model_features.hpp"

#include <string>

#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

const char* kNoRestart = "it cannot restart a simulation from a stroboscopic state (Simulation::restart_from)";
const char* kNoJacobians =
    "it provides no Jacobian of its stroboscopic map (Simulation::stroboscopic_map and floquet_multipliers; a model "
    "written against the hybrid-model API gets them automatically)";

const char* kNoTrace =
    "it reports no time history (Simulation::trace_layout and attach_trace; a model written against the hybrid-model "
    "API gets them automatically)";

void refuse(const Model& model, const std::string& asked, const char* lacks) {
  throw InputError("model '" + model.name() + "' cannot serve " + asked + ": " + lacks);
}

}  // namespace

void require_model_features(const SweepSpec& spec) {
  const ModelCapabilities has = spec.model->capabilities();
  if (spec.continuation_axis >= 0 && !has.restart)
    refuse(*spec.model, "run.continuation = " + spec.axes[static_cast<std::size_t>(spec.continuation_axis)].name, kNoRestart);
  if (spec.seed_from_previous && !has.restart) refuse(*spec.model, "analysis.seed_from_previous = true", kNoRestart);
  if (spec.extend_unsettled > 0 && !has.restart)
    refuse(*spec.model, "run.extend_unsettled = " + std::to_string(spec.extend_unsettled), kNoRestart);
  if (has.jacobians) return;
  if (spec.shooting) refuse(*spec.model, "output.shooting = true", kNoJacobians);
  if (spec.floquet) refuse(*spec.model, "output.floquet = true", kNoJacobians);
  if (spec.lyapunov_periods > 0)
    refuse(*spec.model, "output.lyapunov_periods = " + std::to_string(spec.lyapunov_periods), kNoJacobians);
}

void require_continuation_features(const Model& model) {
  const ModelCapabilities has = model.capabilities();
  if (!has.restart) refuse(model, "vibro continue", kNoRestart);
  if (!has.jacobians) refuse(model, "vibro continue", kNoJacobians);
}

void require_trace_features(const Model& model) {
  if (!model.capabilities().trace) refuse(model, "vibro trace", kNoTrace);
}

}  // namespace vibro
