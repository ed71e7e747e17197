#pragma once
// The contract between vibro and a model plugin (a shared library built with vibro_add_model): the
// plugin exports one C function, vibro_plugin_entry, returning a PluginRecord. vibro reads the magic
// first (any plugin version lays it out the same), then the ABI stamp, and only when both are its own
// calls attach (lending the plugin what must be the host's, not the plugin's copy) and then
// register_models with a registrar that adds to its registry.
#include <cstdint>
#include <memory>
#include <string>

#include "engine/core/case_budget.hpp"
#include "engine/core/model.hpp"
#include "vibro/plugin_abi_hash.hpp"  // generated: kPluginAbi

namespace vibro {

inline constexpr std::uint64_t kPluginMagic = 0x31676c7072626976ULL;  // "vibrplg1", little-endian
inline constexpr const char* kPluginEntryName = "vibro_plugin_entry";

// Receives the plugin's models; the loading vibro checks each name. A plugin whose registration
// failed (a model's constructor threw) reports why instead of throwing across the boundary.
class PluginRegistrar {
 public:
  virtual void add(std::unique_ptr<Model> model) = 0;
  virtual void fail(const std::string& why) = 0;

 protected:
  ~PluginRegistrar() = default;
};

// What the loading vibro lends a plugin. The plugin links its own copy of the engine, so its copy of
// a thread-local or a static is not the host's: the case budget the runner installs is reached
// through the host's accessor (without it a plugin model's steps and events would go uncharged).
struct PluginHost {
  CaseBudget* (*active_budget)();
};

struct PluginRecord {
  std::uint64_t magic;                            // kPluginMagic
  const char* abi;                                // the kPluginAbi the plugin was compiled with
  void (*register_models)(PluginRegistrar& host);
  void (*attach)(const PluginHost& host);         // called once, before register_models
};

}  // namespace vibro

extern "C" __attribute__((visibility("default"))) const vibro::PluginRecord* vibro_plugin_entry();
