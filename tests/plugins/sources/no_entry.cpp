// A shared library that is not a vibro plugin: it exports a function, but not vibro_plugin_entry.
extern "C" int not_a_vibro_plugin() { return 1; }
