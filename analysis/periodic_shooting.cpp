#include "analysis/periodic_shooting.hpp"

#include <algorithm>
#include <cmath>

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

Evaluation evaluate(Simulation& simulation, const StrobeSample& x, int periods, const std::vector<double>& scales) {
  Evaluation e;
  begin_budget_periods(periods);
  try {
    if (!simulation.stroboscopic_map(x, periods, e.step)) return e;
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

}  // namespace

PeriodicOrbit shoot_periodic_orbit(Simulation& simulation, const StrobeSample& guess, int periods,
                                   const ShootingSettings& settings) {
  PeriodicOrbit orbit;
  orbit.periods = periods;
  orbit.state = guess;
  const auto& scales = simulation.layout().state_scales;
  const auto n = static_cast<Eigen::Index>(scales.size());
  Evaluation current = evaluate(simulation, orbit.state, periods, scales);
  if (!current.ok) {
    orbit.reason = "no stroboscopic map with Jacobian from this state (the model provides none, or not through "
                   "this kind of motion, e.g. the conveyor's coupled phases), or the state is not admissible";
    return orbit;
  }
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
      Evaluation next = evaluate(simulation, trial, periods, scales);
      if (next.ok && next.residual < current.residual) {
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
  orbit.residual = current.residual;
  orbit.converged = current.residual <= settings.tolerance;
  if (!orbit.converged && orbit.reason.empty())
    orbit.reason = "no convergence in " + std::to_string(settings.max_iterations) + " iterations";
  orbit.events = current.step.events;
  orbit.switches = current.step.switches;
  orbit.multipliers = sorted_multipliers(current.step.jacobian);
  return orbit;
}

std::vector<std::complex<double>> sorted_multipliers(const Eigen::MatrixXd& monodromy) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(monodromy, false);
  std::vector<std::complex<double>> multipliers;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) multipliers.push_back(solver.eigenvalues()[i]);
  std::sort(multipliers.begin(), multipliers.end(), [](const auto& a, const auto& b) { return std::abs(a) > std::abs(b); });
  return multipliers;
}

}  // namespace vibro
