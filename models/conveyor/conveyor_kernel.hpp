#pragma once
// The conveyor's per-case stepping, written once for the CPU and the GPU: exact free
// flight, certified first-impact search (plate_gap.hpp), Newton + Coulomb impulse laws, accumulation
// (Zeno) detection, coupled motion with stick/slip arcs in closed form (coupled_slip.hpp), lift-off,
// stroboscopic samples and counters. ConveyorSimulation (the CPU path) and the batched and CUDA back
// ends all step cases through ConveyorKernel; there is no second copy of this physics.
//
// The stepping is resumable at every sample (the state holds a flight or a coupled phase in progress),
// so a run cut into chunks of K periods is the same arithmetic as one uninterrupted run. Host-and-device
// rules apply (engine/core/host_device.hpp): failures are codes, not exceptions; events, and the dense
// states a trace asks for, go to an Observer policy that the device and batched builds leave empty.
//
// Phases: the state's theta is the clock's, omega t mod 2 pi (samples are taken at theta = 0); the
// plate's phase is theta + c.phase (plate_phase()), and every sin and cos of the plate's motion takes
// that. Events report the plate's phase.
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/contact/coulomb_impulse.hpp"
#include "engine/contact/newton_restitution.hpp"
#include "engine/core/host_device.hpp"
#include "engine/core/reproducible_trig.hpp"
#include "engine/roots/certified_first_root.hpp"
#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/coupled_slip.hpp"
#include "models/conveyor/plate_gap.hpp"
#if !VIBRO_DEVICE_PASS
#include "engine/core/case_budget.hpp"
#endif

