#pragma once
// Body 1's semi-amplitude (|max| + |min|) / 2 over one period of a two-body orbit, from the extremes
// the simulation stores in the sample: how continuation tests compare branches with sweeps (A1).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "engine/core/model.hpp"
#include "models/two_body/two_body_steps.hpp"

namespace vibro::test_support {

inline double semi_amplitude(const Model& model, ParameterSet values, const std::string& parameter, double value,
                             const StrobeSample& state) {
  struct Extremes : StrobeObserver {
    double max = 0, min = 0;
    bool on_sample(const StrobeSample& s) override {
      max = s.aux[two_body::kMaxX1];
      min = s.aux[two_body::kMinX1];
      return false;
    }
  } extremes;
  values.set(parameter, value);
  auto simulation = model.start(values);
  REQUIRE(simulation->restart_from(state));
  simulation->run(extremes);
  return 0.5 * (std::fabs(extremes.max) + std::fabs(extremes.min));
}

}  // namespace vibro::test_support
