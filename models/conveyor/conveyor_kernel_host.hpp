#pragma once
// The host side of ConveyorKernel, shared by the CPU simulation and the batched back ends: the
// kernel's state as a StrobeSample, a restart from one, and its failure codes as exceptions.
#include <vector>

#include "engine/core/strobe_sample.hpp"
#include "models/conveyor/conveyor_kernel.hpp"

namespace vibro::conveyor {

// Events appended to a vector (nullptr: none), for tests, time signals and the tangent map.
struct VectorEventLog {
  std::vector<ConveyorEvent>* events = nullptr;
  bool on() const { return events != nullptr; }
  void add(const ConveyorEvent& e) const { events->push_back(e); }
};

// A kernel sample as the engine's StrobeSample (its other fields untouched).
void fill_sample(const ConveyorConstants& c, const ConveyorSample& from, StrobeSample& sample);

// Makes `state` resume from `sample` (phase 0), counters and aux included; false if not admissible.
bool restart_state(const ConveyorConstants& c, ConveyorState& state, const StrobeSample& sample);

// Throws what the CPU path throws for the failure recorded in `state` (CaseFailure or InfeasibleCase).
[[noreturn]] void throw_kernel_stop(const ConveyorConstants& c, const ConveyorState& state);

}  // namespace vibro::conveyor
