#include "models/beam_slider/corner_contact.hpp"

#include <cmath>

namespace vibro::beam_slider {

CornerPosition corner_position(const SliderPose& pose, const Corner& corner) {
  const double c = std::cos(pose.phi), s = std::sin(pose.phi);
  // A_NS(phi) = [[cos, sin], [-sin, cos]] (paper Appendix C)
  return {pose.x_C + c * corner.rho_x + s * corner.rho_z, pose.z_C - s * corner.rho_x + c * corner.rho_z};
}

double vertical_gap(const BeamAxis& axis, const SliderPose& pose, const Corner& corner, double half_thickness) {
  const CornerPosition P = corner_position(pose, corner);
  const AxisPoint B = axis.at(pose.q_beam, P.x);
  return corner.xi * (P.z - pose.w0 - B.w) - half_thickness;
}

double closest_axis_point(const BeamAxis& axis, const SliderPose& pose, const Corner& corner) {
  const CornerPosition P = corner_position(pose, corner);
  double x = P.x;
  for (int k = 0; k < 20; ++k) {
    const AxisPoint B = axis.at(pose.q_beam, x);
    const double dz = P.z - pose.w0 - B.w;
    const double F = (x - P.x) - dz * B.dw;
    const double dF = 1.0 + B.dw * B.dw - dz * B.ddw;
    const double dx = F / dF;
    x -= dx;
    if (std::abs(dx) < 1e-14) break;
  }
  return x;
}

namespace {
CornerKinematics evaluate(const BeamAxis& axis, const SliderPose& pose, const Corner& corner, double r,
                          double x_star, ContactKinematics kind, Eigen::Ref<Eigen::VectorXd>* ref_n,
                          Eigen::Ref<Eigen::VectorXd>* ref_t) {
  ModalArray s, ds, dds;
  axis.shapes_at(x_star, s, ds, dds);
  double w = 0, dw = 0;
  for (int n = 0; n < axis.modes(); ++n) {
    w += s[static_cast<std::size_t>(n)] * pose.q_beam[n];
    dw += ds[static_cast<std::size_t>(n)] * pose.q_beam[n];
  }
  const CornerPosition P = corner_position(pose, corner);
  const double xi = corner.xi;
  const double cos2 = 1.0 / (1.0 + dw * dw);
  const double ct = std::sqrt(cos2), st = dw * ct;  // theta = atan(w')
  // D = r_P - r_Pb, r_Pb = (x*, w0 + w) + xi r (-sin, cos), or + xi r (-w', 1) when simplified
  const bool exact = kind == ContactKinematics::Exact;
  const double Dx = P.x - x_star + xi * r * (exact ? st : dw);
  const double Dz = P.z - pose.w0 - w - xi * r * (exact ? ct : 1.0);
  // A_CN = xi [[-s, c], [-c, -s]]; A_CN' = xi [[-c, -s], [s, -c]]
  CornerKinematics k;
  k.x_star = x_star;
  k.gap_n = xi * (-st * Dx + ct * Dz);
  k.gap_t = xi * (-ct * Dx - st * Dz);
  k.w_n = -xi * pose.w0_dot * ct;
  k.w_t = xi * pose.w0_dot * st;
  if (ref_n == nullptr) return k;
  Eigen::Ref<Eigen::VectorXd>& Wn = *ref_n;
  Eigen::Ref<Eigen::VectorXd>& Wt = *ref_t;
  const int N = axis.modes();
  // Slider DOFs: A_CN [e_x, e_z, A_NS'(phi) rho].
  const double cp = std::cos(pose.phi), sp = std::sin(pose.phi);
  const double drx = -sp * corner.rho_x + cp * corner.rho_z, drz = -cp * corner.rho_x - sp * corner.rho_z;
  Wn(N) = -xi * st;
  Wt(N) = -xi * ct;
  Wn(N + 1) = xi * ct;
  Wt(N + 1) = -xi * st;
  Wn(N + 2) = xi * (-st * drx + ct * drz);
  Wt(N + 2) = xi * (-ct * drx - st * drz);
  // Beam DOFs: -A_CN dr_Pb/dq_n + A_CN' D cos^2 s_n', dr_Pb/dq_n = (0, s_n) + xi r (-c, -s) cos^2 s_n'
  // (simplified: (0, s_n) + xi r (-s_n', 0)).
  const double dAn = xi * (-ct * Dx - st * Dz), dAt = xi * (st * Dx - ct * Dz);  // A_CN' D
  for (int n = 0; n < N; ++n) {
    const double dtheta = cos2 * ds[static_cast<std::size_t>(n)];
    const double bx = exact ? -xi * r * ct * dtheta : -xi * r * ds[static_cast<std::size_t>(n)];
    const double bz = s[static_cast<std::size_t>(n)] - (exact ? xi * r * st * dtheta : 0.0);
    Wn(n) = -xi * (-st * bx + ct * bz) + dAn * dtheta;
    Wt(n) = -xi * (-ct * bx - st * bz) + dAt * dtheta;
  }
  return k;
}
}  // namespace

CornerKinematics corner_kinematics(const BeamAxis& axis, const SliderPose& pose, const Corner& corner,
                                   double half_thickness, double x_star, Eigen::Ref<Eigen::VectorXd> col_n,
                                   Eigen::Ref<Eigen::VectorXd> col_t, ContactKinematics kind) {
  return evaluate(axis, pose, corner, half_thickness, x_star, kind, &col_n, &col_t);
}

CornerKinematics corner_gaps(const BeamAxis& axis, const SliderPose& pose, const Corner& corner,
                             double half_thickness, double x_star, ContactKinematics kind) {
  return evaluate(axis, pose, corner, half_thickness, x_star, kind, nullptr, nullptr);
}

}  // namespace vibro::beam_slider
