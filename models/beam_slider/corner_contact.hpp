#pragma once
// Exact kinematics of one hole corner of the slider against the beam surface (Krack et al. 2017
// 2.1, paper App. C): closest point x* on the deformed axis by Newton, surface point and contact frame
// from the slope there, normal gap, and the Jacobian rows W_i^T = dg/dq and w_i = dg/dt with x*
// frozen (the beam contact point is a material point, so friction acts).
#include <Eigen/Dense>

#include "models/beam_slider/beam_axis.hpp"

namespace vibro::beam_slider {

// Exact kinematics (paper Appendix C), or the simplified cross-check of step 9: vertical
// projection x* = x_P and the surface offset xi r (-w', 1) without normalisation.
enum class ContactKinematics { Exact, Simplified };

// A hole corner: position rho in the slider frame relative to C, and the beam surface it touches
// (xi = +1 top, -1 bottom).
struct Corner {
  double rho_x, rho_z, xi;
};

// The configuration as the kinematics reads it; q_beam points at the modal coordinates.
struct SliderPose {
  const double* q_beam;
  double x_C, z_C, phi;
  double w0, w0_dot;  // base displacement and velocity at t
};

struct CornerPosition {
  double x, z;
};
CornerPosition corner_position(const SliderPose& pose, const Corner& corner);

// Normal gap with the surface point measured vertically below/above the corner (no projection):
// a cheap lower-accuracy screen that decides whether the exact projection is needed.
double vertical_gap(const BeamAxis& axis, const SliderPose& pose, const Corner& corner, double half_thickness);

// Closest point of the deformed axis to the corner (Newton from x = x_P, to 1e-14 m).
double closest_axis_point(const BeamAxis& axis, const SliderPose& pose, const Corner& corner);

struct CornerKinematics {
  double x_star;
  double gap_n, gap_t;  // gap_t vanishes at the exact projection
  double w_n, w_t;      // dg/dt at fixed q
};

// Gaps at the axis point x_star (frozen) and, when col_n / col_t are given (length dofs), the rows
// dg_n/dq and dg_t/dq over q = [q_beam; x_C; z_C; phi].
CornerKinematics corner_kinematics(const BeamAxis& axis, const SliderPose& pose, const Corner& corner,
                                   double half_thickness, double x_star, Eigen::Ref<Eigen::VectorXd> col_n,
                                   Eigen::Ref<Eigen::VectorXd> col_t,
                                   ContactKinematics kind = ContactKinematics::Exact);
CornerKinematics corner_gaps(const BeamAxis& axis, const SliderPose& pose, const Corner& corner,
                             double half_thickness, double x_star, ContactKinematics kind = ContactKinematics::Exact);

}  // namespace vibro::beam_slider
