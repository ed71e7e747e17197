#pragma once
// The pre-flight check of what a sweep or a continuation asks of its model against what the model
// provides (Model::capabilities): a feature the model cannot serve is an InputError naming the
// model, the key that asks for it and what the model lacks, before any case starts, instead of a
// sweep of failed cases or empty arrays.
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// Continuation along an axis needs restarts; output.floquet, output.shooting and
// output.lyapunov_periods need the stroboscopic map's Jacobian.
void require_model_features(const SweepSpec& spec);

// `vibro continue` restarts from each orbit and shoots with the map's Jacobian: both.
void require_continuation_features(const Model& model);

// `vibro trace` (and vibro.simulate) needs the model's time history (Simulation::attach_trace).
void require_trace_features(const Model& model);

}  // namespace vibro
