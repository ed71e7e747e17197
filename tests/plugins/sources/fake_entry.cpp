// Plugins whose entry point the loader must refuse, chosen by VIBRO_TEST_FAKE: one built against
// another vibro (another ABI stamp in its record), one whose entry point returns no record.
#include "engine/core/plugin_abi.hpp"

namespace {

void register_nothing(vibro::PluginRegistrar&) {}

// What a plugin compiled against the headers of vibro 0.0.1 would carry.
const vibro::PluginRecord kOtherVersion{vibro::kPluginMagic, "0.0.1+0123456789abcdef", &register_nothing};

}  // namespace

extern "C" const vibro::PluginRecord* vibro_plugin_entry() {
#if VIBRO_TEST_FAKE == 1
  return &kOtherVersion;
#else
  return nullptr;
#endif
}
