// The one list of sweep keys (sweep_keys): every key the parser accepts, of every model, is
// classified as changing results or not, and the checkpoint fingerprint follows that list exactly:
// changing any result-changing key changes the fingerprint and its settings name that key; changing
// any other key leaves the fingerprint as it was. A new run.*, output.* or analysis.* key fails this test until it
// has an alternative value below (and, in sweep_spec.cpp, a classification).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

// A value other than the default for every run.*, output.* and analysis.* key (the base sweep has no axes but
// one, x, so run.continuation has an axis to name).
const std::map<std::string, std::string> kRunAlternatives = {
    {"run.max_periods", "300"},         {"run.window_periods", "20"},     {"run.steady_state", "fixed"},
    {"run.quasi_tol", "1e-3"},          {"run.quasi_min_window", "50"},   {"run.means_window", "30"},
    {"run.means_checks", "2"},          {"run.means_to_budget", "true"},  {"run.tol", "1e-3"},
    {"run.adaptive_tol", "1e-5"},       {"run.max_period", "8"},          {"run.min_window", "6"},
    {"run.min_periods", "7"},           {"run.threads", "3"},             {"run.progress", "never"},
    {"run.progress_seconds", "5"},      {"run.batch_cases", "100"},
    {"run.batch_periods", "3"},         {"run.extend_unsettled", "500"},
    {"run.continuation", "AXIS"},       {"run.direction", "down"},        {"output.file", "other.h5"},
    {"output.overwrite", "true"},       {"output.strobe_points", "none"}, {"output.floquet", "true"},
    {"output.shooting", "true"},        {"output.lyapunov_periods", "5"}, {"output.block_cases", "7"},
    {"output.checkpoint_seconds", "2"}, {"output.keep_checkpoints", "true"}, {"output.stream_cases", "false"},
    {"run.case_wall_limit", "300"},     {"run.max_steps_per_period", "5000"}, {"run.max_events_per_period", "900"},
    {"run.max_steps", "7000000"},       {"run.max_events", "800000"},  {"run.backend", "batched"},
    {"run.null_group_seconds", "0.5"},  // refused but with run.backend = null (tested below)
    {"analysis.global_continuation", "AXIS"}, {"analysis.match_distance", "0.2"},
    {"analysis.match_across_classes", "true"}, {"analysis.match_by", "basin_overlap"},
    {"analysis.match_period_doublings", "false"}, {"analysis.match_vanished", "false"},
    {"analysis.match_period_changes", "false"}, {"analysis.match_extent_changes", "false"},
    {"analysis.match_windows", "false"},
    {"analysis.seed_from_previous", "false"},  // true needs analysis.global_continuation
    {"analysis.seed_directions", "forward"},
};

std::string text_of(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// Values other than the default that the parameter accepts, to try in turn (validation may refuse some).
std::vector<std::string> alternatives(const ParameterSpec& p) {
  std::vector<std::string> out;
  if (p.kind == ParameterKind::Choice) {
    for (std::size_t k = 0; k < p.choices.size(); ++k)
      if (static_cast<double>(k) != p.default_value) out.push_back(p.choices[k]);
    return out;
  }
  const double d = p.default_value;
  for (const double v : {d * 1.01, d * 0.99, d + 1e-3, d - 1e-3, d + 1, d - 1, d * 2, d / 2})
    if (v != d && p.in_range(v)) out.push_back(p.kind == ParameterKind::Integer ? text_of(std::round(v)) : text_of(v));
  return out;
}

// The base sweep of a model: defaults, one axis over its first numeric parameter.
std::string base_text(const Model& model, std::string& axis) {
  for (const auto& p : model.parameters())
    if (p.kind != ParameterKind::Choice) {
      axis = p.name;
      break;
    }
  return "model = " + model.name() + "\n[axes]\n" + axis + " = " + text_of(model.parameters().front().default_value) + "\n";
}

}  // namespace

