#pragma once
// The dimer's free flight in closed form (both tips open): the centre of mass on a parabola, the tilt
// at a constant rate, X = X0 + Xdot0 tau, Y = Y0 + Ydot0 tau - g tau^2 / 2, theta = theta0 + thetadot0 tau.
// A tip's gap to the plate, delta_i = Y + side_i (l/2) sin theta - r + A sin(omega t), carries the
// tilt's sine and the plate's sine; its first zero is found by certified_first_root (Taylor bounds
// from global bounds on the derivatives: never missed, grazing included), not by sampling. Gaps are
// written relative to the flight's start (differences of sines in product form), so a micro-hop of a
// few nanometres keeps full relative precision.
#include <Eigen/Core>

#include "engine/roots/certified_first_root.hpp"
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

// Gap of one tip during a flight, as a function of the plate phase elapsed since the start,
// y = omega tau (radians), with its first two derivatives in y.
struct FlightTipGap {
  double gap0;            // at the start, m
  double Ydot0, g;        // m/s, m/s^2
  double half_l_side;     // side_i l / 2, m
  double theta0, thetadot0;
  double A, omega, phase0;  // plate amplitude, rad/s, omega t0

  Derivs operator()(double y) const;
  RootBounds bounds() const;
  // Third and bound of the fourth derivative in y at the start (certifying a start at zero gap).
  double third_at_start() const;
  double fourth_bound() const;
};

enum class FlightEnd { None, Contact, Grazing };

struct FlightEvent {
  FlightEnd kind = FlightEnd::None;
  int tip = -1;
  double tau = 0;  // s after the flight's start
};

class DimerFlight {
 public:
  // gap0[i]: the gap at the start; exactly 0 for a tip that is leaving the plate there (after an
  // impact, a detachment or a touch). leaving_at_rest[i]: such a tip leaves with zero normal velocity
  // (a detachment: its contact force just reached zero), so the flight starts on the plate to second order.
  DimerFlight(const DimerConstants& c, double t0, const Eigen::Matrix<double, 6, 1>& state, const double gap0[2],
              const bool leaving_at_rest[2]);

  // The first contact of either tip in (tau_from, tau_to]; tau_from must be certified free of one
  // (0, or the tau_to of an earlier call).
  FlightEvent first_contact(double tau_from, double tau_to) const;
  Eigen::Matrix<double, 6, 1> state_at(double tau) const;
  double gap(int tip, double tau) const { return tip_[tip](c_.omega * tau).g; }
  double gap_rate(int tip, double tau) const { return c_.omega * tip_[tip](c_.omega * tau).g1; }
  double t0() const { return t0_; }
  const Eigen::Matrix<double, 6, 1>& start() const { return start_; }

 private:
  const DimerConstants& c_;
  double t0_;
  Eigen::Matrix<double, 6, 1> start_;
  FlightTipGap tip_[2];
  double certified_from_[2];  // phase up to which the tip's gap is proved positive from the start
  bool touching_[2] = {false, false};  // a zero-gap start that no bound could prove rising: contact now
};

}  // namespace vibro::dimer
