#include "models/conveyor/conveyor_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/contact/coulomb_impulse.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/contact/newton_restitution.hpp"
#include "engine/roots/certified_first_root.hpp"
#include "models/conveyor/conveyor_tangent_map.hpp"
#include "models/conveyor/coupled_slip.hpp"
#include "models/conveyor/plate_gap.hpp"

namespace vibro::conveyor {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Positive root of (K/3) rho^2 / 2 ... : the largest rho with L3(rho) = g + g1 rho + g2 rho^2/2 - K rho^3/6 > 0
// when g = 0, g1 >= 0 (spec 2.3, start after an event). Also the quadratic bound 2 g1 / m_down.
double certified_start(double g1, double g2, double K, double m_down) {
  const double g1p = std::max(g1, 0.0);
  const double rho2 = m_down > 0 ? 2 * g1p / m_down : kInf;
  double rho3 = 0;
  if (K > 0) rho3 = (0.5 * g2 + std::sqrt(0.25 * g2 * g2 + 2 * K * g1p / 3)) / (K / 3);
  else if (g2 < 0) rho3 = 2 * g1p / -g2;
  else rho3 = kInf;
  const double rho = std::isinf(rho2) ? rho3 : std::max(rho2, rho3);
  return 0.999 * rho;
}
}  // namespace

StrobeLayout conveyor_layout(const ConveyorConstants& c) {
  StrobeLayout layout;
  const double length = c.g / (c.omega * c.omega), velocity = c.g / c.omega;
  layout.state_names = {"h", "u", "vT"};
  layout.state_scales = {length, velocity, velocity};
  layout.drift_scale = velocity;
  layout.period = c.period;
  layout.counter_names = {"impacts", "accumulations", "coupled_phases", "lift_offs",
                          "stick_arcs", "reversals", "grazings", "root_evaluations"};
  layout.mode_names = {"flight", "coupled"};
  return layout;
}

TraceLayout ConveyorSimulation::trace_layout() const {
  return {{"h", "u", "vT", "x"}, {"m", "m/s", "m/s", "m"}};
}

double ConveyorSimulation::now() const { return (static_cast<double>(periods_) * kTwoPi + theta_) / c_.omega; }

template <class State>
void ConveyorSimulation::trace_to(double y_end, int mode, State&& state) {
  if (!trace_) return;
  const double phase0 = static_cast<double>(periods_) * kTwoPi + theta_;
  trace_->fill_to((phase0 + y_end) / c_.omega, mode, [&](double t, double* out) { state(c_.omega * t - phase0, out); });
}

void ConveyorSimulation::trace_event(const char* kind, double u_before, double u_after, double vT_before) {
  if (!trace_) return;
  const double before[] = {0.0, u_before, vT_before, x_}, after[] = {0.0, u_after, vT_, x_};
  trace_->on_event(now(), kind, before, after);
}

ConveyorSimulation::ConveyorSimulation(const ConveyorConstants& constants, const ConveyorStart& start)
    : c_(constants), start_(start), layout_(conveyor_layout(constants)) {
  sample_.aux[kLastImpactPhase] = std::numeric_limits<double>::quiet_NaN();
  sample_.aux[kLastApproachVelocity] = std::numeric_limits<double>::quiet_NaN();
}

void ConveyorSimulation::count_event() {
  charge_events();
  if (++events_this_period_ > c_.events_per_period_cap)
    throw CaseFailure("more than " + std::to_string(static_cast<long long>(c_.events_per_period_cap)) +
                      " events in one period (unresolved accumulation?)");
}

void ConveyorSimulation::log_event(ConveyorEvent::Kind kind, double u_before, double u_after, double slip) {
  if (!events_) return;
  const double time = (static_cast<double>(periods_) * kTwoPi + theta_) / c_.omega;
  events_->push_back({kind, time, theta_, u_before, u_after, vT_, x_, slip});
}

bool ConveyorSimulation::emit(double h, double u, int mode) {
  ++periods_;
  events_this_period_ = 0;
  sample_.period = periods_;
  sample_.time = static_cast<double>(periods_) * c_.period;
  sample_.mode = mode;
  sample_.drift_position = x_;
  sample_.state[0] = h;
  sample_.state[1] = u;
  sample_.state[2] = vT_;
  if (!std::isfinite(h + u + vT_ + x_)) throw CaseFailure("non-finite state at t = " + std::to_string(sample_.time));
  if (trace_) {  // the motion's own clock reaches k T only up to rounding: the sample is the state there
    const double state[] = {h, u, vT_, x_};
    trace_->fill_to(sample_.time, mode, [&](double, double* out) { std::copy(state, state + 4, out); });
  }
  return observer_->on_sample(sample_);
}

