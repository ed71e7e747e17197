// The conveyor's host side of ConveyorBatchKernel and its CPU batch (run.backend = batched).
#include "analysis/steady_state.hpp"
#include "engine/batch/batch_registry.hpp"
#include "engine/batch/cpu_batch.hpp"
#include "models/conveyor/conveyor_batch.hpp"
#include "models/conveyor/conveyor_kernel_host.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor {

ConveyorBatchKernel::Case ConveyorBatchKernel::make(const ParameterSet& values) {
  return {ConveyorConstants::from(values), ConveyorStart::from(values), ConveyorState{}};
}

StrobeLayout ConveyorBatchKernel::layout(const Case& k) { return conveyor_layout(k.c); }

bool ConveyorBatchKernel::shares_layout(const Case& a, const Case& b) {
  return same_bits(a.c.g, b.c.g) && same_bits(a.c.omega, b.c.omega) && same_bits(a.c.period, b.c.period);
}

WindowRules ConveyorBatchKernel::rules(const StrobeLayout& layout, const HeldWindow& window) {
  SteadyStateSettings settings;
  settings.tol = window.tol;
  settings.max_period = window.max_period;
  settings.quasi_min_window = window.quasi_min_window;
  settings.quasi_tol = window.quasi_tol;
  return window_rules(layout, settings);
}

void ConveyorBatchKernel::to_strobe(const Case& k, const Sample& s, StrobeSample& out) { fill_sample(k.c, s, out); }

bool ConveyorBatchKernel::restart(Case& k, const StrobeSample& sample) { return restart_state(k.c, k.state, sample); }

void ConveyorBatchKernel::throw_failure(const Case& k) { throw_kernel_stop(k.c, k.state); }

std::unique_ptr<CaseBatch> conveyor_batch(BatchDevice device, const CaseLimits& limits) {
  if (device == BatchDevice::Cuda) return conveyor_cuda_batch(limits);
  return std::make_unique<CpuBatch<ConveyorBatchKernel>>(limits);
}

static RegisterBatch registration("conveyor", conveyor_batch);

}  // namespace vibro::conveyor
