#pragma once
// Parameters of the vertical ball balancer (Dedow 2016; SI units, defaults are the
// thesis's Chapter IX set with the inferred exact masses m_BB = 5/32.2 slug, m_P = 0.05/32.2 slug
// and e = R) and the constants a case derives from them.
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro::ball_balancer {

inline constexpr int kMaxBalls = 10;

struct BallBalancerConstants {
  // Rotor and suspension.
  double m_rotor, kx, ky, cx, cy;
  double unbalance;  // U = m_e e (m_e is not part of the translating mass: the thesis counts it in the unbalance only)
  double me_ratio;   // m_e / m_P, as given
  // Balls.
  int n;
  double m_ball, R, r_ball;
  double rolling_inertia;  // I_P (R/r)^2 = inertia_factor m_P R^2 (thesis kinematics)
  double drag;             // R d: generalised drag coefficient
  double mu_R, g;
  bool finite_radius;
  double alpha;  // collision angle 2 asin(r/R) (0 for point masses)
  double cor, v_stick;
  // Drive: phi = spin t + phi0.
  double spin, phi0, omega_n, period;
  // Initial state (x0, y0 from the static equilibrium).
  double x0, y0, vx0, vy0, theta1_0, spacing, theta_dot0;
  StepControl control;

  double total_mass() const { return m_rotor + n * m_ball; }
  double y_eq() const { return -total_mass() * g / ky; }
};

const std::vector<ParameterSpec>& ball_balancer_parameter_specs();
BallBalancerConstants constants_from(const ParameterSet& p);  // throws InputError on inconsistent input

}  // namespace vibro::ball_balancer
