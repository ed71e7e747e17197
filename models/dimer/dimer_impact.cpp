#include "models/dimer/dimer_impact.hpp"

#include <algorithm>
#include <vector>

#include "engine/impulse/velocity_contact_solver.hpp"

namespace vibro::dimer {

using impulse::LocalMatrix;
using impulse::LocalVector;

DimerImpact resolve_dimer_impact(const DimerConstants& c, const Eigen::Vector3d& velocity, double theta,
                                 double plate_velocity, const int* tips, int count, const bool stuck[2]) {
  const Jacobian J = contact_jacobian(c.body, count == 2 ? 0.0 : theta);
  const LocalMatrix W = delassus(c.body, J, tips, count);
  LocalVector u(2 * count);
  for (int a = 0; a < count; ++a) {
    u(a) = J.row(tips[a]).dot(velocity) - plate_velocity;
    u(count + a) = J.row(2 + tips[a]).dot(velocity);
  }
  for (int a = 0; a < count; ++a)
    if (stuck[tips[a]]) {
      if (count == 2) u.tail(2).setZero();
      u(count + a) = 0;
    }
  LocalVector P;
  if (c.impact_law == ImpactLaw::DarbouxKeller) {
    const impulse::ImpactContactLaw law{c.e_s, c.mu_i, c.mu_s, 1.0};
    P = impulse::resolve_impact(W, u, std::vector<impulse::ImpactContactLaw>(static_cast<std::size_t>(count), law), c.impact)
            .impulse;
  } else {
    const double slip_tol = 1e-6 * (c.A > 0 ? c.A * c.omega : c.g / c.omega);
    std::vector<impulse::VelocityContactLaw> laws;
    for (int a = 0; a < count; ++a) {
      const double slip = u(count + a);
      const int preferred = std::abs(slip) <= slip_tol ? 0 : (slip > 0 ? 1 : -1);
      laws.push_back({c.mu_i, c.mu_s, -c.e_s * std::min(u(a), 0.0), preferred});
    }
    P = impulse::solve_velocity_contacts(W, u, laws).impulse;
  }
  DimerImpact out;
  const Eigen::Vector3d inv_mass(1 / c.body.m, 1 / c.body.m, 1 / c.body.I);
  for (int a = 0; a < count; ++a) {
    out.normal_impulse[tips[a]] = P(a);
    out.approach[tips[a]] = u(a);
    out.velocity_jump +=
        inv_mass.cwiseProduct(J.row(tips[a]).transpose() * P(a) + J.row(2 + tips[a]).transpose() * P(count + a));
  }
  return out;
}

}  // namespace vibro::dimer
