// Compiled into every model plugin by vibro_add_model(): the plugin's one exported function. The
// plugin's sources register their models as built-in ones do (static vibro::RegisterModel<M>), into
// the plugin's own copy of the registry (its symbols are local to it); this entry point hands them
// to the registry of the vibro that loads the plugin, after that vibro has checked the ABI stamp.
#include "engine/core/model_registry.hpp"
#include "engine/core/plugin_abi.hpp"

namespace {

void hand_over_models(vibro::PluginRegistrar& host) {
  for (auto& model : vibro::ModelRegistry::instance().release_all()) host.add(std::move(model));
}

const vibro::PluginRecord kRecord{vibro::kPluginMagic, vibro::kPluginAbi, &hand_over_models};

}  // namespace

extern "C" const vibro::PluginRecord* vibro_plugin_entry() { return &kRecord; }
