#pragma once
// Model A's Simulation: its hybrid system (gap_oscillator_system.hpp) run period after period by the
// two-body Simulation.
#include "models/two_body/gap_oscillator_system.hpp"
#include "models/two_body/two_body_steps.hpp"

namespace vibro::two_body {

using GapOscillatorSimulation = TwoBodySimulation<GapOscillatorSystem>;

}  // namespace vibro::two_body
