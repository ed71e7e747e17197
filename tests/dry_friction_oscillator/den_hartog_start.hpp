#pragma once
// A continuation start on Den Hartog's non-stop orbit (mu = 0.3, F = 1), for the dry-friction
// oscillator built in C++ or read from its model file alike.
#include <catch2/catch.hpp>

#include "dry_friction_oscillator/den_hartog.hpp"
#include "engine/core/model.hpp"
#include "support/model_fixture.hpp"

namespace vibro::test_support {

// The closed form's state at t = 0 in the mode the model's flow has at the section there.
inline StrobeSample den_hartog_start(const Model& model, const ParameterSet& values, double omega) {
  Eigen::Vector2d exact = Eigen::Vector2d::Zero();
  REQUIRE(DenHartog{0.3, 1, omega}.orbit_at_zero(exact));
  auto simulation = model.start(values);
  Recorder recorder(400);
  simulation->run(recorder);
  StrobeSample start = recorder.samples.back();
  start.state[0] = exact[0];
  start.state[1] = exact[1];
  return start;
}

}  // namespace vibro::test_support