namespace vibro::conveyor {

enum CounterIndex {
  kImpacts, kAccumulations, kCoupledPhases, kLiftOffs, kStickArcs, kReversals, kGrazings, kRootEvaluations,
  kCounterCount
};
enum ModeIndex { kFlight = 0, kCoupled = 1 };
enum AuxIndex { kLastImpactPhase = 0, kLastApproachVelocity = 1, kAuxCount = 2 };

// One discrete event, for tests and time-signal plots (not recorded unless asked for).
struct ConveyorEvent {
  // ArcStart: coupled motion begins (after an accumulation, or on resuming from a coupled sample).
  enum class Kind { Impact, Grazing, Accumulation, LiftOff, Stick, Reversal, BreakAway, ArcStart };
  Kind kind;
  double time;       // s
  double phase;      // the plate's phase, rad, in [0, 2 pi)
  double u_before;   // relative normal velocity before (impacts), m/s
  double u_after;    // after (impacts), m/s
  double vT;         // tangential velocity after the event, m/s
  double x;          // tangential position, m
  double slip = 0;   // coupled motion after the event: friction direction on the part (+-1), 0 sticking
};

// An event as a trace reports it (at h = 0): the relative normal and tangential velocities just before
// and just after it.
struct ConveyorTraceEvent {
  ConveyorEvent::Kind kind;
  double time;  // s
  double u_before, u_after, vT_before, vT_after;  // m/s
  double x;  // tangential position, m
};

// What the kernel tells an observer. This one wants nothing (the device, batched runs): with kTraces
// false the tracing code is not even compiled, so those paths are the bare stepping.
struct NoObserver {
  static constexpr bool kTraces = false;  // true: states() and trace() may be called (when tracing())
  VIBRO_HD static constexpr bool on() { return false; }  // add() wanted
  VIBRO_HD void add(const ConveyorEvent&) const {}
  VIBRO_HD static constexpr bool tracing() { return false; }
  // The motion starts at time t (s): no state before it is traced.
  VIBRO_HD void begin(double) const {}
  // Dense states along a flight or a coupled arc from absolute phase phase0 (rad) to phase0 + y_end:
  // motion(y, out) writes (h, u, vT, x) at y past phase0. Called before the arc's end changes the state.
  template <class Motion>
  VIBRO_HD void states(double, double, int, const Motion&) const {}
  VIBRO_HD void trace(const ConveyorTraceEvent&) const {}
};

// Why a case stopped; the host turns a code and its value into the CPU path's exception.
enum class KernelStop : int {
  None, EventCap, NonFinite, CannotLeave, NoFlightEnd, SlipCannotStart, NoFirstImpact
};

// What the next step does.
enum class KernelNext : int { Start, Flight, FlightStrobes, Impact, Coupled, Ride, Failed };

// Sets of steps (bit 1 << KernelNext) that one call of ConveyorKernel::step takes: all of them (a
// period of the CPU path), or the free flight alone (its flights, in-flight samples and impacts: what
// most cases do most of the time) and the rare rest (the start, coupled motion with its stick and slip
// arcs), which a GPU steps in separate kernels so that a warp's threads run the same code.
constexpr unsigned step_bit(KernelNext next) { return 1u << static_cast<int>(next); }
constexpr unsigned kFlightSteps = step_bit(KernelNext::Flight) | step_bit(KernelNext::FlightStrobes) |
                                  step_bit(KernelNext::Impact);
constexpr unsigned kRareSteps = step_bit(KernelNext::Start) | step_bit(KernelNext::Coupled) | step_bit(KernelNext::Ride);
constexpr unsigned kAllSteps = kFlightSteps | kRareSteps;

// How ConveyorKernel::step ended: a sample taken, the case failed, or its next step is not in the set.
enum class Stepped : int { Sample, Failed, Left };

struct FlightStart {
  double h, u;  // gap and relative normal velocity at the start
  double y0;    // first point of the search, certified h(y0) > 0 (or 0 when h > 0)
  double G;     // gravity term; exactly A sin(theta_L) after a lift-off (h'' = 0 there)
};

// One stroboscopic sample of one case (what a batched run leaves in its buffer).
struct ConveyorSample {
  double h = 0, u = 0, vT = 0, x = 0;  // gap, relative normal and tangential velocity, drift position
  std::int64_t period = 0;
  int mode = kFlight;
  std::int64_t counters[kCounterCount] = {};
  double aux[kAuxCount] = {};
};

// Everything one case carries between samples (plain data: copied to and from a GPU as it is).
struct ConveyorState {
  KernelNext next = KernelNext::Start;
  KernelStop stop = KernelStop::None;
  double stop_value = 0;  // the phase or time the failure message names
  // At the current event: phase in [0, 2 pi), tangential velocity and position.
  double theta = 0, vT = 0, x = 0;
  std::int64_t periods = 0;  // samples emitted so far
  double events_this_period = 0;
  double pending_u = 0;  // approach velocity of the impact to apply next
  bool pending_grazing = false;
  FlightStart pending_flight{};
  // A flight in progress: its gap, end, and the next stroboscopic point inside it.
  PlateGap gap{};
  double y_end = 0, y_strobe = 0;
  int strobes = 0;
  bool flight_grazing = false;
  // A coupled phase in progress: phase left to lift-off, and the tangential arc (stick, or slip
  // with sign s, starting at r = 0 or not).
  double y_left = 0, s = 0;
  bool stick = false, from_zero = false;
  std::int64_t counters[kCounterCount] = {};
  double aux[kAuxCount] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
};

namespace kernel_detail {
constexpr double kTwoPi = 6.283185307179586476925;

// Positive root of (K/3) rho^2 / 2 ... : the largest rho with L3(rho) = g + g1 rho + g2 rho^2/2 - K rho^3/6 > 0
// when g = 0, g1 >= 0 (start after an event; the paper asks only for "the smallest positive root",
// so the first root is certified here). Also the quadratic bound 2 g1 / m_down.
VIBRO_HD inline double certified_start(double g1, double g2, double K, double m_down) {
  const double inf = std::numeric_limits<double>::infinity();
  const double g1p = std::max(g1, 0.0);
  const double rho2 = m_down > 0 ? 2 * g1p / m_down : inf;
  double rho3 = 0;
  if (K > 0) rho3 = (0.5 * g2 + std::sqrt(0.25 * g2 * g2 + 2 * K * g1p / 3)) / (K / 3);
  else if (g2 < 0) rho3 = 2 * g1p / -g2;
  else rho3 = inf;
  const double rho = std::isinf(rho2) ? rho3 : std::max(rho2, rho3);
  return 0.999 * rho;
}
}  // namespace kernel_detail

// State: ConveyorState, or a type with the same members for the steps it is used for (the GPU's flight
// kernel: FlightState, conveyor_columns.hpp, some of whose members are read and written in place in
// global memory).
template <class Observer = NoObserver, class State = ConveyorState>
class ConveyorKernel {
 public:
  VIBRO_HD ConveyorKernel(const ConveyorConstants& c, State& st, Observer observer = Observer{})
      : c_(c), st_(st), obs_(observer) {}

