#include "analysis/arclength_continuation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "analysis/branch_character.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

// dP/dp by a central difference with this relative step: the Simulation offers no parameter
// sensitivity. The map comes from an integrator at a relative tolerance of about 1e-10, so its noise
// in the difference (~1e-10 / h) and the truncation error (~h^2) are both small at h ~ 1e-5 |p|; Newton
// needs no exact column to converge (the residual it drives to zero is the exact map's).
constexpr double kParameterDifference = 1e-5;
constexpr int kCorrectorIterations = 12;

// A point of the branch in weighted coordinates y = (x_i w_i, p), with the Jacobian of the weighted
// defect w_i (P^k(x, p) - x)_i with respect to y there, and the unit tangent of the branch.
struct Node {
  PeriodicOrbit orbit;
  Eigen::VectorXd y;
  Eigen::MatrixXd jacobian;  // n x (n + 1)
  Eigen::VectorXd tangent;
  double parameter() const { return y[y.size() - 1]; }
  double tangent_parameter() const { return tangent[tangent.size() - 1]; }
};

struct Evaluation {
  MapStep step;
  Eigen::VectorXd defect;    // weighted
  Eigen::MatrixXd jacobian;  // d defect / d y
  double residual = 0;       // max-norm of the defect in the layout's state scales, as in shooting
};

// The extended system's left part G(x, p) = P^k(x, p) - x and its Jacobian [dG/dx, dG/dp].
class ExtendedMap {
 public:
  ExtendedMap(const Model& model, ParameterSet values, int index, int periods, double parameter_scale)
      : model_(model), values_(std::move(values)), index_(index), periods_(periods), parameter_scale_(parameter_scale) {
    const std::vector<double> scales = model_.start(values_)->layout().state_scales;
    weights_.resize(static_cast<Eigen::Index>(scales.size()));
    for (Eigen::Index i = 0; i < weights_.size(); ++i) weights_[i] = parameter_scale_ / scales[static_cast<std::size_t>(i)];
  }
  Eigen::Index dims() const { return weights_.size(); }
  Eigen::VectorXd coordinates(const StrobeSample& x, double p) const {
    Eigen::VectorXd y(dims() + 1);
    for (Eigen::Index i = 0; i < dims(); ++i) y[i] = x.state[static_cast<std::size_t>(i)] * weights_[i];
    y[dims()] = p;
    return y;
  }
  StrobeSample state(const StrobeSample& like, const Eigen::VectorXd& y) const {
    StrobeSample x = like;
    for (Eigen::Index i = 0; i < dims(); ++i) x.state[static_cast<std::size_t>(i)] = y[i] / weights_[i];
    return x;
  }
  bool evaluate(const StrobeSample& like, const Eigen::VectorXd& y, Evaluation& e) {
    const Eigen::Index n = dims();
    const StrobeSample x = state(like, y);
    const double p = y[n];
    if (!map(x, p, e.step)) return false;
    const double h = kParameterDifference * std::max(std::fabs(p), parameter_scale_);
    MapStep plus, minus;  // a grazing within h of p makes the difference meaningless: no point there
    if (!map(x, p + h, plus) || !map(x, p - h, minus) || plus.events != e.step.events || minus.events != e.step.events)
      return false;
    e.defect.resize(n);
    e.jacobian.resize(n, n + 1);
    e.residual = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      e.defect[i] = weights_[i] * (e.step.image.state[k] - x.state[k]);
      e.residual = std::max(e.residual, std::fabs(e.defect[i]) / parameter_scale_);
      for (Eigen::Index j = 0; j < n; ++j)
        e.jacobian(i, j) = weights_[i] * (e.step.jacobian(i, j) - (i == j ? 1 : 0)) / weights_[j];
      e.jacobian(i, n) = weights_[i] * (plus.image.state[k] - minus.image.state[k]) / (2 * h);
    }
    return std::isfinite(e.residual) && e.jacobian.allFinite();
  }

 private:
  bool map(const StrobeSample& x, double p, MapStep& step) {
    try {
      values_.set_at(index_, p);
    } catch (const InputError&) {  // the branch left the parameter's declared range
      return false;
    }
    return model_.start(values_)->stroboscopic_map(x, periods_, step);
  }

  const Model& model_;
  ParameterSet values_;
  int index_, periods_;
  double parameter_scale_;
  Eigen::VectorXd weights_;
};

// The unit null vector of the n x (n + 1) Jacobian, on the side of `orientation`: it solves
// [J; orientation^T] tau = [0; 1].
std::optional<Eigen::VectorXd> unit_tangent(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& orientation) {
  const Eigen::Index n = jacobian.rows();
  Eigen::MatrixXd bordered(n + 1, n + 1);
  bordered << jacobian, orientation.transpose();
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(bordered);
  if (!lu.isInvertible()) return std::nullopt;
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + 1);
  rhs[n] = 1;
  const Eigen::VectorXd tau = lu.solve(rhs);
  return tau.normalized();
}