ConveyorSimulation::FlightStart ConveyorSimulation::after_impact(double u) const {
  // h = 0, h' = u/omega > 0: the gap is positive up to the certified start point (spec 2.3).
  const double g1 = u / c_.omega, g2 = -c_.G + c_.A * std::sin(theta_);
  double y0 = certified_start(g1, g2, c_.A, c_.G + c_.A);
  if (!(y0 > 0)) {
    // Leaving with no rebound velocity (only when F_N <= 0): use h''' like a lift-off.
    const double g3 = c_.A * std::cos(theta_);
    y0 = (g3 > 0 && c_.A > 0) ? 0.999 * 4 * g3 / c_.A : 0;
  }
  if (!(y0 > 0)) throw CaseFailure("part cannot leave the plate after an impact at phase " + std::to_string(theta_));
  return {0.0, u, y0, c_.G};
}

ConveyorSimulation::FlightStart ConveyorSimulation::after_lift_off() const {
  // h = h' = h'' = 0 and h''' = A cos(theta_L) > 0; with |h''''| <= A the gap is positive up to
  // 4 cos(theta_L) (spec 2.3). Gravity is written as A sin(theta_L) so that h'' = 0 holds exactly.
  return {0.0, 0.0, 0.999 * 4 * std::cos(c_.theta_L), c_.A * std::sin(c_.theta_L)};
}

ConveyorSimulation::Next ConveyorSimulation::fly(const FlightStart& start) {
  const PlateGap gap{start.h, start.u / c_.omega, start.G, c_.A * std::sin(theta_), c_.A * std::cos(theta_)};
  // The flight ends before the parabola of the absolute position falls 2A below its start (spec 2.2).
  const double vN_phase = start.u / c_.omega + c_.A * std::cos(theta_);
  const double y_max = 1.001 * (vN_phase + std::sqrt(vN_phase * vN_phase + 2 * start.G * (start.h + 2 * c_.A))) /
                       start.G + 1e-12;
  RootSettings settings;
  settings.rtol = c_.root_rtol;
  const RootBounds bounds{c_.A, start.G + c_.A, c_.A - start.G};
  const RootResult root = certified_first_root(gap, start.y0, y_max, bounds, settings);
  sample_.counters[kRootEvaluations] += root.evaluations;
  if (root.outcome == RootOutcome::NoRoot) throw CaseFailure("flight did not end within its proven bound");
  const double y_end = root.y;
  const double x_start = x_;
  const auto flight_state = [&](double y, double* out) {
    const Derivs d = gap(y);
    out[0] = d.g;
    out[1] = c_.omega * d.g1;
    out[2] = vT_;
    out[3] = x_start + vT_ * y / c_.omega;
  };
  trace_to(y_end, kFlight, flight_state);  // the periods emitted inside do not move the flight's clock

  // Stroboscopic samples inside the flight.
  double y_strobe = kTwoPi - theta_;
  int strobes = 0;
  while (y_strobe <= y_end) {
    const Derivs d = gap(y_strobe);
    x_ = x_start + vT_ * y_strobe / c_.omega;
    const bool go_on = emit(d.g, c_.omega * d.g1, kFlight);
    x_ = x_start;
    if (!go_on) return Next::Stop;
    ++strobes;
    y_strobe += kTwoPi;
  }
  x_ += vT_ * y_end / c_.omega;
  theta_ = theta_ + y_end - kTwoPi * strobes;
  if (theta_ >= kTwoPi) theta_ = std::nextafter(kTwoPi, 0.0);
  pending_u_ = c_.omega * gap(y_end).g1;
  pending_grazing_ = root.outcome == RootOutcome::Grazing;
  return Next::Impact;
}

