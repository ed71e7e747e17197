// Compiled into every model plugin by vibro_add_model(): the plugin's one exported function. The
// plugin's sources register their models as built-in ones do (static vibro::RegisterModel<M>), into
// the plugin's own copy of the registry (its symbols are local to it); this entry point hands them
// to the registry of the vibro that loads the plugin, after that vibro has checked the ABI stamp and
// lent the plugin its case budget (attach).
#include "engine/core/model_registry.hpp"
#include "engine/core/plugin_abi.hpp"

namespace {

// Nothing is thrown back to the host: a failed registration is reported through the registrar.
void hand_over_models(vibro::PluginRegistrar& host) {
  auto& registry = vibro::ModelRegistry::instance();
  for (const auto& why : registry.take_registration_failures()) host.fail(why);
  for (auto& model : registry.release_all()) host.add(std::move(model));
}

void attach(const vibro::PluginHost& host) { vibro::budget_detail::host_active = host.active_budget; }

const vibro::PluginRecord kRecord{vibro::kPluginMagic, vibro::kPluginAbi, &hand_over_models, &attach};

}  // namespace

extern "C" const vibro::PluginRecord* vibro_plugin_entry() { return &kRecord; }
