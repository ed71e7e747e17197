#include "models/conveyor/conveyor_kernel_host.hpp"

#include <string>

#include "engine/core/model.hpp"

namespace vibro::conveyor {

const char* trace_event_name(ConveyorEvent::Kind kind) {
  switch (kind) {
    case ConveyorEvent::Kind::Impact: return "impact";
    case ConveyorEvent::Kind::Grazing: return "grazing";
    case ConveyorEvent::Kind::Accumulation: return "accumulation";
    case ConveyorEvent::Kind::LiftOff: return "lift_off";
    case ConveyorEvent::Kind::Stick: return "stick";
    case ConveyorEvent::Kind::Reversal: return "reversal";
    case ConveyorEvent::Kind::BreakAway: return "break_away";
    case ConveyorEvent::Kind::ArcStart: return "arc_start";
  }
  return "event";
}

void CpuObserver::trace(const ConveyorTraceEvent& e) const {
  const double before[] = {0.0, e.u_before, e.vT_before, e.x}, after[] = {0.0, e.u_after, e.vT_after, e.x};
  sink->on_event(e.time, trace_event_name(e.kind), before, after);
}

void fill_sample(const ConveyorConstants& c, const ConveyorSample& from, StrobeSample& sample) {
  sample.period = from.period;
  sample.time = static_cast<double>(from.period) * c.period;
  sample.mode = from.mode;
  sample.drift_position = from.x;
  sample.state[0] = from.h;
  sample.state[1] = from.u;
  sample.state[2] = from.vT;
  for (int i = 0; i < kCounterCount; ++i) sample.counters[static_cast<std::size_t>(i)] = from.counters[i];
  for (int i = 0; i < kAuxCount; ++i) sample.aux[static_cast<std::size_t>(i)] = from.aux[i];
}

bool restart_state(const ConveyorConstants& c, ConveyorState& state, const StrobeSample& sample) {
  for (int i = 0; i < kCounterCount; ++i) state.counters[i] = sample.counters[static_cast<std::size_t>(i)];
  for (int i = 0; i < kAuxCount; ++i) state.aux[i] = sample.aux[static_cast<std::size_t>(i)];
  return ConveyorKernel<>::restart(c, state, sample.state[0], sample.state[1], sample.state[2],
                                   sample.drift_position, sample.mode, sample.period);
}

void throw_kernel_stop(const ConveyorConstants& c, const ConveyorState& state) {
  switch (state.stop) {
    case KernelStop::EventCap:
      throw CaseFailure("more than " + std::to_string(static_cast<long long>(c.events_per_period_cap)) +
                        " events in one period (unresolved accumulation?)");
    case KernelStop::NonFinite: throw CaseFailure("non-finite state at t = " + std::to_string(state.stop_value));
    case KernelStop::CannotLeave:
      throw CaseFailure("part cannot leave the plate after an impact at phase " + std::to_string(state.stop_value));
    case KernelStop::NoFlightEnd: throw CaseFailure("flight did not end within its proven bound");
    case KernelStop::SlipCannotStart:
      throw CaseFailure("slip arc cannot start at phase " + std::to_string(state.stop_value));
    case KernelStop::NoFirstImpact:
      throw InfeasibleCase("no impact: the plate recedes faster than the part approaches (u' >= 0)");
    case KernelStop::None: break;
  }
  throw CaseFailure("conveyor kernel stopped without a reason");
}

}  // namespace vibro::conveyor
