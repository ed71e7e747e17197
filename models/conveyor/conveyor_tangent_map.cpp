#include "models/conveyor/conveyor_tangent_map.hpp"

#include <cmath>

namespace vibro::conveyor {

namespace {

// Free flight over dy rad: h' = u / omega, u' = omega (-G + A sin theta), vT' = 0 (d/dtheta).
Eigen::Matrix3d flight(double dy, double omega) {
  Eigen::Matrix3d phi = Eigen::Matrix3d::Identity();
  phi(0, 1) = dy / omega;
  return phi;
}

// S = R_x + (f+ - R_x f- - R_theta) grad_h^T / (grad_h . f-), grad_h = (1, 0, 0), for the impact law
// u+ = -c_r u-, vT+ = coulomb_impulse(vT-, B omega cos theta, mu, (1 + c_r)(-u-)).
Eigen::Matrix3d saltation(const ConveyorConstants& c, const ConveyorEvent& e, double vT_before) {
  const double w = c.omega, theta = e.phase;
  const double plate_vT = c.B * w * std::cos(theta);
  Eigen::Matrix3d R = Eigen::Matrix3d::Zero();
  Eigen::Vector3d R_theta = Eigen::Vector3d::Zero();
  R(0, 0) = 1;
  R(1, 1) = -c.c_r;
  // Clamped when the impulse can bring vT to the plate's: then vT+ follows the plate and forgets vT-
  // (also at vT- = plate's, the fixed point of a hopping orbit, where both one-sided derivatives agree).
  if (std::fabs(vT_before - plate_vT) <= c.mu * (1 + c.c_r) * (-e.u_before)) {
    R_theta[2] = -c.B * w * std::sin(theta);  // clamped to the plate: follows its velocity
  } else {
    R(2, 2) = 1;  // sliding through the impact: vT+ = vT- -+ mu (1 + c_r)(-u-)
    R(2, 1) = (vT_before < plate_vT ? -1.0 : 1.0) * c.mu * (1 + c.c_r);
  }
  const double accel = w * (-c.G + c.A * std::sin(theta));
  const Eigen::Vector3d f_minus(e.u_before / w, accel, 0), f_plus(e.u_after / w, accel, 0);
  const Eigen::Vector3d kick = f_plus - R * f_minus - R_theta;
  Eigen::Matrix3d S = R;
  S.col(0) += kick / (e.u_before / w);
  return S;
}

}  // namespace

bool hopping_tangent_map(const ConveyorConstants& c, const std::vector<ConveyorEvent>& events, double start_time,
                         double vT_start, double phase_span, Eigen::Matrix3d& jacobian) {
  jacobian.setIdentity();
  double at = 0, vT = vT_start;
  for (const auto& e : events) {
    if (e.kind != ConveyorEvent::Kind::Impact || !(e.u_before < 0)) return false;
    const double y = (e.time - start_time) * c.omega;
    jacobian = saltation(c, e, vT) * flight(y - at, c.omega) * jacobian;
    at = y;
    vT = e.vT;
  }
  jacobian = flight(phase_span - at, c.omega) * jacobian;
  return true;
}

}  // namespace vibro::conveyor
