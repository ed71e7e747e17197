#pragma once
// Run-time selection table: each model registers itself from its own source file (as LAMMPS
// styles do), so the engine and the command line never name a model.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

class ModelRegistry {
 public:
  static ModelRegistry& instance();
  void add(std::unique_ptr<Model> model);
  // Throws InputError listing the registered names when `name` is unknown.
  const Model& get(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, std::unique_ptr<Model>> models_;
};

// Usage, at namespace scope in the model's .cpp:  static vibro::RegisterModel<MyModel> reg;
template <class M>
struct RegisterModel {
  RegisterModel() { ModelRegistry::instance().add(std::make_unique<M>()); }
};

}  // namespace vibro
