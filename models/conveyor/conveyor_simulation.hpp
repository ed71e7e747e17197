#pragma once
// The conveyor's event-driven state machine (spec 2.7): exact free flight, certified first-impact
// search, Newton + Coulomb impulse laws, accumulation (Zeno) detection, coupled motion with
// stick/slip arcs in closed form, and lift-off. Emits one stroboscopic sample per period.
#include <cstdint>
#include <vector>

#include "engine/core/model.hpp"
#include "models/conveyor/conveyor_parameters.hpp"

namespace vibro::conveyor {

enum CounterIndex {
  kImpacts, kAccumulations, kCoupledPhases, kLiftOffs, kStickArcs, kReversals, kGrazings, kRootEvaluations,
  kCounterCount
};
enum ModeIndex { kFlight = 0, kCoupled = 1 };
enum AuxIndex { kLastImpactPhase = 0, kLastApproachVelocity = 1 };

StrobeLayout conveyor_layout(const ConveyorConstants& c);

// One discrete event, for tests and time-signal plots (not recorded unless asked for).
struct ConveyorEvent {
  // ArcStart: coupled motion begins (after an accumulation, or on resuming from a coupled sample).
  enum class Kind { Impact, Grazing, Accumulation, LiftOff, Stick, Reversal, BreakAway, ArcStart };
  Kind kind;
  double time;       // s
  double phase;      // rad, in [0, 2 pi)
  double u_before;   // relative normal velocity before (impacts), m/s
  double u_after;    // after (impacts), m/s
  double vT;         // tangential velocity after the event, m/s
  double x;          // tangential position, m
  double slip = 0;   // coupled motion after the event: friction direction on the part (+-1), 0 sticking
};

// How many events define an orbit's structure (MapStep::events): a microthrow sequence counts once.
long long structural_events(const std::vector<ConveyorEvent>& events);

class ConveyorSimulation : public Simulation {
 public:
  ConveyorSimulation(const ConveyorConstants& constants, const ConveyorStart& start);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;
  // Through flights, impacts and coupled motion (conveyor_tangent_map.hpp); false through a grazing.
  bool stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) override;
  // From the sample where run() stopped, through the same tangent map.
  std::vector<std::complex<double>> floquet_multipliers(int periods) override;
  // Every event is appended to `log` (nullptr: none). For tests and time signals.
  void record_events(std::vector<ConveyorEvent>* log) { events_ = log; }
  // h, u, vT and the tangential position x; events at h = 0 (impacts change u and vT).
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override { trace_ = sink; }

 private:
  enum class Next { Flight, Coupled, Impact, Stop };
  struct FlightStart {
    double h, u;        // gap and relative normal velocity at the start
    double y0;          // first point of the search, certified h(y0) > 0 (or 0 when h > 0)
    double G;           // gravity term; exactly A sin(theta_L) after a lift-off (h'' = 0 there)
  };

  Next initial_step();                  // the start of the spec's initial-condition modes (4.2-4.4)
  Next fly(const FlightStart& start);
  Next ride();                          // coupled motion until lift-off (or stop)
  Next impact(double u_before, bool grazing);
  FlightStart after_impact(double u) const;
  FlightStart after_lift_off() const;
  bool emit(double h, double u, int mode);  // one stroboscopic sample at the current state
  void count_event();
  void log_event(ConveyorEvent::Kind kind, double u_before = 0, double u_after = 0, double slip = 0);
  double now() const;  // s: the current phase on the clock of emitted periods
  // Dense states up to phase theta_ + y_end along a motion whose (h, u, vT, x) at y past theta_ is state(y).
  template <class State>
  void trace_to(double y_end, int mode, State&& state);
  // An event at the current state (h = 0): u and vT before and after.
  void trace_event(const char* kind, double u_before, double u_after, double vT_before);

  ConveyorConstants c_;
  ConveyorStart start_;
  StrobeLayout layout_;
  StrobeObserver* observer_ = nullptr;
  bool started_ = false;
  Next resume_ = Next::Stop;       // where the next run() begins once started

  // State at the current event: phase in [0, 2 pi), tangential velocity and position.
  double theta_ = 0, vT_ = 0, x_ = 0;
  std::int64_t periods_ = 0;       // samples emitted so far
  double events_this_period_ = 0;
  double pending_u_ = 0;           // approach velocity of the impact to apply next
  bool pending_grazing_ = false;
  FlightStart pending_flight_{};
  StrobeSample sample_{};          // counters and aux live here between samples
  std::vector<ConveyorEvent>* events_ = nullptr;
  TraceSink* trace_ = nullptr;
};

}  // namespace vibro::conveyor
