#include "analysis/periodic_shooting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/SVD>

#include "analysis/symmetric_shooting.hpp"
#include "engine/core/case_budget.hpp"

namespace vibro {

bool PeriodicOrbit::stable() const {
  return std::all_of(multipliers.begin(), multipliers.end(), [](const auto& mu) { return std::abs(mu) < 1; });
}

namespace {

struct Evaluation {
  bool ok = false;
  MapStep step;
  Eigen::VectorXd defect;  // P(x) - x, in state units
  double residual = 0;     // scaled max-norm of the defect
};

Evaluation evaluate(const FixedPointMap& map, const StrobeSample& x, int periods, const std::vector<double>& scales) {
  Evaluation e;
  begin_budget_periods(periods);
  try {
    if (!map.apply(x, e.step)) return e;
  } catch (const CaseFailure&) {  // e.g. a trial state in a mode that cannot hold it: Newton steps back
    return e;
  }
  const auto n = static_cast<Eigen::Index>(scales.size());
  e.defect.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    e.defect[i] = e.step.image.state[static_cast<std::size_t>(i)] - x.state[static_cast<std::size_t>(i)];
    e.residual = std::max(e.residual, std::fabs(e.defect[i]) / scales[static_cast<std::size_t>(i)]);
  }
  e.ok = std::isfinite(e.residual);
  return e;
}

// Damped Newton on map(x) - x (P^k, or the mirrored half-period map) at the state's mode, from `current` (the map at orbit.state), until the
// residual meets the tolerance, the iterations run out or a step cannot reduce it (orbit.reason).
void newton(const FixedPointMap& map, PeriodicOrbit& orbit, Evaluation& current, int periods,
            const std::vector<double>& scales, const ShootingSettings& settings) {
  const auto n = static_cast<Eigen::Index>(scales.size());
  for (; orbit.iterations < settings.max_iterations && current.residual > settings.tolerance; ++orbit.iterations) {
    const Eigen::MatrixXd jacobian = current.step.jacobian - Eigen::MatrixXd::Identity(n, n);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(jacobian);
    if (!lu.isInvertible()) {
      orbit.reason = "M - I is singular (a multiplier at +1: a fold)";
      break;
    }
    const Eigen::VectorXd delta = lu.solve(-current.defect);
    bool improved = false;
    for (double damping = 1; damping > 1e-3 && !improved; damping /= 2) {
      StrobeSample trial = orbit.state;
      for (Eigen::Index i = 0; i < n; ++i) trial.state[static_cast<std::size_t>(i)] += damping * delta[i];
      Evaluation next = evaluate(map, trial, periods, scales);
      // A trial the map freezes with its neighbours (M = I) has residual 0 without being an orbit.
      if (next.ok && next.residual < current.residual && !frozen_map(next.step, map.half_period)) {
        orbit.state = trial;
        current = std::move(next);
        improved = true;
      }
    }
    if (!improved) {
      orbit.reason = "Newton stalled at residual " + std::to_string(current.residual);
      break;
    }
  }
}

}  // namespace

FixedPointMap full_period_map(Simulation& simulation, int periods) {
  return {[&simulation, periods](const StrobeSample& x, MapStep& step) {
            return simulation.stroboscopic_map(x, periods, step);
          },
          false};
}

Eigen::MatrixXd full_period_jacobian(const MapStep& step, bool half_period) {
  return half_period ? Eigen::MatrixXd(step.jacobian * step.jacobian) : step.jacobian;
}

OrbitSymmetry symmetry_of(const PeriodicOrbit& orbit) {
  return orbit.symmetric ? OrbitSymmetry::Symmetric : OrbitSymmetry::Asymmetric;
}

PeriodicOrbit shoot_periodic_orbit(Simulation& simulation, const StrobeSample& guess, int periods,
                                   const ShootingSettings& settings, OrbitSymmetry expected) {
  if (expected != OrbitSymmetry::Asymmetric)
    if (HalfPeriodMap* half = symmetric_half_period_map(simulation); half && periods % 2 == 1)
      return shoot_with_symmetry(simulation, *half, guess, periods, settings, expected);
  return solve_fixed_point(full_period_map(simulation, periods), guess, periods, simulation.layout().state_scales,
                           settings);
}

