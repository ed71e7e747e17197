#pragma once
// Forces of the dimer's contact phases (Signorini and Coulomb at acceleration level, Liu, Zhao and
// Brogliato, "Variable structure dynamics in a bouncing dimer", INRIA RR-6718, 2008, sections 3.1-3.4):
//  - one closed tip i (the other open), slipping with sign sigma: F_t = -mu_c sigma F_n and the tip
//    stays on the plate, F_n = (ypp_p - H_n) / (A - mu_c sigma B);
//  - one closed tip, stuck: the tip's tangential acceleration vanishes too, F_t = -(B F_n + H_t) / D;
//  - both tips closed (theta = 0, thetadot = 0): one sliding body; only the sum of the friction forces
//    is determined (superstatic), split equally; both tips slip together or stick together.
// A, B, D are the tip's entries of the Delassus matrix, H its free accelerations. Written for any
// scalar type: double for the dynamics, DualInterval for bounds over part of a step (event search).
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

enum class TipStatus { Open, SlipPlus, SlipMinus, Stick };
inline bool closed(TipStatus s) { return s != TipStatus::Open; }
inline int slip_sign(TipStatus s) { return s == TipStatus::SlipPlus ? 1 : (s == TipStatus::SlipMinus ? -1 : 0); }
// -1 for tip 0 (left: its height is Y - (l/2) sin theta - r), +1 for tip 1.
inline double tip_side(int tip) { return tip == 0 ? -1.0 : 1.0; }

template <class T>
struct ContactForces {
  T normal[2] = {T(0.0), T(0.0)}, tangential[2] = {T(0.0), T(0.0)};
  T acceleration[3] = {T(0.0), T(0.0), T(0.0)};  // Xddot, Yddot, thetaddot
  T normal_stiffness = T(1.0);  // A - mu sigma B of the slipping closed tip (> 0: no Painleve paradox)
};

// State of the body as the force law needs it: tilt, its rate, and time (plate phase).
template <class T>
ContactForces<T> contact_forces(const DimerConstants& k, const TipStatus status[2], const T& theta, const T& thetadot,
                                const T& t) {
  using std::cos;
  using std::sin;
  const DimerBody& b = k.body;
  ContactForces<T> f;
  const T plate_acceleration = k.A * k.omega * k.omega * sin(k.omega * t);
  if (closed(status[0]) && closed(status[1])) {
    const T N = b.m * (k.g + plate_acceleration);
    const double sigma = slip_sign(status[0]);
    const double torque_ratio = b.r * k.mu_c * sigma / (0.5 * b.l);  // friction torque balanced by F_n2 - F_n1
    f.normal[0] = 0.5 * N * (1 - torque_ratio);
    f.normal[1] = 0.5 * N * (1 + torque_ratio);
    f.tangential[0] = f.tangential[1] = -0.5 * k.mu_c * sigma * N;
    f.acceleration[0] = -k.mu_c * sigma * N / b.m;
    f.acceleration[1] = plate_acceleration;
    return f;
  }
  f.acceleration[1] = T(-k.g);
  const int i = closed(status[0]) ? 0 : (closed(status[1]) ? 1 : -1);
  if (i < 0) return f;
  const double side = tip_side(i);
  const T c = 0.5 * b.l * cos(theta), s = 0.5 * b.l * sin(theta);
  const T rho = b.r - side * s;
  const T A = 1 / b.m + c * c / b.I, B = side * c * rho / b.I, D = 1 / b.m + rho * rho / b.I;
  const T w2 = thetadot * thetadot;
  const T H_n = -k.g - side * s * w2, H_t = -side * c * w2;
  T Fn, Ft;
  if (status[i] == TipStatus::Stick) {
    Fn = (plate_acceleration - H_n + B * H_t / D) / (A - B * B / D);
    Ft = -(B * Fn + H_t) / D;
  } else {
    const double mu_sigma = k.mu_c * slip_sign(status[i]);
    f.normal_stiffness = A - mu_sigma * B;
    Fn = (plate_acceleration - H_n) / f.normal_stiffness;
    Ft = -mu_sigma * Fn;
  }
  f.normal[i] = Fn;
  f.tangential[i] = Ft;
  f.acceleration[0] = Ft / b.m;
  f.acceleration[1] = Fn / b.m - k.g;
  f.acceleration[2] = (side * c * Fn + rho * Ft) / b.I;
  return f;
}

}  // namespace vibro::dimer
