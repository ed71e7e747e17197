#include "models/beam_slider/beam_slider_system.hpp"

#include <cmath>
#include <string>

#include "engine/core/model.hpp"

namespace vibro::beam_slider {

BeamSliderSystem::BeamSliderSystem(const BeamSliderConstants& constants)
    : c_(constants), axis_(constants.modes, constants.length, constants.beam_mass, constants.EI),
      base_(constants.w0_hat, constants.frequency, constants.am_depth, constants.am_frequency) {
  const double b = 0.5 * c_.corner_spacing, d = c_.hole_offset, R = c_.hole_height;
  // P1 top-left, P2 bottom-left, P3 bottom-right, P4 top-right (the paper's Fig. 1 numbering).
  corners_ = {Corner{-b, d + 0.5 * R, +1.0}, Corner{-b, d - 0.5 * R, -1.0}, Corner{+b, d - 0.5 * R, -1.0},
              Corner{+b, d + 0.5 * R, +1.0}};
  const int N = axis_.modes();
  inverse_mass_ = Eigen::VectorXd::Ones(N + 3);
  inverse_mass_(N) = c_.variant == Variant::Adaptive ? 1.0 / c_.mass : 0.0;
  inverse_mass_(N + 1) = 1.0 / c_.mass;
  inverse_mass_(N + 2) = 1.0 / c_.inertia;
}

SliderPose BeamSliderSystem::pose(const Eigen::VectorXd& q, double t) const {
  const int N = axis_.modes();
  return {q.data(), q(N), q(N + 1), q(N + 2), base_.displacement(t), base_.velocity(t)};
}

void BeamSliderSystem::forces(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double t, Eigen::VectorXd& h) {
  const int N = axis_.modes();
  const double base_load = c_.base_load ? base_.acceleration(t) : 0.0;
  for (int n = 0; n < N; ++n) {
    const double w = axis_.omega(n);
    h(n) = -2 * c_.damping * w * u(n) - w * w * q(n) - axis_.gamma(n) * base_load;
  }
  h(N) = 0;
  h(N + 1) = -c_.mass * c_.g;
  h(N + 2) = 0;
}

void BeamSliderSystem::closed_contacts(const Eigen::VectorXd& q, double t, timestepping::ClosedContacts& closed) {
  closed.count = 0;
  const SliderPose p = pose(q, t);
  const double r = c_.half_thickness, length = axis_.length();
  for (int i = 0; i < kCorners; ++i) {
    const Corner& corner = corners_[static_cast<std::size_t>(i)];
    const CornerPosition P = corner_position(p, corner);
    if (!(P.x >= 0 && P.x <= length))  // the paper does not model the clamps: a corner that left the beam ends the case (also catches NaN)
      throw CaseFailure("slider corner P" + std::to_string(i + 1) + " left the beam at t = " + std::to_string(t) +
                        " s (x = " + std::to_string(P.x) + " m)");
    // Exact projection only within one beam thickness of the surface (beyond that the projection can jump to the far surface).
    if (vertical_gap(axis_, p, corner, r) >= r) continue;
    const bool exact = c_.kinematics == ContactKinematics::Exact;
    const double x_star = exact ? closest_axis_point(axis_, p, corner) : P.x;
    if (!(x_star >= 0 && x_star <= length))
      throw CaseFailure("contact point of P" + std::to_string(i + 1) + " left the beam at t = " + std::to_string(t));
    const CornerKinematics gaps = corner_gaps(axis_, p, corner, r, x_star, c_.kinematics);
    if (gaps.gap_n > 0) continue;
    const int k = closed.add(i, c_.mu, c_.eps_n, c_.eps_t);
    const CornerKinematics kin = corner_kinematics(axis_, p, corner, r, x_star, closed.W.col(2 * k),
                                                   closed.W.col(2 * k + 1), c_.kinematics);
    closed.w(2 * k) = kin.w_n;
    closed.w(2 * k + 1) = kin.w_t;
  }
}

double BeamSliderSystem::rotational_energy(const Eigen::VectorXd& u) const {
  const double dphi = u(axis_.modes() + 2);
  return 0.5 * c_.inertia * dphi * dphi;
}

double BeamSliderSystem::mechanical_energy(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
  const int N = axis_.modes();
  double e = 0;
  for (int n = 0; n < N; ++n) {
    const double w = axis_.omega(n);
    e += 0.5 * (w * w * q(n) * q(n) + u(n) * u(n));
  }
  e += 0.5 * c_.mass * (u(N) * u(N) + u(N + 1) * u(N + 1));
  return e + rotational_energy(u);
}

void BeamSliderSystem::initial_state(Eigen::VectorXd& q, Eigen::VectorXd& u) const {
  const int N = axis_.modes();
  q = Eigen::VectorXd::Zero(N + 3);
  u = Eigen::VectorXd::Zero(N + 3);
  q(N) = c_.x_start;
  q(N + 1) = base_.displacement(0.0) - c_.hole_offset;  // beam axis midway between the corners
}

}  // namespace vibro::beam_slider
