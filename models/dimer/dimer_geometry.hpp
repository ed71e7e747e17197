#pragma once
// Geometry, inertia and contact kinematics of the dimer (Liu, Zhao and Brogliato 2008):
// two equal spheres (radius r) joined by a slender rod, in centre-of-mass coordinates
// q = (X, Y, theta), where the mass matrix is diag(m, m, I). Tip i is the lowest point of sphere i;
// tip 1 is the left sphere (x_1 < x_2 at theta = 0).
#include <Eigen/Core>

#include "engine/impulse/local_algebra.hpp"

namespace vibro::dimer {

struct DimerBody {
  double r = 0, l = 0;        // sphere radius, centre-to-centre distance, m
  double m_ball = 0, m_rod = 0, m = 0;  // kg
  double I = 0;               // inertia about the centre of mass, kg m^2
  double k2() const { return I / m; }

  // A_r = 1 + l / (2 r); the rod is a uniform slender bar of diameter d_rod between the spheres.
  static DimerBody from(double aspect_ratio, double r, double rho_ball, double rho_rod, double d_rod);
};

using Jacobian = Eigen::Matrix<double, 4, 3>;  // rows n1, n2, t1, t2 against (Xdot, Ydot, thetadot)

// Contact Jacobian at tilt theta (the report, Section 2).
Jacobian contact_jacobian(const DimerBody& body, double theta);

// Heights of the two tips above y = 0 for a centre of mass at height Y.
Eigen::Vector2d tip_heights(const DimerBody& body, double Y, double theta);

// Delassus matrix J M^-1 J^T restricted to the given tips (1 or 2 of {0, 1}), in the local
// ordering of engine/impulse (normals first).
impulse::LocalMatrix delassus(const DimerBody& body, const Jacobian& J, const int* tips, int count);

// Configuration-only stick ratio of a single impact at tip `tip` (0 or 1): |C_ii / D_ii|
// = |rho_i| c / (k^2 + rho_i^2) (closed form of the report's Eqs. 13-15).
double impact_stick_ratio(const DimerBody& body, double theta, int tip);

}  // namespace vibro::dimer
