#include "models/dimer/dimer_flight.hpp"

#include <algorithm>
#include <cmath>

#include "models/dimer/dimer_contact_law.hpp"

namespace vibro::dimer {

namespace {
// sin(a + x) - sin(a) without cancellation for small x.
double sine_increment(double a, double x) { return 2 * std::cos(a + 0.5 * x) * std::sin(0.5 * x); }
}  // namespace

Derivs FlightTipGap::operator()(double y) const {
  const double tau = y / omega;
  const double theta = theta0 + thetadot0 * tau, phase = phase0 + y;
  const double h = gap0 + tau * (Ydot0 - 0.5 * g * tau) + half_l_side * sine_increment(theta0, thetadot0 * tau) +
                   A * sine_increment(phase0, y);
  const double h1 = (Ydot0 - g * tau + half_l_side * thetadot0 * std::cos(theta)) / omega + A * std::cos(phase);
  const double h2 = (-g - half_l_side * thetadot0 * thetadot0 * std::sin(theta)) / (omega * omega) - A * std::sin(phase);
  return {h, h1, h2};
}

RootBounds FlightTipGap::bounds() const {
  const double w = std::fabs(thetadot0) / omega, tilt = std::fabs(half_l_side);
  const double G = g / (omega * omega);
  return {tilt * w * w * w + A, G + tilt * w * w + A, -G + tilt * w * w + A};
}

double FlightTipGap::third_at_start() const {
  const double w = thetadot0 / omega;
  return -half_l_side * w * w * w * std::cos(theta0) - A * std::cos(phase0);
}

double FlightTipGap::fourth_bound() const {
  const double w = std::fabs(thetadot0) / omega;
  return std::fabs(half_l_side) * w * w * w * w + A;
}

namespace {
// The largest s <= 1 (halving) with d0 - d1 s - d2 s^2 - d3 s^3 > 0, all d >= 0: a lower bound that
// decreases in s, so it proves positivity on all of (0, s]. 0 when none down to 2^-60.
double positive_reach(double d0, double d1, double d2, double d3) {
  double s = 1;
  for (int k = 0; k < 60; ++k, s *= 0.5)
    if (d0 - s * (d1 + s * (d2 + s * d3)) > 0) return s;
  return 0;
}
}  // namespace

DimerFlight::DimerFlight(const DimerConstants& c, double t0, const Eigen::Matrix<double, 6, 1>& state, const double gap0[2],
                         const bool leaving_at_rest[2])
    : c_(c), t0_(t0), start_(state) {
  for (int i = 0; i < 2; ++i) {
    FlightTipGap& f = tip_[i];
    f = {gap0[i], state(4), c.g, tip_side(i) * 0.5 * c.body.l, state(2), state(5), c.A, c.omega, c.omega * t0};
    certified_from_[i] = 0;
    if (gap0[i] > 0) continue;
    // On the plate at the start: prove a first stretch positive from the Taylor expansion with the
    // bound on the fourth derivative, delta(s) >= s (d1 + d2 s / 2 + d3 s^2 / 6 - K4 s^3 / 24).
    const Derivs d = f(0);
    double d1 = d.g1, d2 = d.g2;
    const double d3 = f.third_at_start(), K4 = f.fourth_bound();
    // A detachment is located at (or just past) the zero of the contact force, where the free
    // relative acceleration -A_hat F_n is >= 0 up to rounding.
    if (leaving_at_rest[i]) d1 = 0, d2 = std::max(d2, 0.0);
    double reach = 0;
    if (d1 > 0) reach = positive_reach(d1, 0.5 * std::max(-d2, 0.0), std::max(-d3, 0.0) / 6, K4 / 24);
    else if (d1 == 0 && d2 >= 0 && d3 > 0) reach = std::min(1.0, 2 * d3 / K4);  // d3 s / 6 - K4 s^2 / 24 > 0
    else if (d1 == 0 && d2 > 0) reach = positive_reach(0.5 * d2, -d3 / 6, K4 / 24, 0);
    if (reach > 0 && f(reach).g > 0) certified_from_[i] = reach;
    else touching_[i] = true;
  }
}

FlightEvent DimerFlight::first_contact(double tau_from, double tau_to) const {
  FlightEvent first;
  RootSettings settings;
  settings.initial_step = 0.05;
  for (int i = 0; i < 2; ++i) {
    if (touching_[i]) return {FlightEnd::Grazing, i, 0.0};
    const double y_from = std::max(c_.omega * tau_from, certified_from_[i]);
    const double y_to = c_.omega * tau_to;
    if (first.kind != FlightEnd::None) {
      if (y_from >= c_.omega * first.tau) continue;
    }
    if (y_from >= y_to) continue;
    const double y_end = first.kind != FlightEnd::None ? std::min(y_to, c_.omega * first.tau) : y_to;
    const RootResult r = certified_first_root(tip_[i], y_from, y_end, tip_[i].bounds(), settings);
    if (r.outcome == RootOutcome::NoRoot) continue;
    first = {r.outcome == RootOutcome::Root ? FlightEnd::Contact : FlightEnd::Grazing, i, r.y / c_.omega};
  }
  return first;
}

Eigen::Matrix<double, 6, 1> DimerFlight::state_at(double tau) const {
  Eigen::Matrix<double, 6, 1> s = start_;
  s(0) += start_(3) * tau;
  s(1) += tau * (start_(4) - 0.5 * c_.g * tau);
  s(2) += start_(5) * tau;
  s(4) -= c_.g * tau;
  return s;
}

}  // namespace vibro::dimer