// Newton on the bordered system [G(y) = 0; tangent . (y - predicted) = 0] from `predicted`, damped as
// shooting is (a step that does not reduce the residual is halved); then the tangent at the solution,
// oriented along `tangent`.
std::optional<Node> correct(ExtendedMap& map, const StrobeSample& like, const Eigen::VectorXd& predicted,
                            const Eigen::VectorXd& tangent, int periods, const ShootingSettings& settings) {
  const Eigen::Index n = map.dims();
  Eigen::VectorXd y = predicted;
  Evaluation e;
  if (!map.evaluate(like, y, e)) return std::nullopt;
  int iterations = 0;
  for (; e.residual > settings.tolerance; ++iterations) {
    if (iterations == kCorrectorIterations) return std::nullopt;
    Eigen::MatrixXd bordered(n + 1, n + 1);
    bordered << e.jacobian, tangent.transpose();
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(bordered);
    if (!lu.isInvertible()) return std::nullopt;
    Eigen::VectorXd rhs(n + 1);
    rhs << -e.defect, -tangent.dot(y - predicted);
    const Eigen::VectorXd delta = lu.solve(rhs);
    bool improved = false;
    for (double damping = 1; damping > 1e-3 && !improved; damping /= 2) {
      const Eigen::VectorXd trial = y + damping * delta;
      Evaluation next;
      if (map.evaluate(like, trial, next) && next.residual < e.residual) {
        y = trial;
        e = std::move(next);
        improved = true;
      }
    }
    if (!improved) return std::nullopt;
  }
  Node node;
  node.y = y;
  node.jacobian = e.jacobian;
  const auto tau = unit_tangent(e.jacobian, tangent);
  if (!tau) return std::nullopt;
  node.tangent = *tau;
  node.orbit.converged = true;
  node.orbit.state = map.state(like, y);
  node.orbit.periods = periods;
  node.orbit.multipliers = sorted_multipliers(e.step.jacobian);
  node.orbit.residual = e.residual;
  node.orbit.iterations = iterations;
  node.orbit.events = e.step.events;
  return node;
}

// The branch point at arclength s from `from` along its tangent (the Keller step).
std::optional<Node> step_along(ExtendedMap& map, const Node& from, double s, const ShootingSettings& settings) {
  auto node = correct(map, from.orbit.state, from.y + s * from.tangent, from.tangent, from.orbit.periods, settings);
  // A corrector that lands far from its prediction has jumped to another part of the solution set.
  if (node && (node->y - from.y).norm() > 2 * s) return std::nullopt;
  return node;
}

struct Bracket {
  Node a, b;  // the last points found on either side of the event
};

// Bisection in arclength between `a` (s = 0) and `b` (s = ds) on a predicate that holds at a, not at b.
template <class SameSideAsA>
Bracket bisect(ExtendedMap& map, const Node& a, const Node& b, double ds, SameSideAsA same,
               const ContinuationSettings& settings) {
  Bracket bracket{a, b};
  double lo = 0, hi = ds;
  while (hi - lo > settings.locate_tol) {
    const double mid = 0.5 * (lo + hi);
    const auto m = step_along(map, a, mid, settings.shooting);
    if (!m) break;  // e.g. the square-root singularity of the map right at a grazing
    if (same(*m)) {
      lo = mid;
      bracket.a = *m;
    } else {
      hi = mid;
      bracket.b = *m;
    }
  }
  return bracket;
}

// The event between two consecutive points, if any, located. A grazing shows as a change of the
// impacts per period; a fold as a sign change of dp/ds (with one real multiplier crossing +1); any
// other stability change is named by the multiplier that crosses.
std::optional<BranchEvent> event_between(ExtendedMap& map, const Node& last, const Node& next, double ds,
                                         const ContinuationSettings& settings) {
  const BranchCharacter before = branch_character(last.orbit), after = branch_character(next.orbit);
  const bool turned = last.tangent_parameter() * next.tangent_parameter() < 0;
  if (before == after && !turned) return std::nullopt;
  BranchEvent event;
  Bracket bracket;
  if (before.events != after.events) {
    bracket = bisect(map, last, next, ds, [&](const Node& m) { return m.orbit.events == before.events; }, settings);
    std::ostringstream detail;
    detail << "impacts per period " << before.events << " -> " << after.events;
    if (turned) detail << "; the branch turns back in the parameter there";
    event.kind = "grazing";
    event.detail = detail.str();
  } else if (turned) {
    const bool rising = last.tangent_parameter() > 0;
    bracket = bisect(map, last, next, ds, [&](const Node& m) { return (m.tangent_parameter() > 0) == rising; }, settings);
    // The multiplier that crosses at a fold is real and near +1; report the one nearest +1.
    const auto& mu = bracket.b.orbit.multipliers;
    event.multiplier = *std::min_element(mu.begin(), mu.end(), [](auto p, auto q) { return std::abs(p - 1.0) < std::abs(q - 1.0); });
    event.kind = "fold";
    event.detail = describe_multiplier(event.multiplier) + ", dp/ds changes sign";
  } else {
    bracket = bisect(map, last, next, ds, [&](const Node& m) { return branch_character(m.orbit) == before; }, settings);
    event.kind = stability_change_kind(bracket.b.orbit, event.detail);
    event.multiplier = critical_multiplier(bracket.b.orbit);
  }
  event.parameter = 0.5 * (bracket.a.parameter() + bracket.b.parameter());
  return event;
}

