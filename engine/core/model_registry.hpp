#pragma once
// Run-time selection table: each model registers itself from its own source file (as LAMMPS
// styles do), so the engine and the command line never name a model. Plugins add theirs when loaded.
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

// Where a registered model comes from: built into vibro (file empty) or a plugin file.
struct ModelOrigin {
  std::string file;      // the plugin's path as loaded; empty: built in
  std::string identity;  // what checkpoints compare: the plugin's ABI stamp and content hash
  bool built_in() const { return file.empty(); }
};

class ModelRegistry {
 public:
  static ModelRegistry& instance();
  // Throws InputError when the name is empty or already registered, naming where the other one
  // comes from (a model from elsewhere must never silently replace one the user asked for).
  void add(std::unique_ptr<Model> model, ModelOrigin origin = {});
  // Throws InputError listing the registered names when `name` is unknown.
  const Model& get(const std::string& name) const;
  const ModelOrigin& origin(const std::string& name) const;
  std::vector<std::string> names() const;
  // Empties the table and returns its models: a plugin hands the models it registered to the vibro
  // that loads it (cmake/package/vibro_plugin_entry.cpp).
  std::vector<std::unique_ptr<Model>> release_all();
  // Why a RegisterModel failed (its model's constructor threw), in order; emptied when read. Kept,
  // not thrown: registrations run as static initialisers, inside dlopen for a plugin, where an
  // exception ends the process. The plugin's entry point or vibro's main reports them.
  void registration_failed(std::string why) { failures_.push_back(std::move(why)); }
  std::vector<std::string> take_registration_failures() { return std::exchange(failures_, {}); }

 private:
  struct Entry {
    std::unique_ptr<Model> model;
    ModelOrigin origin;
  };
  std::map<std::string, Entry> models_;
  std::vector<std::string> failures_;
};

// Usage, at namespace scope in the model's .cpp:  static vibro::RegisterModel<MyModel> reg;
template <class M>
struct RegisterModel {
  RegisterModel() {
    try {
      ModelRegistry::instance().add(std::make_unique<M>());
    } catch (const std::exception& e) {
      ModelRegistry::instance().registration_failed(e.what());
    } catch (...) {
      ModelRegistry::instance().registration_failed("an exception that is not a std::exception");
    }
  }
};

}  // namespace vibro
