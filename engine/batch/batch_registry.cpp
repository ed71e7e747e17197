#include "engine/batch/batch_registry.hpp"

#include "engine/hybrid_model/described_cuda_batch.hpp"

namespace vibro {

BatchRegistry& BatchRegistry::instance() {
  static BatchRegistry registry;
  return registry;
}

std::unique_ptr<CaseBatch> BatchRegistry::make(const Model& model, BatchDevice device, const CaseLimits& limits) const {
  const auto it = factories_.find(model.name());
  if (it != factories_.end()) return it->second(device, limits);
  if (auto own = model.batch(device, limits)) return own;
  const DescribedCasesBase* described = model.described_cases();
  if (device != BatchDevice::Cuda || !described) return nullptr;
  described->require_traceable("run.backend = cuda");
  return described_cuda_batch(*described, limits);
}

}  // namespace vibro
