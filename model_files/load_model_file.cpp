#include "model_files/load_model_file.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "model_files/file_model.hpp"
#include "model_files/model_file_parser.hpp"

namespace vibro {

namespace fs = std::filesystem;

namespace {

std::string fnv1a_hex(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  std::ostringstream hex;
  hex << std::hex << hash;
  return hex.str();
}

std::map<std::string, std::string>& loaded() {  // canonical path -> model name
  static std::map<std::string, std::string> files;
  return files;
}

std::map<std::string, std::shared_ptr<const model_file::ModelFileSpec>>& specs() {  // model name -> its file's content
  static std::map<std::string, std::shared_ptr<const model_file::ModelFileSpec>> by_name;
  return by_name;
}

}  // namespace

bool is_model_file(const std::string& name) {
  return name.size() > 6 && name.compare(name.size() - 6, 6, ".vibro") == 0;
}

namespace {

// Parses `text` (messages name `file`) and registers its model from `origin` unless the same text is
// registered under its name already; returns the name.
std::string register_model_text(const std::string& text, const std::string& file, const std::string& origin) {
  auto spec = std::make_shared<const model_file::ModelFileSpec>(model_file::parse_model_file(text, file));
  const std::string name = spec->name;
  const std::string identity = "model file " + fnv1a_hex(text);
  // The same text under another path (a copy, a temporary file per Python call) is the same model.
  const auto& names = ModelRegistry::instance().names();
  if (std::find(names.begin(), names.end(), name) != names.end() && ModelRegistry::instance().origin(name).identity == identity)
    return name;
  try {
    ModelRegistry::instance().add(model_file::make_file_model(spec), {origin, identity});
  } catch (const model_file::ModelFileError&) {
    throw;
  } catch (const InputError& e) {
    throw InputError(file + ": " + e.what());
  } catch (const std::exception& e) {  // HybridModel's own checks of the declaration
    throw InputError(file + ": " + e.what());
  }
  specs()[name] = spec;
  return name;
}

const char* const kInlineSuffix = " [model]";

}  // namespace

bool is_inline_model_origin(const std::string& origin_file) {
  const std::string suffix = kInlineSuffix;
  return origin_file.size() > suffix.size() && origin_file.compare(origin_file.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string load_inline_model(const std::string& text, const std::string& sweep_file) {
  return register_model_text(text, sweep_file, sweep_file + kInlineSuffix);
}

std::string load_model_file(const std::string& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error))
    throw InputError("model file '" + file + "' " + (fs::exists(file, error) ? "is not a regular file" : "does not exist") +
                     "; expected a model file NAME.vibro (see docs/model_files.md)");
  const std::string path = fs::canonical(file).string();
  if (const auto it = loaded().find(path); it != loaded().end()) return it->second;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw InputError("model file '" + file + "' cannot be read");
  const std::string name = register_model_text(text.str(), file, path);
  loaded()[path] = name;
  return name;
}

namespace {
// The states a stop's gap reads: "x", or "x1 and u2" (a gap between bodies).
std::string bodies(const model_file::ModelFileSpec& spec, const model_file::GuardDecl& g) {
  std::string out;
  for (std::size_t i = 0; i < g.bodies.size(); ++i)
    out += (i == 0 ? "" : i + 1 == g.bodies.size() ? " and " : ", ") + spec.states[static_cast<std::size_t>(g.bodies[i].position)].name;
  return out;
}
}  // namespace

std::vector<std::string> model_file_outline(const std::string& model_name) {
  const auto it = specs().find(model_name);
  if (it == specs().end()) return {};
  const model_file::ModelFileSpec& spec = *it->second;
  std::vector<std::string> lines;
  for (std::size_t m = 0; m < spec.modes.size(); ++m) {
    lines.push_back("mode " + spec.modes[m].name + " (line " + std::to_string(spec.modes[m].pos.line) + ")");
    for (const auto& g : spec.guards) {
      if (g.mode != static_cast<int>(m)) continue;
      const std::string reset = g.resets.empty() ? "" : g.map ? ", reset map (its Jacobian by automatic differentiation)" : ", affine reset";
      std::string does;
      if (!g.is_stop) does = "switch to mode " + spec.modes[static_cast<std::size_t>(g.target)].name + reset;
      else if (!g.mapped_impact)
        does = "stop on " + bodies(spec, g) + ": restitution" +
               (g.mu ? ", Coulomb impulse on " + spec.states[static_cast<std::size_t>(g.tangential)].name : "") +
               (g.sticks ? ", rest after chatter" : "");
      else if (g.auxiliary >= 0 && g.bodies.front().velocity >= 0)
        does = "curved stop on " + bodies(spec, g) + ": Newton restitution along the gap's gradient" + reset + ", no rest";
      else
        does = "stop on " + bodies(spec, g) + ": impact by its reset lines" + reset + ", no rest";
      const std::string guarantee =
          g.auxiliary < 0 ? "affine guard: certified event location"
                          : "guard not affine in the state: it is followed by the auxiliary state " +
                                spec.states[static_cast<std::size_t>(g.auxiliary)].name +
                                " (its rate the guard's rate along each mode's field, its start the guard's value at the start); "
                                "the event location is certified on " + spec.states[static_cast<std::size_t>(g.auxiliary)].name +
                                ", which equals the guard up to the integration error ([numerics] rtol, atol)";
      lines.push_back("  " + g.name + ": " + does + "; " + guarantee);
    }
  }
  return lines;
}

}  // namespace vibro
