#include "analysis/symmetric_shooting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "analysis/strobe_geometry.hpp"

namespace vibro {

namespace {

// A fixed point of G returns after the full period by at most about (1 + |G'|) times G's residual;
// beyond this many times that the declared symmetry is not the equations' (a wrong one misses by O(1)).
constexpr double kFullPeriodSlack = 1e3;

// The max-norm of the Jacobian in the layout's scales (S^-1 J S, S = diag(scales)).
double scaled_norm(const Eigen::MatrixXd& jacobian, const std::vector<double>& scales) {
  double largest = 0;
  for (Eigen::Index i = 0; i < jacobian.rows(); ++i) {
    double row = 0;
    for (Eigen::Index j = 0; j < jacobian.cols(); ++j)
      row += std::fabs(jacobian(i, j)) * scales[static_cast<std::size_t>(j)] / scales[static_cast<std::size_t>(i)];
    largest = std::max(largest, row);
  }
  return largest;
}

// Newton on G from `guess`, its fixed point checked on the full-period map.
PeriodicOrbit shoot_symmetric(Simulation& simulation, HalfPeriodMap& half, const StrobeSample& guess, int periods,
                              const ShootingSettings& settings) {
  const auto& scales = simulation.layout().state_scales;
  MapStep at_fixed_point;
  PeriodicOrbit orbit =
      solve_fixed_point(mirrored_half_period_map(half, periods), guess, periods, scales, settings, &at_fixed_point);
  if (!orbit.converged) return orbit;
  MapStep full;
  double returns = std::numeric_limits<double>::infinity();
  try {
    if (simulation.stroboscopic_map(orbit.state, periods, full)) returns = scaled_distance(full.image, orbit.state, scales);
  } catch (const CaseFailure&) {
  }
  const double bound = kFullPeriodSlack * (1 + scaled_norm(at_fixed_point.jacobian, scales)) * settings.tolerance;
  const bool other_mode = std::isfinite(returns) && full.image.mode != orbit.state.mode;
  if (!(returns <= bound) || other_mode) {
    std::ostringstream why;
    why << "the model's declared half-period symmetry does not hold here: a fixed point of the mirrored "
           "half-period map (residual "
        << orbit.residual << ") returns after the full period only to " << returns << " state scales, beyond " << bound;
    if (other_mode) why << ", in another mode";
    orbit.converged = false;
    orbit.reason = why.str();
  }
  return orbit;
}

}  // namespace

FixedPointMap mirrored_half_period_map(HalfPeriodMap& half, int periods) {
  return {[&half, periods](const StrobeSample& x, MapStep& step) {
            const StateMirror& mirror = *half.half_period_mirror();
            if (!half.half_period_map(x, periods, step)) return false;
            step.image = mirror.apply(step.image);
            step.jacobian = mirror.reflection * step.jacobian;
            return true;
          },
          true};
}

PeriodicOrbit shoot_with_symmetry(Simulation& simulation, HalfPeriodMap& half, const StrobeSample& guess, int periods,
                                  const ShootingSettings& settings, OrbitSymmetry expected) {
  if (expected == OrbitSymmetry::Symmetric) return shoot_symmetric(simulation, half, guess, periods, settings);
  const auto& scales = simulation.layout().state_scales;
  const PeriodicOrbit plain = solve_fixed_point(full_period_map(simulation, periods), guess, periods, scales, settings);
  PeriodicOrbit symmetric = shoot_symmetric(simulation, half, plain.converged ? plain.state : guess, periods, settings);
  if (!plain.converged) return symmetric.converged ? symmetric : plain;
  const double known_to = 2 * std::max(plain.uncertainty, settings.tolerance);
  return symmetric.converged && scaled_distance(symmetric.state, plain.state, scales) <= known_to ? symmetric : plain;
}

}  // namespace vibro
