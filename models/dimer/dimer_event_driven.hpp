#pragma once
// Event-driven integration of the bouncing dimer (the scheme of Liu, Zhao and Brogliato, "Variable
// structure dynamics in a bouncing dimer", INRIA research report RR-6718, 2008, section 3):
//  - free flight (both tips open) in closed form, the first contact of either tip by a certified
//    root search on its gap (DimerFlight);
//  - contact phases (one tip closed, slipping or stuck, or both closed at theta = 0) by DOPRI5 on the
//    acceleration-level force law (dimer_contact_law.hpp), the closed tips projected back onto the
//    plate after each step; on every accepted step the first of these events is located on the dense
//    output by interval enclosures (enclosure_first_root), never missed: the contact force reaching
//    zero (detachment), the slip velocity reaching zero (stick test: stick or reversal), a stuck tip's
//    friction reaching mu_s F_n (slip starts), and the open tip's gap closing (impact);
//  - impacts by the impulse-domain solver (resolve_dimer_impact), after which a tip leaving slower
//    than the closure speed A omega / 100 stays closed; an approach slower than that closes the
//    contact without an impact (inelastic collapse), and so does every approach beyond impact_cap
//    impacts in one period (forced closure of a Zeno sequence).
#include <Eigen/Core>
#include <optional>

#include "engine/core/model.hpp"
#include "engine/ode/dormand_prince5.hpp"
#include "models/dimer/dimer_contact_law.hpp"
#include "models/dimer/dimer_flight.hpp"
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

using DimerState = Eigen::Matrix<double, 6, 1>;  // X, Y, theta, Xdot, Ydot, thetadot

class DimerEventDriven : public Simulation {
 public:
  explicit DimerEventDriven(const DimerConstants& constants);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;
  // The same components as the Moreau-Jean scheme: grid states from the flight's closed form or the
  // contact step's dense output (the interpolant the events are located on), closed tips projected
  // onto the plate; every impact, closure, detachment and stick-slip switch with the state around it.
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override;

  // Sees every flight when it ends in a contact (tests: a brute-force check that no gap went negative unseen).
  struct FlightLog {
    virtual ~FlightLog() = default;
    virtual void on_flight(const DimerFlight& flight, double duration) = 0;
  };
  void set_flight_log(FlightLog* log) { flight_log_ = log; }

 private:
  void advance(double t_end);
  void fly(double t_end);
  void contact_phase(double t_end);
  void touch(int tip, bool with_other);  // tip's gap reached zero (with_other: the other tip's too, at once)
  void impact(int tip);
  void close_tip(int tip);
  void settle();          // statuses after an impact or a closure: tangential state, then forces
  void assign_tangential(int tip);
  void open_tip(int tip, bool at_rest);
  void project() { project(y_, t_); }  // closed tips back onto the plate (and stuck tips to zero slip)
  void project(DimerState& y, double t) const;
  void on_contact_event(int guard);
  double slip_velocity(int tip) const { return slip_velocity(y_, tip); }
  double normal_velocity(int tip) const { return normal_velocity(y_, t_, tip); }  // relative to the plate
  double gap(int tip) const { return gap(y_, t_, tip); }
  double slip_velocity(const DimerState& y, int tip) const;
  double normal_velocity(const DimerState& y, double t, int tip) const;
  double gap(const DimerState& y, double t, int tip) const;
  int contact_mode() const;
  // The trace's view of an event: the state and counters before it, reported with the state after.
  struct EventStart {
    double state[6];
    decltype(StrobeSample::counters) counters;
  };
  EventStart event_start() const;
  void report_event(const EventStart& start, const char* uncounted_kind);
  void track_flight(double tau_from, double tau_to);
  void track_step(const DenseStep<6>& step, double theta_end);
  void trace_step(const DenseStep<6>& step);
  StrobeSample make_sample();

  DimerConstants c_;
  StrobeLayout layout_;
  double t_ = 0;
  DimerState y_ = DimerState::Zero();
  TipStatus status_[2] = {TipStatus::Open, TipStatus::Open};
  bool anchored_[2] = {false, false};  // open tip that just left the plate: its gap is exactly 0
  bool at_rest_[2] = {false, false};   // ... with zero normal velocity (a detachment)
  std::optional<DimerFlight> flight_;
  double flight_tau_ = 0;  // the current flight is proved contact-free up to here
  DormandPrince5<6> stepper_;
  StepControl control_;
  double h_ = 0;
  double slip_tol_;
  double simultaneous_gap_;  // the other tip's gap at a landing below which both tips land together
  std::int64_t period_ = 0;
  StrobeSample sample_{};
  int impacts_this_period_ = 0;
  double theta_integral_period_ = 0, contact_time_period_[2] = {0, 0};
  FlightLog* flight_log_ = nullptr;
  TraceSink* sink_ = nullptr;
};

}  // namespace vibro::dimer