  // Steps to the next stroboscopic sample: true with the sample in `out`; false when the case
  // failed (st.stop says why). The sample is written where the caller keeps it (a GPU batch: its row
  // of the launch's buffer), not kept in the state: a case carries 128 bytes less between samples.
  VIBRO_HD bool advance(const ConveyorStart& start, ConveyorSample& out) {
    return step<kAllSteps>(&start, &out) == Stepped::Sample;
  }

  // As advance, taking only the steps in kSteps (kFlightSteps, kRareSteps): Left, with the state
  // unchanged since its last step, when the next step is not among them. `start` is read only by the
  // Start step (it may be null where kSteps lacks it); `out` null: the sample is not kept (a period
  // before a run's window), nothing is written. The same arithmetic as advance, step for step.
  template <unsigned kSteps>
  VIBRO_HD Stepped step(const ConveyorStart* start, ConveyorSample* out) {
    out_ = out;
    while (true) {
      sampled_ = false;
      if ((kSteps & step_bit(st_.next)) == 0) return st_.next == KernelNext::Failed ? Stepped::Failed : Stepped::Left;
      switch (st_.next) {
        case KernelNext::Start:
          if constexpr ((kSteps & step_bit(KernelNext::Start)) != 0) {
            st_.next = initial_step(*start);
            if constexpr (Observer::kTraces) {
              if (obs_.tracing()) obs_.begin(time());  // a first-impact start has no state before its impact
            }
          }
          break;
        case KernelNext::Flight:
          if constexpr ((kSteps & step_bit(KernelNext::Flight)) != 0) st_.next = fly(st_.pending_flight);
          break;
        case KernelNext::FlightStrobes:
          if constexpr ((kSteps & step_bit(KernelNext::FlightStrobes)) != 0) st_.next = flight_strobe();
          break;
        case KernelNext::Impact:
          if constexpr ((kSteps & step_bit(KernelNext::Impact)) != 0)
            st_.next = impact(st_.pending_u, st_.pending_grazing);
          break;
        case KernelNext::Coupled:
          if constexpr ((kSteps & step_bit(KernelNext::Coupled)) != 0) st_.next = ride_begin();
          break;
        case KernelNext::Ride:
          if constexpr ((kSteps & step_bit(KernelNext::Ride)) != 0) st_.next = ride();
          break;
        case KernelNext::Failed: return Stepped::Failed;
      }
      if (st_.next == KernelNext::Failed) return Stepped::Failed;
      if (sampled_) return Stepped::Sample;
    }
  }

  // Makes the next advance() start from a stroboscopic sample (phase 0): false if not admissible.
  VIBRO_HD static bool restart(const ConveyorConstants& c, ConveyorState& st, double h, double u, double vT,
                               double x, int mode, std::int64_t period) {
    if (!std::isfinite(h + u + vT + x)) return false;
    st.theta = 0;  // samples are taken at phase 0
    st.periods = period;
    st.events_this_period = 0;
    st.vT = vT;
    st.x = x;
    st.stop = KernelStop::None;
    if (mode == kCoupled) {
      st.next = KernelNext::Coupled;  // the sample was taken in contact: F_N > 0 there
      --st.counters[kCoupledPhases];  // resuming re-enters a coupled phase; not a new one
    } else if (h > 0) {
      st.pending_flight = {h, u, 0.0, c.G};
      st.next = KernelNext::Flight;
    } else {
      return false;
    }
    return true;
  }