ConveyorSimulation::Next ConveyorSimulation::impact(double u_before, bool grazing) {
  count_event();
  ++sample_.counters[grazing ? kGrazings : kImpacts];
  sample_.aux[kLastImpactPhase] = theta_;
  sample_.aux[kLastApproachVelocity] = u_before;
  const NormalImpact normal = newton_restitution(u_before, c_.c_r);
  const double vT_before = vT_;
  vT_ = coulomb_impulse(vT_, c_.B * c_.omega * std::cos(theta_), c_.mu, normal.impulse);
  const double normal_force = c_.g - c_.A * c_.omega * c_.omega * std::sin(theta_);  // F_N / m in contact
  log_event(grazing ? ConveyorEvent::Kind::Grazing : ConveyorEvent::Kind::Impact, u_before, normal.u_after);
  trace_event(grazing ? "grazing" : "impact", u_before, normal.u_after, vT_before);
  if (normal.u_after < c_.u_tol && normal_force > 0) {
    ++sample_.counters[kAccumulations];
    log_event(ConveyorEvent::Kind::Accumulation);
    trace_event("accumulation", normal.u_after, 0.0, vT_);
    return Next::Coupled;
  }
  pending_flight_ = after_impact(normal.u_after);
  return Next::Flight;
}

ConveyorSimulation::Next ConveyorSimulation::ride() {
  count_event();
  ++sample_.counters[kCoupledPhases];
  // Contact lasts to the next lift-off phase theta_L (never when Gamma <= 1; spec 3.3).
  double y_left = kInf;
  if (c_.lifts_off) {
    y_left = c_.theta_L - theta_;
    while (y_left <= 0) y_left += kTwoPi;
  }
  const double w = c_.omega, w2 = w * w;
  const bool eq62 = c_.coupled_friction == CoupledFriction::Eq62;
  const double v_eps = 1e-13 * c_.B * w;

  // Tangential arc state: stick, or slip with sign s (and whether it starts at r = 0).
  bool stick = false, from_zero = false;
  double s = 0;
  auto choose_at_zero_relative_velocity = [&]() {
    // r = 0: stick if friction can hold the part on the plate, else slip the other way (spec 3.4).
    const double required = -c_.B * w2 * std::sin(theta_);
    const double available = c_.mu * (c_.g - c_.A * w2 * std::sin(theta_));
    vT_ = c_.B * w * std::cos(theta_);
    if (std::fabs(required) <= available) {
      stick = true;
    } else {
      stick = false;
      s = required > 0 ? 1.0 : -1.0;
      from_zero = true;
    }
  };
  const double r0 = c_.B * w * std::cos(theta_) - vT_;
  if (eq62) {
    s = r0 > 0 ? 1.0 : r0 < 0 ? -1.0 : (std::sin(theta_) < 0 ? 1.0 : -1.0);
  } else if (std::fabs(r0) <= v_eps) {
    choose_at_zero_relative_velocity();
  } else {
    s = r0 > 0 ? 1.0 : -1.0;
  }
  log_event(ConveyorEvent::Kind::ArcStart, 0, 0, stick ? 0.0 : s);

  while (true) {
    const double y_strobe = kTwoPi - theta_;
    const double y_segment = std::min(y_left, y_strobe);
    double y_done = y_segment;  // how far this arc goes before something happens
    bool arc_ended = false;
    if (stick) {
      // Break-away at sin(theta) rising through sigma+ or falling through -sigma-.
      double y_exit = kInf;
      for (const double exit : {c_.sigma_plus < 1 ? std::asin(c_.sigma_plus) : kInf,
                                c_.sigma_minus < 1 ? 0.5 * kTwoPi + std::asin(c_.sigma_minus) : kInf}) {
        if (std::isinf(exit)) continue;
        double y = std::fmod(exit - theta_ + 2 * kTwoPi, kTwoPi);
        if (y > kTwoPi - 1e-9) y = 0;  // at the boundary itself, up to rounding
        y_exit = std::min(y_exit, y);
      }
      if (y_exit < y_segment) {
        y_done = y_exit;
        arc_ended = true;
      }
      const double theta_end = theta_ + y_done;
      trace_to(y_done, kCoupled, [&](double y, double* out) {
        out[0] = out[1] = 0;
        out[2] = c_.B * w * std::cos(theta_ + y);
        out[3] = x_ + c_.B * (std::sin(theta_ + y) - std::sin(theta_));
      });
      x_ += c_.B * (std::sin(theta_end) - std::sin(theta_));
      vT_ = c_.B * w * std::cos(theta_end);
    } else {
      const SlipArc arc{s, std::sin(theta_), std::cos(theta_), vT_, x_, w, c_.g, c_.A, c_.B, c_.mu};
      if (!eq62) {
        double y0 = 0;
        RootSettings settings;
        settings.rtol = c_.root_rtol;
        if (from_zero) {
          const Derivs d0 = arc(0.0);
          y0 = certified_start(d0.g1, d0.g2, arc.bounds().K, arc.bounds().K);
          if (!(y0 > 0)) throw CaseFailure("slip arc cannot start at phase " + std::to_string(theta_));
        }
        if (y0 < y_segment) {
          const RootResult root = certified_first_root(arc, y0, y_segment, arc.bounds(), settings);
          sample_.counters[kRootEvaluations] += root.evaluations;
          if (root.outcome != RootOutcome::NoRoot) {
            y_done = root.y;
            arc_ended = true;
          }
        }
      }
      trace_to(y_done, kCoupled, [&](double y, double* out) {
        out[0] = out[1] = 0;
        out[2] = arc.velocity(y);
        out[3] = arc.position(y);
      });
      vT_ = arc.velocity(y_done);
      x_ = arc.position(y_done);
    }

    theta_ += y_done;
    y_left -= y_done;
    if (arc_ended) {
      count_event();
      if (stick) {  // break-away: the part overtakes (sin > 0) or falls behind (sin < 0)
        stick = false;
        s = std::sin(theta_) > 0 ? -1.0 : 1.0;
        from_zero = true;
        log_event(ConveyorEvent::Kind::BreakAway, 0, 0, s);
        trace_event("break_away", 0, 0, vT_);
      } else {
        const double vT_before = vT_;
        choose_at_zero_relative_velocity();
        ++sample_.counters[stick ? kStickArcs : kReversals];
        log_event(stick ? ConveyorEvent::Kind::Stick : ConveyorEvent::Kind::Reversal, 0, 0, stick ? 0.0 : s);
        trace_event(stick ? "stick" : "reversal", 0, 0, vT_before);
      }
      continue;
    }
    from_zero = false;  // the arc goes on from a point where its function is certified positive
    if (y_done == y_strobe && y_left > 0) {
      theta_ = 0;
      if (!emit(0.0, 0.0, kCoupled)) return Next::Stop;
      continue;
    }
    // Lift-off.
    theta_ = c_.theta_L;
    ++sample_.counters[kLiftOffs];
    log_event(ConveyorEvent::Kind::LiftOff);
    trace_event("lift_off", 0, 0, vT_);
    pending_flight_ = after_lift_off();
    return Next::Flight;
  }
}

