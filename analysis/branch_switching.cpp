#include "analysis/branch_switching.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <vector>

#include "analysis/branch_events.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

// The real eigenvector of the monodromy matrix for its eigenvalue nearest -1, scaled to 1 in the layout's
// state scales (max-norm).
bool flip_direction(const Eigen::MatrixXd& monodromy, const std::vector<double>& scales, Eigen::VectorXd& v) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(monodromy, true);
  Eigen::Index best = -1;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i)
    if (best < 0 || std::abs(solver.eigenvalues()[i] + 1.0) < std::abs(solver.eigenvalues()[best] + 1.0)) best = i;
  if (best < 0 || std::fabs(solver.eigenvalues()[best].imag()) > 1e-9) return false;
  v = solver.eigenvectors().col(best).real();
  double size = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) size = std::max(size, std::fabs(v[i]) / scales[static_cast<std::size_t>(i)]);
  if (!(size > 0)) return false;
  v /= size;
  return true;
}

}  // namespace

bool fill_in_towards_birth(const Model& model, const ParameterSet& values, const std::string& parameter, double birth,
                           int periods, ContinuationSettings settings, Branch& born) {
  if (born.points.empty()) return false;
  const BranchPoint first = born.points.front();
  const double p = first.parameter;
  const double near = birth + 1e-3 * (p - birth);  // short of the birth, where the new orbit meets the old one
  settings.step = std::min(settings.step, 0.1 * std::fabs(p - birth));
  settings.max_step = std::max(settings.step, std::min(settings.max_step, 0.25 * std::fabs(p - birth)));
  ParameterSet at = values;
  at.set_at(at.index_of(parameter), p);
  const Branch back = continue_periodic_orbit(model, at, parameter, p, near, first.orbit.state, periods, settings);
  const double offset = std::fabs(p - birth);
  bool reached = std::any_of(back.events.begin(), back.events.end(),
                             [&](const BranchEvent& e) { return std::fabs(e.parameter - birth) <= 1e-6 * offset; });
  std::vector<BranchPoint> points;
  for (std::size_t i = 1; i < back.points.size() && back.points[i].orbit.events == first.orbit.events; ++i)
    points.insert(points.begin(), back.points[i]);
  if (points.empty()) return reached;
  const double nearest = points.front().parameter;
  const auto kept = [&](const BranchEvent& e) { return (e.parameter - nearest) * (p - e.parameter) >= 0; };
  points.insert(points.end(), born.points.begin(), born.points.end());
  born.points = std::move(points);
  std::vector<BranchEvent> events;
  for (auto e = back.events.rbegin(); e != back.events.rend(); ++e)
    if (kept(*e)) events.push_back(*e);
  events.insert(events.end(), born.events.begin(), born.events.end());
  born.events = std::move(events);
  return reached || std::fabs(nearest - birth) <= 0.1 * offset;
}

Branch continue_doubled_branch(const Model& model, ParameterSet values, const std::string& parameter,
                               const BranchEvent& doubling, double to, const ContinuationSettings& settings,
                               BranchFollower follow) {
  Branch failed;
  const int index = values.index_of(parameter);
  const PeriodicOrbit& old = doubling.orbit;
  if (index < 0 || doubling.kind != "period_doubling" || !old.converged) {
    failed.end = "no period doubling with its orbit to switch at";
    return failed;
  }
  const double p0 = doubling.parameter;
  values.set_at(index, p0);
  auto simulation = model.start(values);
  const std::vector<double> scales = simulation->layout().state_scales;
  MapStep step;
  Eigen::VectorXd v;
  if (!simulation->stroboscopic_map(old.state, old.periods, step) || !flip_direction(step.jacobian, scales, v)) {
    failed.end = "no real multiplier -1 at the period doubling's orbit";
    return failed;
  }
  const double reach = std::max(std::fabs(to - p0), 1e-12);
  const int periods = 2 * old.periods;
  // Offsets in the parameter (fractions of the range) and along v (state scales): the doubled orbit's
  // size grows like the square root of the first.
  for (const double fraction : {1e-2, 1e-3, 1e-4}) {  // far first: nearer, the old orbit is within a step
    for (const double side : {to > p0 ? 1.0 : -1.0, to > p0 ? -1.0 : 1.0}) {
      const double p = p0 + side * fraction * reach;
      try {
        values.set_at(index, p);
      } catch (const InputError&) {
        continue;
      }
      auto at = model.start(values);
      for (const double size : {1e-3, 1e-2, 1e-1}) {
        StrobeSample guess = old.state;
        for (Eigen::Index i = 0; i < v.size(); ++i) guess.state[static_cast<std::size_t>(i)] += size * v[i];
        const PeriodicOrbit doubled = shoot_periodic_orbit(*at, guess, periods, settings.shooting);
        MapStep half;
        if (!doubled.converged || !at->stroboscopic_map(doubled.state, old.periods, half)) continue;
        // An orbit of twice the period whose half-period image is another point: not the old orbit. Born
        // at the doubling, it has twice the old orbit's impacts (no impact is gained or lost there) and
        // lies next to the old orbit; Newton may converge to another orbit of that period.
        if (scaled_distance(half.image, doubled.state, scales) < 1e-6) continue;
        if (doubled.events != 2 * step.events || scaled_distance(doubled.state, old.state, scales) > 0.5) continue;
        if (side * (to - p0) < 0) {  // born on the other side: the branch runs from there away from `to`
          failed.end = "the doubled branch lies on the other side of the period doubling";
          return failed;
        }
        // Born at this doubling, it continues back to it; another orbit of that period found nearby (the
        // period-8 orbit run twice, in the impact oscillator's cascade) does not.
        Branch seed;
        seed.points.emplace_back(p, doubled);
        fill_in_towards_birth(model, values, parameter, p0, periods, settings, seed);
        if (std::fabs(seed.points.front().parameter - p0) > 0.1 * std::fabs(p - p0)) continue;
        Branch born = follow(model, values, parameter, p, to, doubled.state, periods, settings);
        born.points.insert(born.points.begin(), seed.points.begin(), seed.points.end() - 1);
        born.events.insert(born.events.begin(), seed.events.begin(), seed.events.end());
        return born;
      }
    }
  }
  std::ostringstream why;
  why << std::setprecision(10) << "no orbit of period " << periods << " found next to the period doubling at "
      << parameter << " = " << p0;
  failed.end = why.str();
  return failed;
}

}  // namespace vibro