 private:
  VIBRO_HD KernelNext fail(KernelStop why, double value = 0) {
    st_.stop = why;
    st_.stop_value = value;
    return KernelNext::Failed;
  }

  VIBRO_HD bool count_event() {
#if !VIBRO_DEVICE_PASS
    charge_events();
#endif
    return ++st_.events_this_period <= c_.events_per_period_cap;
  }

  // s: the current phase on the clock of emitted periods.
  VIBRO_HD double time() const { return (static_cast<double>(st_.periods) * kernel_detail::kTwoPi + st_.theta) / c_.omega; }

  // The plate's phase at the clock's phase theta (in [0, 4 pi): for sin and cos), and in [0, 2 pi).
  VIBRO_HD double plate_phase(double theta) const { return theta + c_.phase; }
  VIBRO_HD double plate_phase_reduced(double theta) const {
    const double p = plate_phase(theta);
    return p >= kernel_detail::kTwoPi ? p - kernel_detail::kTwoPi : p;
  }

  VIBRO_HD void log_event(ConveyorEvent::Kind kind, double u_before = 0, double u_after = 0, double slip = 0) {
    if (!obs_.on()) return;
    obs_.add({kind, time(), plate_phase_reduced(st_.theta), u_before, u_after, st_.vT, st_.x, slip});
  }

  // An event at the current state for a trace: u before and after, vT before and now.
  VIBRO_HD void trace_event(ConveyorEvent::Kind kind, double u_before, double u_after, double vT_before) {
    if constexpr (Observer::kTraces) {
      if (obs_.tracing()) obs_.trace({kind, time(), u_before, u_after, vT_before, st_.vT, st_.x});
    }
  }

  // Dense states up to phase theta + y_end along a motion whose (h, u, vT, x) at y past theta is motion(y).
  template <class Motion>
  VIBRO_HD void trace_states(double y_end, int mode, const Motion& motion) {
    if constexpr (Observer::kTraces) {
      if (obs_.tracing())
        obs_.states(static_cast<double>(st_.periods) * kernel_detail::kTwoPi + st_.theta, y_end, mode, motion);
    }
  }

  // One stroboscopic sample at the current state; false (failed) if it is not finite.
  VIBRO_HD bool emit(double h, double u, int mode) {
    ++st_.periods;
    st_.events_this_period = 0;
    sampled_ = true;
    if (!std::isfinite(h + u + st_.vT + st_.x)) {
      fail(KernelStop::NonFinite, static_cast<double>(st_.periods) * c_.period);
      return false;
    }
    if (out_ == nullptr) return true;
    ConveyorSample& out = *out_;
    out.h = h;
    out.u = u;
    out.vT = st_.vT;
    out.x = st_.x;
    out.period = st_.periods;
    out.mode = mode;
    for (int i = 0; i < kCounterCount; ++i) out.counters[i] = st_.counters[i];
    for (int i = 0; i < kAuxCount; ++i) out.aux[i] = st_.aux[i];
    return true;
  }

  // h = 0, h' = u/omega > 0: the gap is positive up to the certified start point, so the
  // root search never returns the impact it starts from.
  template <class Start>  // FlightStart, or where the state keeps one (the GPU's flight kernel: its columns)
  VIBRO_HD bool after_impact(double u, Start& out) {
    const double g1 = u / c_.omega, g2 = -c_.G + c_.A * reproducible::sin(plate_phase(st_.theta));
    double y0 = kernel_detail::certified_start(g1, g2, c_.A, c_.G + c_.A);
    if (!(y0 > 0)) {
      // Leaving with no rebound velocity (only when F_N <= 0): use h''' like a lift-off.
      const double g3 = c_.A * reproducible::cos(plate_phase(st_.theta));
      y0 = (g3 > 0 && c_.A > 0) ? 0.999 * 4 * g3 / c_.A : 0;
    }
    if (!(y0 > 0)) return false;
    out = FlightStart{0.0, u, y0, c_.G};
    return true;
  }
  VIBRO_HD KernelNext flight_after_impact(double u) {
    if (!after_impact(u, st_.pending_flight)) return fail(KernelStop::CannotLeave, st_.theta);
    return KernelNext::Flight;
  }