ConveyorSimulation::Next ConveyorSimulation::initial_step() {
  theta_ = 0;
  x_ = 0;
  vT_ = start_.vT0;
  const double plate_velocity = c_.A * c_.omega;  // normal plate velocity at t = 0
  switch (start_.mode) {
    case StartMode::Drop: {
      const double u0 = start_.v0 - plate_velocity;
      if (start_.z0 > 0) {
        pending_flight_ = {start_.z0, u0, 0.0, c_.G};
        return Next::Flight;
      }
      if (u0 > 0) {
        pending_flight_ = after_impact(u0);
        return Next::Flight;
      }
      if (start_.on_plate == OnPlateMode::Coupled) return Next::Coupled;  // resting on the plate (spec 4.3)
      pending_u_ = u0;
      pending_grazing_ = false;
      return Next::Impact;
    }
    case StartMode::FirstImpact: {
      theta_ = start_.psi1;
      const double u_before = -start_.v1 - plate_velocity * std::cos(start_.psi1);
      if (u_before >= 0)
        throw InfeasibleCase("no impact: the plate recedes faster than the part approaches (u' >= 0)");
      pending_u_ = u_before;
      pending_grazing_ = false;
      return Next::Impact;
    }
    case StartMode::State: {
      const double turns = std::floor(start_.theta0 / kTwoPi);
      theta_ = start_.theta0 - turns * kTwoPi;
      periods_ = static_cast<std::int64_t>(turns);  // the clock starts at theta0
      if (start_.h0 > 0) {
        pending_flight_ = {start_.h0, start_.u0, 0.0, c_.G};
        return Next::Flight;
      }
      if (start_.u0 > 0) {
        pending_flight_ = after_impact(start_.u0);
        return Next::Flight;
      }
      if (c_.g - c_.A * c_.omega * c_.omega * std::sin(theta_) > 0) return Next::Coupled;  // pressed onto the plate
      pending_flight_ = after_impact(0.0);  // in contact but the plate pulls away: leaves at once
      return Next::Flight;
    }
  }
  return Next::Stop;
}

