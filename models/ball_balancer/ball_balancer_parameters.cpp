#include "models/ball_balancer/ball_balancer_parameters.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "engine/core/input_error.hpp"
#include "engine/hybrid/integrator_parameters.hpp"

namespace vibro::ball_balancer {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;
using G = ParameterGroup;

std::vector<ParameterSpec> make_specs() {
  std::vector<ParameterSpec> specs{
      ParameterSpec::real("m_rotor", G::Physics, "kg", 2.266134, 0, kInf, "rotor mass m_BB (5 lb / 32.2)").open_below(),
      ParameterSpec::real("k_x", G::Physics, "N/m", 218.9085, 0, kInf, "horizontal suspension stiffness").open_below(),
      ParameterSpec::real("k_y", G::Physics, "N/m", 218.9085, 0, kInf, "vertical suspension stiffness").open_below(),
      ParameterSpec::real("c_x", G::Physics, "N s/m", 2.23287, 0, kInf, "horizontal suspension damping"),
      ParameterSpec::real("c_y", G::Physics, "N s/m", 2.23287, 0, kInf, "vertical suspension damping"),
      ParameterSpec::real("me_ratio", G::Physics, "-", 1, 0, 1000, "eccentric mass over ball mass, m_e / m_P"),
      ParameterSpec::real("e", G::Physics, "m", 0.3048, 0, kInf, "radius of the eccentric mass (thesis: e = R)"),
      ParameterSpec::real("n_balls", G::Physics, "-", 1, 0, kMaxBalls, "number of balls in the race").integer(),
      ParameterSpec::real("m_ball", G::Physics, "kg", 0.0226613, 0, kInf, "ball mass m_P (0.05 lb / 32.2)").open_below(),
      ParameterSpec::real("R", G::Physics, "m", 0.3048, 0, kInf, "race centre-line radius").open_below(),
      ParameterSpec::real("r_ball", G::Physics, "m", 0.0127, 0, kInf, "ball radius (collision angle 2 asin(r/R); FR only)")
          .open_below(),
      ParameterSpec::real("inertia_factor", G::Physics, "-", 0.4, 0, 1,
                          "ball inertia I_P / (m_P r^2): 2/5 for a solid sphere, 0 for a sliding point"),
      ParameterSpec::real("d", G::Physics, "N s/rad", 0.066723, 0, kInf,
                          "fluid drag force per unit relative angular rate (generalised: R d)"),
      ParameterSpec::real("mu_R", G::Physics, "-", 0.024, 0, 1, "rolling-resistance coefficient (force mu_R |N|)"),
      ParameterSpec::real("g", G::Physics, "m/s^2", 9.81456, 0, 1e3, "gravity along -y (thesis 32.2 ft/s^2)"),
      ParameterSpec::choice("balls", G::Physics, {"point_mass", "finite_radius"}, "point_mass",
                            "PM: balls pass through each other; FR: collisions, trains and separations"),
      ParameterSpec::real("cor", G::Physics, "-", 0.85, 0, 1, "ball-ball coefficient of restitution (FR)"),
      ParameterSpec::real("v_stick", G::Physics, "rad/s", 1e-3, 0, 1,
                          "train formation: touching balls closing slower than this stick plastically (FR)"),
      ParameterSpec::real("spin_ratio", G::Physics, "-", 1.5, 0, 100,
                          "spin speed over omega_n = sqrt(k_x / m_rotor); phi = spin t + phi0").open_below(),
      ParameterSpec::real("phi0", G::Physics, "rad", 0, -100, 100, "spin angle at t = 0 (unbalance direction)"),
      ParameterSpec::real("x0", G::Initial, "m", 0, -10, 10, "initial horizontal rotor displacement"),
      ParameterSpec::real("y0", G::Initial, "m", 0, -10, 10, "initial vertical rotor displacement from static equilibrium"),
      ParameterSpec::real("vx0", G::Initial, "m/s", 0, -1e3, 1e3, "initial horizontal rotor velocity"),
      ParameterSpec::real("vy0", G::Initial, "m/s", 0, -1e3, 1e3, "initial vertical rotor velocity"),
      ParameterSpec::real("theta1_0", G::Initial, "rad", -kPi / 2, -100, 100,
                          "initial absolute angle of ball 1 (0: 3 o'clock, -pi/2: bottom)"),
      ParameterSpec::real("spacing", G::Initial, "rad", 0.5, 0, 2 * kPi, "initial angle between CCW neighbours"),
      ParameterSpec::real("theta_dot0", G::Initial, "rad/s", 0, -1e4, 1e4, "initial absolute angular rate of every ball"),
  };
  append_integrator_parameters(specs);
  return specs;
}
}  // namespace

const std::vector<ParameterSpec>& ball_balancer_parameter_specs() {
  static const std::vector<ParameterSpec> specs = make_specs();
  return specs;
}

BallBalancerConstants constants_from(const ParameterSet& p) {
  BallBalancerConstants c{};
  c.m_rotor = p.get("m_rotor");
  c.kx = p.get("k_x");
  c.ky = p.get("k_y");
  c.cx = p.get("c_x");
  c.cy = p.get("c_y");
  c.n = static_cast<int>(p.get("n_balls"));
  c.m_ball = p.get("m_ball");
  c.me_ratio = p.get("me_ratio");
  c.unbalance = c.me_ratio * c.m_ball * p.get("e");
  c.R = p.get("R");
  c.r_ball = p.get("r_ball");
  c.rolling_inertia = p.get("inertia_factor") * c.m_ball * c.R * c.R;
  c.drag = c.R * p.get("d");
  c.mu_R = p.get("mu_R");
  c.g = p.get("g");
  c.finite_radius = p.choice("balls") == "finite_radius";
  if (c.finite_radius && c.r_ball >= c.R) throw InputError("r_ball must be below R for finite-radius balls");
  c.alpha = c.finite_radius ? 2 * std::asin(c.r_ball / c.R) : 0.0;
  c.cor = p.get("cor");
  c.v_stick = p.get("v_stick");
  c.omega_n = std::sqrt(c.kx / c.m_rotor);
  c.spin = p.get("spin_ratio") * c.omega_n;
  c.phi0 = p.get("phi0");
  c.period = 2 * kPi / c.spin;
  c.x0 = p.get("x0");
  c.y0 = p.get("y0");
  c.vx0 = p.get("vx0");
  c.vy0 = p.get("vy0");
  c.theta1_0 = p.get("theta1_0");
  c.spacing = p.get("spacing");
  c.theta_dot0 = p.get("theta_dot0");
  if (c.finite_radius && c.n >= 2) {
    if (c.n * c.alpha >= 2 * kPi) throw InputError("n_balls finite-radius balls do not fit in the race (n alpha >= 2 pi)");
    const double widest = (2 * kPi - c.alpha) / (c.n - 1);
    if (c.spacing < c.alpha || c.spacing > widest)
      throw InputError("spacing must keep finite-radius balls apart: accepted [" + std::to_string(c.alpha) + ", " +
                       std::to_string(widest) + "] rad for these n_balls, r_ball, R");
  }
  c.control = integrator_control(p, c.period / 40);
  return c;
}

}  // namespace vibro::ball_balancer