  // h = h' = h'' = 0 and h''' = A cos(theta_L) > 0; with |h''''| <= A the gap is positive up to
  // 4 cos(theta_L). Gravity is written as A sin(theta_L) so that h'' = 0 holds exactly.
  VIBRO_HD FlightStart after_lift_off() const {
    const reproducible::SinCos at_L = reproducible::sincos(c_.theta_L);
    return {0.0, 0.0, 0.999 * 4 * at_L.cos, c_.A * at_L.sin};
  }

  // The start is a copy (the GPU's flight kernel keeps the pending flight in its columns).
  VIBRO_HD VIBRO_OUTLINE KernelNext fly(const FlightStart start) {
    const reproducible::SinCos at = reproducible::sincos(plate_phase(st_.theta));
    // Searched where the state keeps it (the GPU's flight kernel: in its columns, not in registers).
    st_.gap = PlateGap{start.h, start.u / c_.omega, start.G, c_.A * at.sin, c_.A * at.cos};
    const auto& gap = st_.gap;
    // The flight ends before the parabola of the absolute position falls 2A below its start: the gap of
    // the paper's Eq. 19 cannot have its first root later.
    const double vN_phase = start.u / c_.omega + c_.A * at.cos;
    const double y_max = 1.001 * (vN_phase + std::sqrt(vN_phase * vN_phase + 2 * start.G * (start.h + 2 * c_.A))) /
                         start.G + 1e-12;
    const RootResult root = gap.first_root(start.y0, y_max, c_.A, c_.root_rtol);  // h's bounds from A and G
    st_.counters[kRootEvaluations] += root.evaluations;
    if (root.outcome == RootOutcome::NoRoot) return fail(KernelStop::NoFlightEnd);
    if constexpr (Observer::kTraces) {  // the periods emitted inside do not move the flight's clock
      const double x_start = st_.x, vT = st_.vT, omega = c_.omega;
      trace_states(root.y, kFlight, [&](double y, double* out) {
        const Derivs d = gap(y);
        out[0] = d.g;
        out[1] = omega * d.g1;
        out[2] = vT;
        out[3] = x_start + vT * y / omega;
      });
    }
    st_.y_end = root.y;
    st_.flight_grazing = root.outcome == RootOutcome::Grazing;
    st_.y_strobe = kernel_detail::kTwoPi - st_.theta;
    st_.strobes = 0;
    return KernelNext::FlightStrobes;  // the next step: its samples, then its impact
  }

  // The next stroboscopic sample inside the flight, or the flight's end.
  VIBRO_HD KernelNext flight_strobe() {
    const double y_end = st_.y_end;
    if (st_.y_strobe <= y_end) {
      const Derivs d = st_.gap(st_.y_strobe);
      const double x_start = st_.x;
      st_.x = x_start + st_.vT * st_.y_strobe / c_.omega;
      const bool ok = emit(d.g, c_.omega * d.g1, kFlight);
      st_.x = x_start;
      if (!ok) return KernelNext::Failed;
      ++st_.strobes;
      st_.y_strobe += kernel_detail::kTwoPi;
      return KernelNext::FlightStrobes;
    }
    st_.x += st_.vT * y_end / c_.omega;
    st_.theta = st_.theta + y_end - kernel_detail::kTwoPi * st_.strobes;
    if (st_.theta >= kernel_detail::kTwoPi) st_.theta = std::nextafter(kernel_detail::kTwoPi, 0.0);
    st_.pending_u = c_.omega * st_.gap(y_end).g1;
    st_.pending_grazing = static_cast<bool>(st_.flight_grazing);  // a value, whichever State
    return KernelNext::Impact;
  }