TEST_CASE("every sweep key is classified and the fingerprint follows the classification", "[jobs][sweep_keys]") {
  int checked = 0;
  for (const auto& name : ModelRegistry::instance().names()) {
    const Model& model = ModelRegistry::instance().get(name);
    std::string axis;
    std::string text = base_text(model, axis);
    // The axis holds its parameter's default value (the first numeric parameter).
    for (const auto& p : model.parameters())
      if (p.name == axis) text = "model = " + name + "\n[axes]\n" + axis + " = " + text_of(p.default_value) + "\n";
    const SweepSpec base = parse_sweep(text, "keys.ini", {});
    INFO("model " << name);
    for (const auto& key : sweep_keys(model)) {
      INFO("key " << key.name);
      if (key.name == "model") continue;  // another model is another key set: checked by the header line
      std::vector<std::string> values;
      if (key.name.rfind("axes.", 0) == 0) {
        // An axis added (or, for the base axis, changed); choice parameters cannot be swept.
        for (const auto& p : model.parameters())
          if ("axes." + p.name == key.name && p.kind != ParameterKind::Choice) values = alternatives(p);
        for (auto& v : values) v = v + ", " + v;  // two cases
      } else if (key.name.rfind("run.", 0) == 0 || key.name.rfind("output.", 0) == 0 || key.name.rfind("analysis.", 0) == 0) {
        const auto it = kRunAlternatives.find(key.name);
        REQUIRE(it != kRunAlternatives.end());  // a new key: give it an alternative value above
        values = {it->second == "AXIS" ? axis : it->second};
      } else {
        for (const auto& p : model.parameters())
          if (std::string(group_section(p.group)) + "." + p.name == key.name) values = alternatives(p);
      }
      bool parsed = false;
      for (const auto& value : values) {
        SweepSpec changed;
        try {
          changed = parse_sweep(text, "keys.ini", {"--" + key.name + "=" + value});
        } catch (const InputError&) {
          continue;  // e.g. means mode on a model without window means, a value the model's checks refuse
        }
        parsed = true;
        const bool differs = changed.fingerprint() != base.fingerprint();
        if (key.effect == KeyEffect::ChangesResults) {
          CHECK(differs);
          // The settings line of that key is the one that differs (axes: the parameter's axis line).
          const std::string line_key = key.name + " = ";
          const std::string a = base.result_settings(), b = changed.result_settings();
          const auto line = [&](const std::string& s) {
            const auto at = s.find(line_key);
            return at == std::string::npos ? std::string() : s.substr(at, s.find('\n', at) - at);
          };
          CHECK(line(a) != line(b));
        } else {
          CHECK_FALSE(differs);
        }
        ++checked;
        break;
      }
      const bool needs_jacobians =
          key.name == "output.floquet" || key.name == "output.shooting" || key.name == "output.lyapunov_periods";
      // Only the conveyor has a batched kernel so far; the others refuse run.backend = batched.
      const bool needs_kernel = key.name == "run.backend" && name != "conveyor";
      const bool needs_restart = key.name == "run.extend_unsettled" && !model.capabilities().restart;
      const bool needs_null = key.name == "run.null_group_seconds";
      if (!parsed && !needs_null && key.name != "run.steady_state" && key.name.rfind("run.means", 0) != 0 &&
          !(needs_jacobians && !model.capabilities().jacobians) && !needs_kernel && !needs_restart) {
        // Every key must be exercised except means-mode keys on models that refuse means mode, the
        // keys that need Jacobians on models without them, the back end on models without a
        // kernel for it, run.extend_unsettled on models that cannot restart (all refused before
        // any case) and run.null_group_seconds, a key of run.backend = null alone (the next test).
        CHECK(values.empty());
      }
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("run.null_group_seconds: with run.backend = null only, and it changes no result", "[jobs][sweep_keys]") {
  const std::string text = "model = conveyor\n[axes]\nz0 = 0.001, 0.002\n";
  const SweepSpec null_backend = parse_sweep(text, "keys.ini", {"--run.backend=null"});
  const SweepSpec timed = parse_sweep(text, "keys.ini", {"--run.backend=null", "--run.null_group_seconds=0.5"});
  CHECK(timed.null_group_seconds == 0.5);
  CHECK(timed.fingerprint() == null_backend.fingerprint());
  CHECK(null_backend.fingerprint() != parse_sweep(text, "keys.ini", {"--run.backend=batched"}).fingerprint());
  try {
    parse_sweep(text, "keys.ini", {"--run.backend=batched", "--run.null_group_seconds=0.5"});
    FAIL("run.null_group_seconds accepted with run.backend = batched");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("run.null_group_seconds") != std::string::npos);
    CHECK(what.find("run.backend = null") != std::string::npos);
  }
}

TEST_CASE("the parser accepts exactly the classified keys", "[jobs][sweep_keys]") {
  const Model& model = ModelRegistry::instance().get("conveyor");
  for (const auto& key : sweep_keys(model)) CHECK(!key.name.empty());
  // A key outside the list is refused, naming it.
  CHECK_THROWS_WITH(parse_sweep("model = conveyor\n", "k.ini", {"--run.unclassified=1"}),
                    Catch::Matchers::Contains("run.unclassified"));
}
