#pragma once
// Periodic orbits by Newton shooting on the stroboscopic map: solve P^k(x) = x with the Jacobian
// M - I, M the monodromy matrix from the variational equations and saltation matrices (the model's
// Simulation::stroboscopic_map), so unstable orbits, which no simulation settles on, are found too.
#include <complex>
#include <string>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

struct ShootingSettings {
  int max_iterations = 40;
  double tolerance = 1e-11;  // on |P^k(x) - x| in the layout's state scales (max-norm)
};

struct PeriodicOrbit {
  bool converged = false;
  std::string reason;         // why not, when not converged
  StrobeSample state{};       // a point of the orbit on the section t = k T
  int periods = 1;            // k
  std::vector<std::complex<double>> multipliers;  // eigenvalues of the monodromy matrix, |.| descending
  double residual = 0;        // final |P^k(x) - x|, scaled
  int iterations = 0;
  long long events = 0;       // impacts along one period of the orbit
  long long switches = 0;     // mode changes located along it (MapStep::switches)
  bool stable() const;        // every multiplier inside the unit circle
};

// Shoots from `guess` (e.g. the last stroboscopic sample of a near-periodic case) for a period-k
// orbit. Damped Newton: a step that does not reduce the residual is halved (up to 10 times).
PeriodicOrbit shoot_periodic_orbit(Simulation& simulation, const StrobeSample& guess, int periods,
                                   const ShootingSettings& settings = {});

// The eigenvalues of a monodromy matrix, |.| descending (PeriodicOrbit::multipliers).
std::vector<std::complex<double>> sorted_multipliers(const Eigen::MatrixXd& monodromy);

}  // namespace vibro