  VIBRO_HD KernelNext impact(double u_before, bool grazing) {
    if (!count_event()) return fail(KernelStop::EventCap);
    ++st_.counters[grazing ? kGrazings : kImpacts];
    st_.aux[kLastImpactPhase] = plate_phase_reduced(st_.theta);
    st_.aux[kLastApproachVelocity] = u_before;
    const NormalImpact normal = newton_restitution(u_before, c_.c_r);
    const double vT_before = st_.vT;
    const reproducible::SinCos at = reproducible::sincos(plate_phase(st_.theta));
    st_.vT = coulomb_impulse(st_.vT, c_.B * c_.omega * at.cos, c_.mu, normal.impulse);
    const double normal_force = c_.g - c_.A * c_.omega * c_.omega * at.sin;  // F_N / m in contact
    const ConveyorEvent::Kind kind = grazing ? ConveyorEvent::Kind::Grazing : ConveyorEvent::Kind::Impact;
    log_event(kind, u_before, normal.u_after);
    trace_event(kind, u_before, normal.u_after, vT_before);
    if (normal.u_after < c_.u_tol && normal_force > 0) {
      ++st_.counters[kAccumulations];
      log_event(ConveyorEvent::Kind::Accumulation);
      trace_event(ConveyorEvent::Kind::Accumulation, normal.u_after, 0.0, st_.vT);
      return KernelNext::Coupled;
    }
    return flight_after_impact(normal.u_after);
  }

  // r = 0: stick if friction can hold the part on the plate, else slip the other way: full
  // Coulomb friction; the paper's Eq. 62 keeps one sign and does not say what happens at r = 0.
  VIBRO_HD void choose_at_zero_relative_velocity() {
    const double w = c_.omega, w2 = w * w;
    const reproducible::SinCos at = reproducible::sincos(plate_phase(st_.theta));
    const double required = -c_.B * w2 * at.sin;
    const double available = c_.mu * (c_.g - c_.A * w2 * at.sin);
    st_.vT = c_.B * w * at.cos;
    if (std::fabs(required) <= available) {
      st_.stick = true;
    } else {
      st_.stick = false;
      st_.s = required > 0 ? 1.0 : -1.0;
      st_.from_zero = true;
    }
  }

  // A coupled phase begins: it lasts to the next lift-off phase theta_L (never when Gamma <= 1; the
  // paper's Section 4.2, Eqs. 58-60).
  VIBRO_HD KernelNext ride_begin() {
    if (!count_event()) return fail(KernelStop::EventCap);
    ++st_.counters[kCoupledPhases];
    st_.y_left = std::numeric_limits<double>::infinity();
    if (c_.lifts_off) {
      st_.y_left = c_.lift_off_clock - st_.theta;
      while (st_.y_left <= 0) st_.y_left += kernel_detail::kTwoPi;
    }
    const double w = c_.omega;
    const bool eq62 = c_.coupled_friction == CoupledFriction::Eq62;
    const double v_eps = 1e-13 * c_.B * w;
    st_.stick = false;
    st_.from_zero = false;
    st_.s = 0;
    const double r0 = c_.B * w * reproducible::cos(plate_phase(st_.theta)) - st_.vT;
    if (eq62) {
      st_.s = r0 > 0 ? 1.0 : r0 < 0 ? -1.0 : (reproducible::sin(plate_phase(st_.theta)) < 0 ? 1.0 : -1.0);
    } else if (std::fabs(r0) <= v_eps) {
      choose_at_zero_relative_velocity();
    } else {
      st_.s = r0 > 0 ? 1.0 : -1.0;
    }
    log_event(ConveyorEvent::Kind::ArcStart, 0, 0, st_.stick ? 0.0 : st_.s);
    return ride();
  }