PeriodicOrbit solve_fixed_point(const FixedPointMap& map, const StrobeSample& guess, int periods,
                                const std::vector<double>& scales, const ShootingSettings& settings, MapStep* last) {
  PeriodicOrbit orbit;
  orbit.periods = periods;
  orbit.state = guess;
  Evaluation current = evaluate(map, orbit.state, periods, scales);
  if (!current.ok) {
    orbit.reason = "no stroboscopic map with Jacobian from this state (the model provides none, or not through "
                   "this kind of motion, e.g. the conveyor's coupled phases), or the state is not admissible";
    return orbit;
  }
  // A fixed point of the map is a periodic orbit only if it also returns in the mode it left in
  // (kModeRounds): where Newton stops, converged or not, with the image in another mode than the state,
  // the state takes the image's mode and Newton goes on. A guess's mode is stale where the new orbit's
  // section state lies across a switching surface from the guess's (the onset of a stick phase at the
  // section); a state entered in a mode that cannot hold it may settle into one that keeps a velocity
  // it should not have (a sticking mode entered moving), and be a fixed point of the map although the
  // flow never returns to it.
  for (int round = 0;; ++round) {
    newton(map, orbit, current, periods, scales, settings);
    const bool converged = current.residual <= settings.tolerance;
    if (current.step.image.mode == orbit.state.mode) {
      // Converged where Newton never stepped (the guess, or after a change of mode) on a frozen state.
      if (converged && frozen_map(current.step, map.half_period)) {
        orbit.reason = "the map leaves the state and all its neighbours where they are (M = I): no isolated orbit";
        current.residual = std::numeric_limits<double>::infinity();
      }
      break;
    }
    if (round == kModeRounds) {
      orbit.reason = "the map's image returns in another mode (" + std::to_string(orbit.state.mode) + " -> " +
                     std::to_string(current.step.image.mode) + "): no periodic orbit of the flow";
      current.residual = std::numeric_limits<double>::infinity();
      break;
    }
    orbit.state.mode = current.step.image.mode;
    orbit.reason.clear();
    current = evaluate(map, orbit.state, periods, scales);
    if (!current.ok) {
      orbit.reason = "the map's image returns in a mode that cannot hold its state";
      current.residual = std::numeric_limits<double>::infinity();
      break;
    }
  }
  orbit.residual = current.residual;
  orbit.converged = current.residual <= settings.tolerance;
  if (!orbit.converged && orbit.reason.empty())
    orbit.reason = "no convergence in " + std::to_string(settings.max_iterations) + " iterations";
  // A half-period map's steps cover half the orbit, mirrored onto the other half.
  const int halves = map.half_period ? 2 : 1;
  orbit.events = halves * current.step.events;
  orbit.switches = halves * current.step.switches;
  orbit.symmetric = map.half_period;
  if (current.step.jacobian.size() > 0) {
    orbit.multipliers = sorted_multipliers(full_period_jacobian(current.step, map.half_period));
    if (map.half_period) orbit.half_multipliers = sorted_multipliers(current.step.jacobian);
    if (orbit.converged) {
      // J - I in the layout's scales (J the map's Jacobian): S^-1 (J - I) S, S = diag(scales).
      const Eigen::Map<const Eigen::VectorXd> s(scales.data(), static_cast<Eigen::Index>(scales.size()));
      const Eigen::MatrixXd m_minus_i = current.step.jacobian - Eigen::MatrixXd::Identity(s.size(), s.size());
      const Eigen::MatrixXd scaled = s.cwiseInverse().asDiagonal() * m_minus_i * s.asDiagonal();
      orbit.uncertainty = fixed_point_uncertainty(orbit.residual, settings.tolerance, scaled);
    }
  }
  if (last) *last = std::move(current.step);
  return orbit;
}

double fixed_point_uncertainty(double residual, double tolerance, const Eigen::MatrixXd& scaled_jacobian) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(scaled_jacobian);
  const double smallest = svd.singularValues().minCoeff();
  return smallest > 0 ? std::max(residual, tolerance) / smallest : std::numeric_limits<double>::infinity();
}

bool frozen_map(const MapStep& step, bool half_period) {
  const Eigen::Index n = step.jacobian.rows();
  return n > 0 && (full_period_jacobian(step, half_period) - Eigen::MatrixXd::Identity(n, n)).isZero(1e-12);
}

std::vector<std::complex<double>> sorted_multipliers(const Eigen::MatrixXd& monodromy) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(monodromy, false);
  std::vector<std::complex<double>> multipliers;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) multipliers.push_back(solver.eigenvalues()[i]);
  std::sort(multipliers.begin(), multipliers.end(), [](const auto& a, const auto& b) { return std::abs(a) > std::abs(b); });
  return multipliers;
}

}  // namespace vibro