// The orbit exactly at the boundary `p` that the step from `last` to `next` crossed: shot at p alone
// (natural shooting, well-posed away from a fold) from the state interpolated between the two.
PeriodicOrbit orbit_at_boundary(const Model& model, ParameterSet values, int index, const ExtendedMap& map,
                                const Node& last, const Node& next, double p, const ShootingSettings& settings) {
  const double w = (p - last.parameter()) / (next.parameter() - last.parameter());
  const StrobeSample guess = map.state(last.orbit.state, (1 - w) * last.y + w * next.y);
  values.set_at(index, p);
  const auto simulation = model.start(values);
  return shoot_periodic_orbit(*simulation, guess, last.orbit.periods, settings);
}

}  // namespace

Branch continue_by_arclength(const Model& model, ParameterSet values, const std::string& parameter, double from,
                             double to, const StrobeSample& guess, int periods, const ContinuationSettings& settings) {
  Branch branch;
  branch.method = "arclength";
  const int index = values.index_of(parameter);
  if (index < 0) {
    branch.end = "unknown parameter '" + parameter + "'";
    return branch;
  }
  if (from == to) {
    branch.end = "an empty range";
    return branch;
  }
  values.set_at(index, from);
  PeriodicOrbit first;
  {
    const auto simulation = model.start(values);
    first = shoot_periodic_orbit(*simulation, guess, periods, settings.shooting);
  }
  if (!first.converged) {
    branch.end = "no orbit at the start: " + first.reason;
    return branch;
  }
  ExtendedMap map(model, values, index, periods, std::fabs(to - from));
  Node start;
  start.y = map.coordinates(first.state, from);
  Evaluation e;
  Eigen::VectorXd towards = Eigen::VectorXd::Zero(map.dims() + 1);
  towards[map.dims()] = to > from ? 1 : -1;
  const auto tau = map.evaluate(first.state, start.y, e) ? unit_tangent(e.jacobian, towards) : std::nullopt;
  if (!tau) {
    branch.end = "no tangent at the start (no parameter derivative of the map there, or a fold)";
    return branch;
  }
  start.orbit = first;
  start.jacobian = e.jacobian;
  start.tangent = *tau;
  branch.points.push_back({from, first});

  const double lo = std::min(from, to), hi = std::max(from, to);
  Node last = start;
  double ds = std::fabs(settings.step);
  // The last grazing passed, while the branch has not turned back since: a branch that passes from the
  // impacting family of orbits to the impact-free one (or back) may arrive on it heading towards the
  // grazing orbit where the two families meet; beyond that orbit neither exists, so the branch turns
  // back there (a nonsmooth fold), and that orbit is where the grazing is.
  BranchEvent* open_grazing = nullptr;
  while (static_cast<int>(branch.points.size()) < settings.max_points) {
    auto next = step_along(map, last, ds, settings.shooting);
    if (!next) {
      ds /= 2;
      if (ds < settings.min_step && open_grazing) {
        open_grazing->parameter = last.parameter();
        open_grazing->detail += "; the branch turns back there (the families with and without the impact meet)";
        open_grazing = nullptr;
        last.tangent = -last.tangent;
        ds = std::fabs(settings.step);
        continue;
      }
      if (ds < settings.min_step) {
        std::ostringstream end;
        end << "lost the branch after " << parameter << " = " << last.parameter()
            << ": no corrector convergence down to the smallest arclength step";
        branch.end = end.str();
        return branch;
      }
      continue;
    }
    if (const auto event = event_between(map, last, *next, ds, settings)) {
      branch.events.push_back(*event);
      open_grazing = event->kind == "grazing" ? &branch.events.back() : nullptr;
    }
    const double p = next->parameter();
    if (p < lo || p > hi) {  // left the range: end on the boundary crossed
      const double boundary = p > hi ? hi : lo;
      const PeriodicOrbit orbit = orbit_at_boundary(model, values, index, map, last, *next, boundary, settings.shooting);
      if (orbit.converged) branch.points.push_back({boundary, orbit});
      branch.end = boundary == to ? "reached the end of the range"
                                  : "turned back and left the range at its start " + parameter + " = " +
                                        std::to_string(boundary);
      return branch;
    }
    branch.points.push_back({p, next->orbit});
    if (next->orbit.iterations <= 3) ds = std::min(1.5 * ds, settings.max_step);
    last = std::move(*next);
  }
  branch.end = "stopped after " + std::to_string(settings.max_points) + " points";
  return branch;
}

}  // namespace vibro
