#include "engine/core/model_registry.hpp"

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"

namespace vibro {

ModelRegistry& ModelRegistry::instance() {
  static ModelRegistry registry;
  return registry;
}

void ModelRegistry::add(std::unique_ptr<Model> model) {
  const std::string name = model->name();
  models_[name] = std::move(model);
}

const Model& ModelRegistry::get(const std::string& name) const {
  const auto it = models_.find(name);
  if (it == models_.end()) {
    std::string known;
    for (const auto& entry : models_) known += (known.empty() ? "" : ", ") + entry.first;
    throw InputError("unknown model '" + echoed(name) + "'" + did_you_mean(name, names()) + "; registered models: " + known);
  }
  return *it->second;
}

std::vector<std::string> ModelRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& entry : models_) names.push_back(entry.first);
  return names;
}

}  // namespace vibro
