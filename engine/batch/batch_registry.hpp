#pragma once
// Which models have a batched kernel (engine/batch/case_batch.hpp), by model name: a model registers
// its batch factory from its own source file, as it registers itself in the ModelRegistry, so the
// runner that drives batches never names a model and models without a kernel need no change.
#include <map>
#include <memory>
#include <string>

#include "engine/batch/case_batch.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/core/model.hpp"

namespace vibro {

// A batch of the model's cases on `device`; nullptr when the build has no kernel for that device.
using BatchFactory = std::unique_ptr<CaseBatch> (*)(BatchDevice device, const CaseLimits& limits);

class BatchRegistry {
 public:
  static BatchRegistry& instance();
  void add(const std::string& model, BatchFactory factory) { factories_[model] = factory; }
  // The registered kernel's batch, else the model's own (Model::batch), else, on a GPU, the host's
  // batch of a model of the hybrid-model API (its fields' tapes); nullptr when there is none.
  std::unique_ptr<CaseBatch> make(const Model& model, BatchDevice device, const CaseLimits& limits) const;

 private:
  std::map<std::string, BatchFactory> factories_;
};

// Usage, at namespace scope in the model's .cpp:  static vibro::RegisterBatch reg("name", factory);
struct RegisterBatch {
  RegisterBatch(const char* model, BatchFactory factory) { BatchRegistry::instance().add(model, factory); }
};

}  // namespace vibro
