// A shared library whose vibro_plugin_entry returns no record: the loader must refuse it.
#include "engine/core/plugin_abi.hpp"

extern "C" const vibro::PluginRecord* vibro_plugin_entry() { return nullptr; }
