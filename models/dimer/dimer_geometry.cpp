#include "models/dimer/dimer_geometry.hpp"

#include <cmath>

namespace vibro::dimer {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

DimerBody DimerBody::from(double aspect_ratio, double r, double rho_ball, double rho_rod, double d_rod) {
  DimerBody b;
  b.r = r;
  b.l = 2 * (aspect_ratio - 1) * r;
  const double rod_length = b.l - 2 * r;
  b.m_ball = 4.0 / 3.0 * kPi * r * r * r * rho_ball;
  b.m_rod = rho_rod * kPi * 0.25 * d_rod * d_rod * rod_length;
  b.m = 2 * b.m_ball + b.m_rod;
  const double J_ball = 0.4 * b.m_ball * r * r;
  const double J_rod = b.m_rod * rod_length * rod_length / 12;
  b.I = 0.5 * b.m_ball * b.l * b.l + 2 * J_ball + J_rod;
  return b;
}

Jacobian contact_jacobian(const DimerBody& body, double theta) {
  const double c = 0.5 * body.l * std::cos(theta), s = 0.5 * body.l * std::sin(theta);
  Jacobian J;
  J << 0, 1, -c,  //
      0, 1, c,    //
      1, 0, body.r + s,  //
      1, 0, body.r - s;
  return J;
}

Eigen::Vector2d tip_heights(const DimerBody& body, double Y, double theta) {
  const double s = 0.5 * body.l * std::sin(theta);
  return {Y - s - body.r, Y + s - body.r};
}

impulse::LocalMatrix delassus(const DimerBody& body, const Jacobian& J, const int* tips, int count) {
  const Eigen::Vector3d inv_mass(1 / body.m, 1 / body.m, 1 / body.I);
  impulse::LocalMatrix W(2 * count, 2 * count);
  for (int a = 0; a < 2 * count; ++a) {
    const int ra = a < count ? tips[a] : 2 + tips[a - count];
    for (int b = 0; b < 2 * count; ++b) {
      const int rb = b < count ? tips[b] : 2 + tips[b - count];
      W(a, b) = (J.row(ra).transpose().cwiseProduct(inv_mass)).dot(J.row(rb).transpose());
    }
  }
  return W;
}

double impact_stick_ratio(const DimerBody& body, double theta, int tip) {
  const double c = 0.5 * body.l * std::cos(theta), s = 0.5 * body.l * std::sin(theta);
  const double rho = tip == 0 ? body.r + s : body.r - s;
  return std::abs(rho) * c / (body.k2() + rho * rho);
}

}  // namespace vibro::dimer