  // Coupled motion until the next sample (stays in Ride), a lift-off (to Flight) or a failure.
  VIBRO_HD VIBRO_OUTLINE KernelNext ride() {
    const double inf = std::numeric_limits<double>::infinity();
    const double w = c_.omega;
    const bool eq62 = c_.coupled_friction == CoupledFriction::Eq62;
    while (true) {
      const double y_strobe = kernel_detail::kTwoPi - st_.theta;
      const double y_segment = std::min(st_.y_left, y_strobe);
      double y_done = y_segment;  // how far this arc goes before something happens
      bool arc_ended = false;
      if (st_.stick) {
        // Break-away at the plate's sin rising through sigma+ or falling through -sigma- (clock phases).
        double y_exit = inf;
        for (const double exit : c_.stick_exits) {
          if (std::isinf(exit)) continue;
          double y = std::fmod(exit - st_.theta + 2 * kernel_detail::kTwoPi, kernel_detail::kTwoPi);
          if (y > kernel_detail::kTwoPi - 1e-9) y = 0;  // at the boundary itself, up to rounding
          y_exit = std::min(y_exit, y);
        }
        if (y_exit < y_segment) {
          y_done = y_exit;
          arc_ended = true;
        }
        if constexpr (Observer::kTraces) {
          const double theta0 = plate_phase(st_.theta), x0 = st_.x, B = c_.B;
          trace_states(y_done, kCoupled, [&](double y, double* out) {
            out[0] = out[1] = 0;
            const reproducible::SinCos at = reproducible::sincos(theta0 + y);
            out[2] = B * w * at.cos;
            out[3] = x0 + B * (at.sin - reproducible::sin(theta0));
          });
        }
        const double theta_end = plate_phase(st_.theta) + y_done;
        const reproducible::SinCos at_end = reproducible::sincos(theta_end);
        st_.x += c_.B * (at_end.sin - reproducible::sin(plate_phase(st_.theta)));
        st_.vT = c_.B * w * at_end.cos;
      } else {
        const reproducible::SinCos at = reproducible::sincos(plate_phase(st_.theta));
        const SlipArc arc{st_.s, at.sin, at.cos, st_.vT, st_.x, w, c_.g, c_.A, c_.B, c_.mu};
        if (!eq62) {
          double y0 = 0;
          RootSettings settings;
          settings.rtol = c_.root_rtol;
          if (st_.from_zero) {
            const Derivs d0 = arc(0.0);
            y0 = kernel_detail::certified_start(d0.g1, d0.g2, arc.bounds().K, arc.bounds().K);
            if (!(y0 > 0)) return fail(KernelStop::SlipCannotStart, st_.theta);
          }
          if (y0 < y_segment) {
            const RootResult root = certified_first_root(arc, y0, y_segment, arc.bounds(), settings);
            st_.counters[kRootEvaluations] += root.evaluations;
            if (root.outcome != RootOutcome::NoRoot) {
              y_done = root.y;
              arc_ended = true;
            }
          }
        }
        if constexpr (Observer::kTraces) {
          trace_states(y_done, kCoupled, [&](double y, double* out) {
            out[0] = out[1] = 0;
            out[2] = arc.velocity(y);
            out[3] = arc.position(y);
          });
        }
        st_.vT = arc.velocity(y_done);
        st_.x = arc.position(y_done);
      }

      st_.theta += y_done;
      st_.y_left -= y_done;
      if (arc_ended) {
        if (!count_event()) return fail(KernelStop::EventCap);
        if (st_.stick) {  // break-away: the part overtakes (sin > 0) or falls behind (sin < 0)
          st_.stick = false;
          st_.s = reproducible::sin(plate_phase(st_.theta)) > 0 ? -1.0 : 1.0;
          st_.from_zero = true;
          log_event(ConveyorEvent::Kind::BreakAway, 0, 0, st_.s);
          trace_event(ConveyorEvent::Kind::BreakAway, 0, 0, st_.vT);
        } else {
          const double vT_before = st_.vT;
          choose_at_zero_relative_velocity();
          ++st_.counters[st_.stick ? kStickArcs : kReversals];
          const ConveyorEvent::Kind kind = st_.stick ? ConveyorEvent::Kind::Stick : ConveyorEvent::Kind::Reversal;
          log_event(kind, 0, 0, st_.stick ? 0.0 : st_.s);
          trace_event(kind, 0, 0, vT_before);
        }
        continue;
      }
      st_.from_zero = false;  // the arc goes on from a point where its function is certified positive
      if (y_done == y_strobe && st_.y_left > 0) {
        st_.theta = 0;
        return emit(0.0, 0.0, kCoupled) ? KernelNext::Ride : KernelNext::Failed;
      }
      // Lift-off.
      st_.theta = c_.lift_off_clock;
      ++st_.counters[kLiftOffs];
      log_event(ConveyorEvent::Kind::LiftOff);
      trace_event(ConveyorEvent::Kind::LiftOff, 0, 0, st_.vT);
      st_.pending_flight = after_lift_off();
      return KernelNext::Flight;
    }
  }

