#include "engine/core/model_registry.hpp"

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"

namespace vibro {

ModelRegistry& ModelRegistry::instance() {
  static ModelRegistry registry;
  return registry;
}

void ModelRegistry::add(std::unique_ptr<Model> model, ModelOrigin origin) {
  const std::string name = model->name();
  if (name.empty()) throw InputError("a model with an empty name cannot be registered");
  const auto it = models_.find(name);
  if (it != models_.end()) {
    const auto& other = it->second.origin;
    throw InputError("model '" + name + "' is already registered " +
                     (other.built_in() ? std::string("as a built-in model") : "by plugin '" + other.file + "'") +
                     "; a model name can be registered once");
  }
  models_.emplace(name, Entry{std::move(model), std::move(origin)});
}

const Model& ModelRegistry::get(const std::string& name) const {
  const auto it = models_.find(name);
  if (it == models_.end()) {
    std::string known;
    for (const auto& entry : models_) known += (known.empty() ? "" : ", ") + entry.first;
    throw InputError("unknown model '" + echoed(name) + "'" + did_you_mean(name, names()) + "; registered models: " + known +
                     " (a model from a plugin needs --plugin FILE, plugin = FILE in the sweep file, or VIBRO_PLUGIN_PATH)");
  }
  return *it->second.model;
}

const ModelOrigin& ModelRegistry::origin(const std::string& name) const {
  get(name);  // the error for an unknown name
  return models_.find(name)->second.origin;
}

std::vector<std::string> ModelRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& entry : models_) names.push_back(entry.first);
  return names;
}

std::vector<std::unique_ptr<Model>> ModelRegistry::release_all() {
  std::vector<std::unique_ptr<Model>> released;
  for (auto& entry : models_) released.push_back(std::move(entry.second.model));
  models_.clear();
  return released;
}

}  // namespace vibro
