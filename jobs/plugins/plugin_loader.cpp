#include "jobs/plugins/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/core/plugin_abi.hpp"
#include "model_files/load_model_file.hpp"
#include "vibro/version.hpp"

namespace vibro {

namespace fs = std::filesystem;

namespace {

// FNV-1a over the file's bytes: a resumed sweep must run the very plugin its checkpoints came from.
std::string content_hash(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::uint64_t hash = 1469598103934665603ULL;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    hash ^= static_cast<unsigned char>(*it);
    hash *= 1099511628211ULL;
  }
  std::ostringstream hex;
  hex << std::hex << hash;
  return hex.str();
}

// Adds the plugin's models to the registry; the first refusal is kept, not thrown, so that no
// exception unwinds through the plugin's frames.
class Registrar final : public PluginRegistrar {
 public:
  explicit Registrar(ModelOrigin origin) : origin_(std::move(origin)) {}
  void add(std::unique_ptr<Model> model) override {
    if (!model || !error_.empty()) return;
    try {
      ModelRegistry::instance().add(std::move(model), origin_);
      ++added_;
    } catch (const InputError& e) {
      error_ = e.what();
    }
  }
  void fail(const std::string& why) override {
    if (error_.empty()) error_ = "registering its models failed: " + why;
  }
  int added() const { return added_; }
  const std::string& error() const { return error_; }

 private:
  ModelOrigin origin_;
  int added_ = 0;
  std::string error_;
};

std::set<std::string>& loaded_files() {
  static std::set<std::string> files;
  return files;
}

std::string refusal(const std::string& file, const std::string& why) { return "plugin '" + file + "' " + why; }

// Lent to every plugin: this vibro's own budget of the calling thread's case.
CaseBudget* host_active_budget() { return budget_detail::active; }

}  // namespace

void load_plugin(const std::string& file) {
  if (is_model_file(file)) {  // a model file travels as a plugin does (resumed runs, batch jobs' ranks)
    load_model_file(file);
    return;
  }
  std::error_code error;
  if (file.find_first_not_of(" \t") == std::string::npos)
    throw InputError("--plugin / plugin = '" + file + "' is empty; expected the path of a model plugin (NAME.so)");
  if (!fs::is_regular_file(file, error))
    throw InputError(refusal(file, fs::exists(file, error) ? "is not a regular file" : "does not exist") +
                     "; expected the path of a model plugin (NAME.so, built with vibro_add_model)");
  const std::string path = fs::canonical(file).string();
  if (loaded_files().count(path)) return;
  // RTLD_NOW: a missing symbol is reported here, naming the file, not at the first call mid-sweep.
  // RTLD_LOCAL: the plugin's symbols stay its own. Never closed: its models live until exit.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw InputError(refusal(file, "cannot be loaded as a shared library: ") + dlerror() +
                     "; expected a model plugin built with vibro_add_model against vibro " + kVersion);
  using Entry = const PluginRecord* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, kPluginEntryName));
  if (!entry) {
    dlclose(handle);
    throw InputError(refusal(file, "is not a vibro plugin: it exports no ") + kPluginEntryName +
                     " function (build it with vibro_add_model from vibro's CMake package)");
  }
  const PluginRecord* record = entry();
  if (!record || record->magic != kPluginMagic)
    throw InputError(refusal(file, record ? "is not a vibro plugin: its entry point returns no vibro plugin record"
                                          : "registers no model: its entry point returns no record"));
  if (!record->abi || std::strcmp(record->abi, kPluginAbi) != 0)
    throw InputError(refusal(file, "was built against another vibro (ABI ") + (record->abi ? record->abi : "none") +
                     "); this vibro is " + kPluginAbi + ": rebuild the plugin against this installation");
  if (!record->register_models) throw InputError(refusal(file, "registers no model: its record has no registration function"));
  if (!record->attach) throw InputError(refusal(file, "is not a complete vibro plugin record: it has no attach function"));
  record->attach(PluginHost{&host_active_budget});
  Registrar registrar({path, std::string("plugin ") + kPluginAbi + " " + content_hash(path)});
  record->register_models(registrar);
  if (!registrar.error().empty()) throw InputError(refusal(file, "cannot be used: ") + registrar.error());
  if (registrar.added() == 0)
    throw InputError(refusal(file, "registers no model (its sources need static vibro::RegisterModel<MyModel> registration;)"));
  loaded_files().insert(path);
}

void load_plugin_path(const std::string& folders) {
  std::stringstream list(folders);
  std::string folder;
  while (std::getline(list, folder, ':')) {
    if (folder.empty()) continue;
    std::error_code error;
    if (!fs::is_directory(folder, error))
      throw InputError("VIBRO_PLUGIN_PATH: '" + folder + "' is not a folder; expected folders separated by ':'");
    std::vector<std::string> files;
    for (const auto& item : fs::directory_iterator(folder))
      if (item.path().extension() == ".so" && item.is_regular_file()) files.push_back(item.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) load_plugin(f);
  }
}

std::string plugin_option_for(const std::string& model) {
  const ModelOrigin& origin = ModelRegistry::instance().origin(model);
  if (origin.built_in() || is_inline_model_origin(origin.file)) return {};  // a [model] section travels in the sweep text
  // A model file's absolute path replaces the sweep file's model line, which may be relative to a
  // folder the resumed run or the batch job does not start in.
  return (is_model_file(origin.file) ? "--model=" : "--plugin=") + origin.file;
}

}  // namespace vibro
