#pragma once
// The host side of ConveyorKernel, shared by the CPU simulation and the batched back ends: the
// kernel's state as a StrobeSample, a restart from one, and its failure codes as exceptions.
#include <vector>

#include "engine/core/strobe_sample.hpp"
#include "engine/core/trace_sink.hpp"
#include "models/conveyor/conveyor_kernel.hpp"

namespace vibro::conveyor {

// The CPU simulation's observer: events appended to a vector (nullptr: none), for tests, time signals
// and the tangent map; dense states and events handed to a trace sink (nullptr: none) as (h, u, vT, x).
struct CpuObserver {
  std::vector<ConveyorEvent>* events = nullptr;
  TraceSink* sink = nullptr;
  double omega = 1;  // rad/s: the kernel's phases as the sink's times

  static constexpr bool kTraces = true;
  bool on() const { return events != nullptr; }
  void add(const ConveyorEvent& e) const { events->push_back(e); }
  bool tracing() const { return sink != nullptr; }
  void begin(double t) const { sink->skip_to(t); }
  template <class Motion>
  void states(double phase0, double y_end, int mode, const Motion& motion) const {
    sink->fill_to((phase0 + y_end) / omega, mode, [&](double t, double* out) { motion(omega * t - phase0, out); });
  }
  void trace(const ConveyorTraceEvent& e) const;
};

// The trace's name of an event kind ("impact", "lift_off", ...).
const char* trace_event_name(ConveyorEvent::Kind kind);

// A kernel sample as the engine's StrobeSample (its other fields untouched).
void fill_sample(const ConveyorConstants& c, const ConveyorSample& from, StrobeSample& sample);

// Makes `state` resume from `sample` (phase 0), counters and aux included; false if not admissible.
bool restart_state(const ConveyorConstants& c, ConveyorState& state, const StrobeSample& sample);

// Throws what the CPU path throws for the failure recorded in `state` (CaseFailure or InfeasibleCase).
[[noreturn]] void throw_kernel_stop(const ConveyorConstants& c, const ConveyorState& state);

}  // namespace vibro::conveyor