  // The start of each initial-condition mode (drop, first impact, state).
  VIBRO_HD KernelNext initial_step(const ConveyorStart& start) {
    st_.theta = 0;
    st_.x = 0;
    st_.vT = start.vT0;
    const double plate_velocity = c_.A * c_.omega;  // amplitude of the plate's normal velocity
    const reproducible::SinCos at_zero = reproducible::sincos(c_.phase);  // the plate at t = 0
    switch (start.mode) {
      case StartMode::Drop: {
        const double u0 = start.v0 - plate_velocity * at_zero.cos;
        if (start.z0 > 0) {
          st_.pending_flight = {start.z0, u0, 0.0, c_.G};
          return KernelNext::Flight;
        }
        if (u0 > 0) return flight_after_impact(u0);
        if (start.on_plate == OnPlateMode::Coupled) {  // resting on the plate (z0 = 0, on_plate = coupled)
          if (c_.g - c_.A * c_.omega * c_.omega * at_zero.sin > 0) return KernelNext::Coupled;
          return flight_after_impact(0.0);  // the plate pulls away at t = 0: the part leaves at once
        }
        st_.pending_u = u0;
        st_.pending_grazing = false;
        return KernelNext::Impact;
      }
      case StartMode::FirstImpact: {
        st_.theta = start.psi1 - c_.phase;  // psi1 is the plate's phase, theta the clock's
        if (st_.theta < 0) st_.theta += kernel_detail::kTwoPi;
        const double u_before = -start.v1 - plate_velocity * reproducible::cos(start.psi1);
        if (u_before >= 0) return fail(KernelStop::NoFirstImpact);
        st_.pending_u = u_before;
        st_.pending_grazing = false;
        return KernelNext::Impact;
      }
      case StartMode::State: {
        const double turns = std::floor(start.theta0 / kernel_detail::kTwoPi);
        st_.theta = start.theta0 - turns * kernel_detail::kTwoPi;
        st_.periods = static_cast<std::int64_t>(turns);  // the clock starts at theta0
        if (start.h0 > 0) {
          st_.pending_flight = {start.h0, start.u0, 0.0, c_.G};
          return KernelNext::Flight;
        }
        if (start.u0 > 0) return flight_after_impact(start.u0);
        if (c_.g - c_.A * c_.omega * c_.omega * reproducible::sin(plate_phase(st_.theta)) > 0) return KernelNext::Coupled;  // pressed onto the plate
        return flight_after_impact(0.0);  // in contact but the plate pulls away: leaves at once
      }
    }
    return KernelNext::Failed;  // not reached: every start mode is handled above
  }

  const ConveyorConstants& c_;
  State& st_;
  Observer obs_;
  bool sampled_ = false;
  ConveyorSample* out_ = nullptr;  // where advance() leaves its sample
};

}  // namespace vibro::conveyor
