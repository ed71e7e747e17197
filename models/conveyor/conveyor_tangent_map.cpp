#include "models/conveyor/conveyor_tangent_map.hpp"

#include <cmath>

namespace vibro::conveyor {

namespace {

using Kind = ConveyorEvent::Kind;

// Free flight over dy rad: h' = u / omega, u' = omega (-G + A sin theta), vT' = 0 (d/dtheta). In
// coupled motion the same matrix applies: rows h, u are zero there and vT' does not depend on vT.
Eigen::Matrix3d flight(double dy, double omega) {
  Eigen::Matrix3d phi = Eigen::Matrix3d::Identity();
  phi(0, 1) = dy / omega;
  return phi;
}

// d vT / d theta after an event: sliding with friction direction s, or sticking to the plate.
double tangential_field(const ConveyorConstants& c, double theta, double slip) {
  if (slip == 0) return -c.B * c.omega * std::sin(theta);  // the plate's velocity B omega cos theta
  return slip * c.mu * (c.g / c.omega - c.A * c.omega * std::sin(theta));
}

// S = R_x + (f+ - R_x f- - R_theta) grad_h^T / (grad_h . f-), grad_h = (1, 0, 0), for the impact law
// u+ = -c_r u-, vT+ = coulomb_impulse(vT-, B omega cos theta, mu, (1 + c_r)(-u-)). `accumulation`:
// the impact ends a microthrow sequence, the part then rides the plate with friction `slip`.
Eigen::Matrix3d impact_saltation(const ConveyorConstants& c, const ConveyorEvent& e, double vT_before,
                                 bool accumulation, double slip) {
  const double w = c.omega, theta = e.phase;
  const double plate_vT = c.B * w * std::cos(theta);
  Eigen::Matrix3d R = Eigen::Matrix3d::Zero();
  Eigen::Vector3d R_theta = Eigen::Vector3d::Zero();
  if (!accumulation) {
    R(0, 0) = 1;
    R(1, 1) = -c.c_r;
  }  // else h+ = u+ = 0 whatever the state: the part is in contact
  // Clamped when the impulse can bring vT to the plate's: then vT+ follows the plate and forgets vT-
  // (also at vT- = plate's, the fixed point of a hopping orbit, where both one-sided derivatives agree).
  if (std::fabs(vT_before - plate_vT) <= c.mu * (1 + c.c_r) * (-e.u_before)) {
    R_theta[2] = -c.B * w * std::sin(theta);  // clamped to the plate: follows its velocity
  } else {
    R(2, 2) = 1;  // sliding through the impact: vT+ = vT- -+ mu (1 + c_r)(-u-)
    R(2, 1) = (vT_before < plate_vT ? -1.0 : 1.0) * c.mu * (1 + c.c_r);
  }
  const double accel = w * (-c.G + c.A * std::sin(theta));
  const Eigen::Vector3d f_minus(e.u_before / w, accel, 0);
  const Eigen::Vector3d f_plus = accumulation ? Eigen::Vector3d(0, 0, tangential_field(c, theta, slip))
                                              : Eigen::Vector3d(e.u_after / w, accel, 0);
  const Eigen::Vector3d kick = f_plus - R * f_minus - R_theta;
  Eigen::Matrix3d S = R;
  S.col(0) += kick / (e.u_before / w);
  return S;
}

// Friction reversal (or stick) where r = B omega cos theta - vT crosses zero: grad r = (0, 0, -1),
// dr/dtheta = -B omega sin theta, so S_vT,vT = (f+ + B omega sin theta) / (f- + B omega sin theta); a
// stick (f+ = the plate's -B omega sin theta) gives 0.
double reversal_factor(const ConveyorConstants& c, double theta, double slip_before, double slip_after) {
  const double plate = c.B * c.omega * std::sin(theta);
  return (tangential_field(c, theta, slip_after) + plate) / (tangential_field(c, theta, slip_before) + plate);
}

}  // namespace

bool stroboscopic_tangent_map(const ConveyorConstants& c, const std::vector<ConveyorEvent>& events, double start_time,
                              double vT_start, bool coupled_start, double phase_span, Eigen::Matrix3d& jacobian) {
  jacobian.setIdentity();
  if (coupled_start) jacobian.topRows(2).setZero();
  double at = 0, vT = vT_start, slip = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const ConveyorEvent& e = events[i];
    const double y = (e.time - start_time) * c.omega;
    jacobian = flight(y - at, c.omega) * jacobian;
    at = y;
    switch (e.kind) {
      case Kind::Grazing: return false;
      case Kind::Impact: {
        if (!(e.u_before < 0)) return false;
        // An impact that ends a microthrow sequence is logged as Impact, Accumulation, ArcStart.
        const bool accumulation = i + 2 < events.size() && events[i + 1].kind == Kind::Accumulation &&
                                  events[i + 2].kind == Kind::ArcStart;
        if (accumulation) {
          slip = events[i + 2].slip;
          i += 2;
        }
        jacobian = impact_saltation(c, e, vT, accumulation, slip) * jacobian;
        break;
      }
      case Kind::ArcStart:  // resuming in coupled motion: vT is the plate's if it sticks
        slip = e.slip;
        if (slip == 0) jacobian.row(2).setZero();
        break;
      case Kind::Reversal:
      case Kind::Stick:
        jacobian.row(2) *= reversal_factor(c, e.phase, slip, e.slip);
        slip = e.slip;
        break;
      case Kind::BreakAway:  // at a phase fixed by the plate; vT was the plate's until then
      case Kind::LiftOff:    // at theta_L with zero relative velocity: the normal rows are already 0
      case Kind::Accumulation:
        slip = e.slip;
        break;
    }
    vT = e.vT;
  }
  jacobian = flight(phase_span - at, c.omega) * jacobian;
  return true;
}

}  // namespace vibro::conveyor