bool ConveyorSimulation::restart_from(const StrobeSample& sample) {
  const double h = sample.state[0], u = sample.state[1], vT = sample.state[2];
  if (!std::isfinite(h + u + vT + sample.drift_position)) return false;
  theta_ = 0;  // samples are taken at phase 0
  periods_ = sample.period;
  events_this_period_ = 0;
  vT_ = vT;
  x_ = sample.drift_position;
  sample_.counters = sample.counters;
  sample_.aux = sample.aux;
  if (sample.mode == kCoupled) {
    resume_ = Next::Coupled;  // F_N = m g > 0 at phase 0: contact holds
  } else if (h > 0) {
    pending_flight_ = {h, u, 0.0, c_.G};
    resume_ = Next::Flight;
  } else {
    return false;
  }
  // Resuming re-enters a coupled phase; do not count it as a new one.
  if (resume_ == Next::Coupled) --sample_.counters[kCoupledPhases];
  started_ = true;
  return true;
}

long long structural_events(const std::vector<ConveyorEvent>& events) {
  // Continuation reports a change of this count as a grazing. A microthrow sequence counts once: how
  // many of its impacts are simulated before the accumulation depends on u_tol, not on the orbit.
  long long count = 0;
  bool absorbed = false;  // walking backwards: inside the impacts that end in an accumulation
  for (auto e = events.rbegin(); e != events.rend(); ++e) {
    if (e->kind == ConveyorEvent::Kind::Accumulation) absorbed = true;
    else if (e->kind != ConveyorEvent::Kind::Impact) absorbed = false;
    else if (absorbed) continue;
    ++count;
  }
  return count;
}

bool ConveyorSimulation::stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) {
  // The simulation itself runs the map, logging its events; the tangent map follows them.
  ConveyorSimulation copy(c_, start_);
  std::vector<ConveyorEvent> events;
  copy.record_events(&events);
  if (!copy.restart_from(from)) return false;
  struct Last : StrobeObserver {
    int left;
    StrobeSample sample{};
    bool on_sample(const StrobeSample& s) override {
      sample = s;
      return --left > 0;
    }
  } last;
  last.left = periods;
  copy.run(last);
  Eigen::Matrix3d jacobian;
  if (!stroboscopic_tangent_map(c_, events, static_cast<double>(from.period) * c_.period, from.state[2],
                                from.mode == kCoupled, periods * kTwoPi, jacobian))
    return false;
  step.image = last.sample;
  step.jacobian = jacobian;
  step.events = structural_events(events);
  // Every coupled phase (begun in this map or resumed from a coupled sample) absorbs the normal state.
  step.resets = static_cast<int>(std::count_if(events.begin(), events.end(), [](const ConveyorEvent& e) {
    return e.kind == ConveyorEvent::Kind::ArcStart;
  }));
  return true;
}

std::vector<std::complex<double>> ConveyorSimulation::floquet_multipliers(int periods) {
  MapStep step;
  if (!stroboscopic_map(sample_, periods, step)) return {};
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(step.jacobian, false);
  std::vector<std::complex<double>> mu;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) mu.push_back(solver.eigenvalues()[i]);
  return mu;
}

void ConveyorSimulation::run(StrobeObserver& observer) {
  observer_ = &observer;
  Next next = started_ ? resume_ : initial_step();
  if (trace_) trace_->skip_to(now());  // a first-impact start has no state before its impact
  started_ = true;
  while (next != Next::Stop) {
    switch (next) {
      case Next::Flight: next = fly(pending_flight_); break;
      case Next::Impact: next = impact(pending_u_, pending_grazing_); break;
      case Next::Coupled: next = ride(); break;
      case Next::Stop: break;
    }
  }
  // A later run() continues from the last sample, re-based at phase 0.
  resume_ = Next::Stop;
  if (!restart_from(sample_)) resume_ = Next::Stop;
}

}  // namespace vibro::conveyor
