#include "engine/batch/batch_registry.hpp"

namespace vibro {

BatchRegistry& BatchRegistry::instance() {
  static BatchRegistry registry;
  return registry;
}

std::unique_ptr<CaseBatch> BatchRegistry::make(const Model& model, BatchDevice device, const CaseLimits& limits) const {
  const auto it = factories_.find(model.name());
  return it == factories_.end() ? model.batch(device, limits) : it->second(device, limits);
}

}  // namespace vibro
