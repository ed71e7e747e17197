#pragma once
// Helpers for the dimer tests: a parameter set from name/value pairs, and one case run to its
// steady state the way a sweep runs it (fixed budget, averaging window).
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>

#include <cmath>

#include "support/model_fixture.hpp"
#include "analysis/steady_state.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer::testing {

using vibro::test_support::Setting;

inline ParameterSet dimer_values(std::initializer_list<Setting> settings) {
  return vibro::test_support::parameter_values(dimer_parameter_specs(), settings);
}

// 100 periods with the mean over the last 50, as in the report's runs (a separate prototype did the same).
inline CaseResult run_dimer(std::initializer_list<Setting> settings, int periods = 100, int window = 50) {
  const Model& model = ModelRegistry::instance().get("dimer");
  SteadyStateSettings steady;
  steady.mode = SteadyMode::Fixed;
  steady.max_periods = periods;
  steady.window_periods = window;
  return run_case(model, dimer_values(settings), steady, StrobePoints::None);
}

// A case that ran to its end (the reason is shown when it did not).
inline void require_ok(const CaseResult& r) {
  INFO(r.reason);
  REQUIRE(r.status == CaseStatus::Ok);
}

// Observable by name.
inline double observable(const CaseResult& r, const std::string& name) {
  const auto specs = ModelRegistry::instance().get("dimer").observables();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == name) return r.observables[i];
  return std::nan("");
}

}  // namespace vibro::dimer::testing
