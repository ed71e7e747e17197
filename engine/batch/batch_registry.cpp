#include "engine/batch/batch_registry.hpp"

namespace vibro {

BatchRegistry& BatchRegistry::instance() {
  static BatchRegistry registry;
  return registry;
}

std::unique_ptr<CaseBatch> BatchRegistry::make(const std::string& model, BatchDevice device,
                                               const CaseLimits& limits) const {
  const auto it = factories_.find(model);
  return it == factories_.end() ? nullptr : it->second(device, limits);
}

}  // namespace vibro
