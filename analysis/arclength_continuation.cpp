#include "analysis/arclength_continuation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <vector>

#include "analysis/branch_character.hpp"
#include "analysis/branch_events.hpp"
#include "analysis/natural_fold.hpp"
#include "analysis/symmetric_shooting.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

// dP/dp by a central difference with this relative step: the Simulation offers no parameter
// sensitivity. The map comes from an integrator at a relative tolerance of about 1e-10, so its noise
// in the difference (~1e-10 / h) and the truncation error (~h^2) are both small at h ~ 1e-5 |p|; Newton
// needs no exact column to converge (the residual it drives to zero is the exact map's).
constexpr double kParameterDifference = 1e-5;
// Near a grazing the orbit's impact is so soft that the map at fixed state has a square-root
// singularity within h of p: p +- h loses the impact (the number of events differs), or keeps it with a
// slope that varies across the difference. The difference is then retried with h / 10 down to this
// relative step, and taken one-sided only where no step keeps the events on both sides. Without it the
// branch ends where the impact velocity is still finite (Model A, e = 1, lambda = 2: at omega = 7.99413
// instead of the grazing at 7.99220); with a column one-sided at h or straddling the singularity (60 %
// off next to the impact oscillator's grazing) the corrector converges linearly and the steps stay tiny.
constexpr double kSmallestParameterDifference = 1e-9;
// A central difference is kept when its one-sided halves agree to this fraction of the column (their gap,
// h P'', bounds the curvature it straddles; the central error is about the gap squared, relative), or
// of kColumnFloor where the column is smaller (in weighted units: state scales per parameter range; the
// integrator's noise stays far below it at h = 1e-5).
constexpr double kOneSidedAgreement = 0.1;
constexpr double kColumnFloor = 1e-3;
constexpr int kCorrectorIterations = 12;
// The tangent's turn between two points (radians) below which the step grows and above which it shrinks.
constexpr double kSmallTurn = 0.05;
constexpr double kLargeTurn = 0.2;

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

// The extended system's left part F(x, p) = P^k(x, p) - x and its Jacobian [dF/dx, dF/dp]; along a
// symmetric branch (`symmetric`) G(x, p) - x instead, G the mirrored half-period map
// (analysis/symmetric_shooting), well posed where P^k - I is nearly singular in the direction that
// breaks the symmetry.
class ExtendedMap {
 public:
  ExtendedMap(const Model& model, ParameterSet values, int index, int periods, double parameter_scale)
      : model_(model), values_(std::move(values)), index_(index), periods_(periods), parameter_scale_(parameter_scale) {
    const std::vector<double> scales = model_.start(values_)->layout().state_scales;
    weights_.resize(static_cast<Eigen::Index>(scales.size()));
    for (Eigen::Index i = 0; i < weights_.size(); ++i)
      weights_[i] = parameter_scale_ / scales[static_cast<std::size_t>(i)];
  }
  Eigen::Index dims() const { return weights_.size(); }
  // Solves the mirrored half-period map from now on (a branch whose first orbit is symmetric).
  void follow_symmetric(bool symmetric) { symmetric_ = symmetric; }
  bool symmetric() const { return symmetric_; }
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
    Eigen::VectorXd column;
    if (!parameter_column(x, p, e.step, column)) return false;
    e.defect.resize(n);
    e.jacobian.resize(n, n + 1);
    e.residual = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      e.defect[i] = weights_[i] * (e.step.image.state[k] - x.state[k]);
      e.residual = std::max(e.residual, std::fabs(e.defect[i]) / parameter_scale_);
      for (Eigen::Index j = 0; j < n; ++j)
        e.jacobian(i, j) = weights_[i] * (e.step.jacobian(i, j) - (i == j ? 1 : 0)) / weights_[j];
      e.jacobian(i, n) = weights_[i] * column[i];
    }
    return std::isfinite(e.residual) && e.jacobian.allFinite();
  }

 private:
  // dP/dp at (x, p) by differences with the same events as `at` on the side(s) used: the first central
  // difference, from h = kParameterDifference down, whose one-sided halves agree (kOneSidedAgreement),
  // else the difference at the smallest step that keeps the events on one side at least. False when
  // even the smallest step changes them on both sides (a grazing right at p: no point there).
  bool parameter_column(const StrobeSample& x, double p, const MapStep& at, Eigen::VectorXd& column) {
    const double reach = std::max(std::fabs(p), parameter_scale_);
    const auto n = static_cast<std::size_t>(dims());
    bool found = false;
    for (double h = kParameterDifference * reach; h >= kSmallestParameterDifference * reach; h /= 10) {
      MapStep plus, minus;
      const bool up = map(x, p + h, plus) && same_motion(plus, at);
      const bool down = map(x, p - h, minus) && same_motion(minus, at);
      if (!up && !down) continue;
      const MapStep& hi = up ? plus : at;
      const MapStep& lo = down ? minus : at;
      const double width = (up ? h : 0) + (down ? h : 0);
      column.resize(dims());
      double size = 0, gap = 0;  // weighted max-norms of the column and of its one-sided halves' difference
      for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<Eigen::Index>(k);
        column[i] = (hi.image.state[k] - lo.image.state[k]) / width;
        size = std::max(size, weights_[i] * std::fabs(column[i]));
        if (up && down)
          gap = std::max(gap, weights_[i] * std::fabs(plus.image.state[k] - 2 * at.image.state[k] + minus.image.state[k]) / h);
      }
      found = true;
      if (up && down && gap <= kOneSidedAgreement * std::max(size, kColumnFloor)) return true;
    }
    return found;
  }

  bool map(const StrobeSample& x, double p, MapStep& step) {
    try {
      values_.set_at(index_, p);
    } catch (const InputError&) {  // the branch left the parameter's declared range
      return false;
    }
    try {
      const auto simulation = model_.start(values_);
      if (!symmetric_) return simulation->stroboscopic_map(x, periods_, step);
      HalfPeriodMap* half = symmetric_half_period_map(*simulation);  // none: these values break the symmetry
      return half && mirrored_half_period_map(*half, periods_).apply(x, step);
    } catch (const CaseFailure&) {  // a trial state that no mode can hold: no map there
      return false;
    }
  }

  const Model& model_;
  ParameterSet values_;
  int index_, periods_;
  double parameter_scale_;
  Eigen::VectorXd weights_;
  bool symmetric_ = false;
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
// shooting is (a step that does not reduce the residual is halved; the constraint, linear and met at
// the start, stays met); then the tangent at the solution, oriented along `tangent`. `why` says why not.
std::optional<Node> correct(ExtendedMap& map, const StrobeSample& like, const Eigen::VectorXd& predicted,
                            const Eigen::VectorXd& tangent, int periods, const ShootingSettings& settings,
                            std::string& why) {
  const Eigen::Index n = map.dims();
  Eigen::VectorXd y = predicted;
  StrobeSample start = like;  // its mode: the one the corrected state starts in (kModeRounds)
  Evaluation e;
  if (!map.evaluate(start, y, e)) {
    why =
        "no map at the predicted state (not admissible, e.g. an impact at the section t = k T, where the "
        "section state jumps; or a grazing within the parameter difference)";
    return std::nullopt;
  }
  int iterations = 0;
  for (int round = 0;; ++round) {
    for (; e.residual > settings.tolerance; ++iterations) {
      if (iterations == kCorrectorIterations) {
        why = "no corrector convergence in " + std::to_string(kCorrectorIterations) + " iterations";
        return std::nullopt;
      }
      Eigen::MatrixXd bordered(n + 1, n + 1);
      bordered << e.jacobian, tangent.transpose();
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(bordered);
      if (!lu.isInvertible()) {
        why = "singular bordered Jacobian";
        return std::nullopt;
      }
      Eigen::VectorXd rhs(n + 1);
      rhs << -e.defect, -tangent.dot(y - predicted);
      const Eigen::VectorXd delta = lu.solve(rhs);
      bool improved = false;
      for (double damping = 1; damping > 1e-3 && !improved; damping /= 2) {
        const Eigen::VectorXd trial = y + damping * delta;
        Evaluation next;
        if (map.evaluate(start, trial, next) && next.residual < e.residual && !frozen_map(next.step, map.symmetric())) {
          y = trial;
          e = std::move(next);
          improved = true;
        }
      }
      if (!improved) {
        why = "corrector stalled at residual " + std::to_string(e.residual);
        return std::nullopt;
      }
    }
    if (e.step.image.mode == start.mode) break;
    if (round == kModeRounds) {
      why = "the corrected state returns in another mode (" + std::to_string(start.mode) + " -> " +
            std::to_string(e.step.image.mode) + "): no periodic orbit of the flow";
      return std::nullopt;
    }
    start.mode = e.step.image.mode;
    if (!map.evaluate(start, y, e)) {
      why = "the corrected state returns in a mode that cannot hold it";
      return std::nullopt;
    }
  }
  Node node;
  node.y = y;
  node.jacobian = e.jacobian;
  const auto tau = unit_tangent(e.jacobian, tangent);
  if (!tau) {
    why = "no tangent at the corrected point";
    return std::nullopt;
  }
  node.tangent = *tau;
  node.orbit.converged = true;
  node.orbit.state = map.state(start, y);
  node.orbit.periods = periods;
  node.orbit.multipliers = sorted_multipliers(full_period_jacobian(e.step, map.symmetric()));
  node.orbit.symmetric = map.symmetric();
  if (map.symmetric()) node.orbit.half_multipliers = sorted_multipliers(e.step.jacobian);
  node.orbit.residual = e.residual;
  {
    // The bordered system in the scaled state and parameter (the weights cancel): a fold, where M - I
    // alone is singular, leaves it regular; a nearly neutral orbit that the parameter hardly moves does not.
    Eigen::MatrixXd bordered(n + 1, n + 1);
    bordered << e.jacobian, tangent.transpose();
    node.orbit.uncertainty = fixed_point_uncertainty(e.residual, settings.tolerance, bordered);
  }
  node.orbit.iterations = iterations;
  const int halves = map.symmetric() ? 2 : 1;  // a half-period map's steps cover half the orbit
  node.orbit.events = halves * e.step.events;
  node.orbit.switches = halves * e.step.switches;
  return node;
}

// The branch point at arclength s from `from` along its tangent (the Keller step).
std::optional<Node> step_along(ExtendedMap& map, const Node& from, double s, const ShootingSettings& settings,
                               std::string& why) {
  auto node =
      correct(map, from.orbit.state, from.y + s * from.tangent, from.tangent, from.orbit.periods, settings, why);
  // A corrector that lands far from its prediction has jumped to another part of the solution set.
  if (node && (node->y - from.y).norm() > 2 * s) {
    why = "the corrector left the step's neighbourhood";
    return std::nullopt;
  }
  return node;
}

struct Bracket {
  Node a, b;       // the last points found on either side of the event
  double s_a = 0;  // a's arclength from where the bisection started
};

// Bisection in arclength between `a` (s = 0) and `b` (s = ds) on a predicate that holds at a, not at b.
template <class SameSideAsA>
Bracket bisect(ExtendedMap& map, const Node& a, const Node& b, double ds, SameSideAsA same,
               const ContinuationSettings& settings) {
  Bracket bracket{a, b};
  double hi = ds;
  while (hi - bracket.s_a > settings.locate_tol) {
    const double mid = 0.5 * (bracket.s_a + hi);
    std::string why;
    const auto m = step_along(map, a, mid, settings.shooting, why);
    if (!m) break;  // e.g. the square-root singularity of the map right at a grazing
    if (same(*m)) {
      bracket.s_a = mid;
      bracket.a = *m;
    } else {
      hi = mid;
      bracket.b = *m;
    }
  }
  return bracket;
}

// A change of the number of multipliers outside the unit circle between `a` (s = 0) and `b` (s = ds),
// located and named by the multiplier that crosses.
BranchEvent stability_change(ExtendedMap& map, const Node& a, const Node& b, double ds,
                             const ContinuationSettings& settings) {
  const BranchCharacter before = branch_character(a.orbit);
  const Bracket bracket = bisect(
      map, a, b, ds, [&](const Node& m) { return branch_character(m.orbit) == before; }, settings);
  BranchEvent event;
  event.kind = stability_change_kind(bracket.b.orbit, event.detail);
  event.multiplier = critical_multiplier(bracket.b.orbit);
  event.parameter = 0.5 * (bracket.a.parameter() + bracket.b.parameter());
  event.orbit = bracket.b.orbit;
  return event;
}

// The events between two consecutive points, located, in their order along the branch, and whether the
// new point continues the last one. Where the parameter turns back (dp/ds changes sign) shooting at a
// fixed parameter value is singular or ambiguous: a fold (no change of impacts) is located by bisection
// in arclength on the sign of dp/ds, a grazing where both families of orbits lie on one side of it by
// bisection in arclength on the impacts. Every other change of orbit type is located at fixed
// parameter values by its test function, which also refuses a step that does not continue the branch
// (analysis/branch_events).
SegmentCheck events_between(ExtendedMap& map, const FixedParameterShooter& shoot, const Node& last, const Node& next,
                            double ds, const std::vector<double>& scales, const ContinuationSettings& settings) {
  const BranchCharacter before = branch_character(last.orbit), after = branch_character(next.orbit);
  const bool turned = last.tangent_parameter() * next.tangent_parameter() < 0;
  if (!turned) {
    if (before == after || last.parameter() == next.parameter()) return {};
    return check_segment(shoot, BranchPoint(last.parameter(), last.orbit), BranchPoint(next.parameter(), next.orbit),
                         last.tangent_parameter() > 0 ? 1 : -1, scales, settings);
  }
  SegmentCheck check;
  BranchEvent event;
  Bracket bracket;
  if (!before.same_motion(after)) {
    bracket = bisect(
        map, last, next, ds, [&](const Node& m) { return same_motion(m.orbit, last.orbit); }, settings);
    if (branch_character(bracket.a.orbit) != before)
      check.events.push_back(stability_change(map, last, bracket.a, bracket.s_a, settings));
    event.kind = motion_change_kind(last.orbit, next.orbit, event.detail);
    event.orbit = simpler_motion(last.orbit, next.orbit) ? bracket.a.orbit : bracket.b.orbit;
  } else {
    const bool rising = last.tangent_parameter() > 0;
    bracket = bisect(
        map, last, next, ds, [&](const Node& m) { return (m.tangent_parameter() > 0) == rising; }, settings);
    // The multiplier that crosses at a fold is real and near +1; report the one nearest +1.
    const auto& mu = bracket.b.orbit.multipliers;
    event.multiplier =
        *std::min_element(mu.begin(), mu.end(), [](auto p, auto q) { return std::abs(p - 1.0) < std::abs(q - 1.0); });
    event.kind = "fold";
    event.detail = describe_multiplier(event.multiplier) + ", dp/ds changes sign";
    event.orbit = bracket.b.orbit;
  }
  event.parameter = 0.5 * (bracket.a.parameter() + bracket.b.parameter());
  check.events.push_back(event);
  return check;
}

Eigen::VectorXd along_parameter(const ExtendedMap& map, double sign) {
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(map.dims() + 1);
  direction[map.dims()] = sign;
  return direction;
}

// The branch point at a solved orbit, its tangent on the side of `orientation`.
std::optional<Node> node_at(ExtendedMap& map, const PeriodicOrbit& orbit, double p,
                            const Eigen::VectorXd& orientation) {
  Node node;
  node.y = map.coordinates(orbit.state, p);
  Evaluation e;
  if (!map.evaluate(orbit.state, node.y, e)) return std::nullopt;
  const auto tau = unit_tangent(e.jacobian, orientation);
  if (!tau) return std::nullopt;
  node.orbit = orbit;
  node.jacobian = e.jacobian;
  node.tangent = *tau;
  return node;
}

// Follows one branch: the Keller steps with step control, and what it does where they fail (turns at a
// grazing corner, a natural step over a jump of the section state) or where the branch leaves the range.
class ArclengthBranch {
 public:
  ArclengthBranch(const Model& model, ParameterSet values, int index, std::string parameter, double from, double to,
                  int periods, const ContinuationSettings& settings)
      : model_(model),
        values_(std::move(values)),
        index_(index),
        parameter_(std::move(parameter)),
        from_(from),
        to_(to),
        periods_(periods),
        settings_(settings),
        map_(model_, values_, index_, periods_, std::fabs(to - from)) {
    branch_.method = "arclength";
    scales_ = model_.start(values_)->layout().state_scales;
    at_fixed_ = [this](double p, const std::vector<StrobeSample>& guesses) {
      PeriodicOrbit orbit;
      ParameterSet at = values_;
      try {
        at.set_at(index_, p);
      } catch (const InputError& outside) {  // a bracket beyond the parameter's declared range
        orbit.reason = outside.what();
        return orbit;
      }
      const auto simulation = model_.start(at);
      for (const auto& guess : guesses)
        if ((orbit = shoot_periodic_orbit(*simulation, guess, periods_, settings_.shooting, expected_)).converged)
          break;
      return orbit;
    };
  }

  Branch follow(const PeriodicOrbit& first) {
    expected_ = symmetry_of(first);
    map_.follow_symmetric(first.symmetric);
    const auto start = node_at(map_, first, from_, along_parameter(map_, to_ > from_ ? 1 : -1));
    if (!start) return ended("no tangent at the start (no parameter derivative of the map there, or a fold)");
    branch_.points.push_back({from_, first});
    last_ = *start;
    double ds = std::fabs(settings_.step);
    while (static_cast<int>(branch_.points.size()) < settings_.max_points) {
      std::string why, refusal;
      auto next = step_along(map_, last_, ds, settings_.shooting, why);
      if (next) {
        refusal = accept(*next, ds);
        if (!branch_.end.empty()) return branch_;
        if (refusal.empty()) {
          // Step control from the corrector's convergence and the turn of the tangent (the curvature).
          const double turn = std::acos(std::clamp(last_.tangent.dot(next->tangent), -1.0, 1.0));
          if (next->orbit.iterations <= 3 && turn < kSmallTurn) ds = std::min(1.5 * ds, settings_.max_step);
          else if (turn > kLargeTurn) ds = std::max(0.7 * ds, settings_.min_step);
          last_ = std::move(*next);
          continue;
        }
      }
      ds /= 2;
      if (ds >= settings_.min_step) continue;
      if (!refusal.empty() && open_.event < 0) {
        std::ostringstream end;
        end << std::setprecision(10) << "step below the minimum (" << settings_.min_step << ") at " << parameter_
            << " = " << last_.parameter() << ": the orbit changes from " << describe_orbit_type(last_.orbit) << " to "
            << describe_orbit_type(next->orbit) << " (" << refusal << ")";
        return ended(end.str());
      }
      ds = std::fabs(settings_.step);
      if (open_.event >= 0) {
        turn_at_grazing();
        continue;
      }
      if (!natural_step(ds, why)) return branch_;
    }
    return ended("stopped after " + std::to_string(settings_.max_points) + " points");
  }

 private:
  // The last grazing passed, until the branch is known to go on from it. A step that passes from the
  // impacting family of orbits to the impact-free one (or back) lands on the new family with a tangent
  // oriented by the old one's, which may head towards the grazing orbit where the two families meet,
  // beyond which the new family has no orbits: the steps then fail there, and the branch goes on from
  // that orbit the other way. That orbit is where the grazing is; the points found before it on the
  // new family are found again on the way back, and are dropped.
  struct OpenGrazing {
    long event = -1;              // index in branch.events; -1: none
    std::size_t first_point = 0;  // the first point on the new family
    double approach = 0;          // the sign of dp/ds on the old family
  };

  Branch ended(const std::string& why) {
    branch_.end = why;
    return branch_;
  }
  std::string end_at(double boundary) const {
    return boundary == to_
               ? "reached the end of the range"
               : "turned back and left the range at its start " + parameter_ + " = " + std::to_string(boundary);
  }

  // The index i of an earlier segment (points i, i + 1) on which `next`'s orbit lies: the branch came
  // back onto a part it has followed (past a symmetry-breaking branch point the asymmetric family
  // returns to the symmetric one, and arclength would follow that again). A cheap test first (the
  // same motion, the parameter inside the segment, the state within max_predictor_error of the
  // segment's chord), then the old branch's own orbit at next's parameter, continued from the segment's
  // first point (near a fold the other side is close too), equal to next's to 1e-6 scales. Not while a
  // grazing is open: its new family's first points are found again on purpose (OpenGrazing).
  std::optional<std::size_t> retraced(const Node& next) const {
    if (open_.event >= 0 || branch_.points.size() < 4) return std::nullopt;
    const double p = next.parameter();
    const BranchCharacter motion = branch_character(next.orbit);
    for (std::size_t i = 0; i + 3 < branch_.points.size(); ++i) {
      const BranchPoint &a = branch_.points[i], &b = branch_.points[i + 1];
      if ((p - a.parameter) * (p - b.parameter) > 0 || a.parameter == b.parameter) continue;
      if (!(branch_character(a.orbit) == motion) || !(branch_character(b.orbit) == motion)) continue;
      StrobeSample chord = a.orbit.state;
      const double w = (p - a.parameter) / (b.parameter - a.parameter);
      for (std::size_t k = 0; k < chord.state.size(); ++k)
        chord.state[k] = (1 - w) * a.orbit.state.state[k] + w * b.orbit.state.state[k];
      if (scaled_distance(next.orbit.state, chord, scales_) > settings_.max_predictor_error) continue;
      ParameterSet at = values_;
      at.set_at(index_, a.parameter);
      ContinuationSettings along = settings_;
      along.max_step = std::max(along.min_step, std::fabs(p - a.parameter));
      along.step = along.max_step;
      const FoldSearchOff no_search;
      const Branch old = continue_periodic_orbit(model_, at, parameter_, a.parameter, p, a.orbit.state, periods_, along);
      if (old.end == "reached the end of the range" &&
          scaled_distance(old.points.back().orbit.state, next.orbit.state, scales_) < 1e-6)
        return i;
    }
    return std::nullopt;
  }

  // Records the step to `next` with the events on it and returns ""; or returns why the step is refused
  // (it does not continue the branch). A grazing where the branch turns back reverses next's tangent. When it left the range the branch ends (branch_.end set) on the
  // boundary crossed, shot there at the boundary's parameter value alone, well-posed away from a fold,
  // from the state interpolated between the two points.
  std::string accept(Node& next, double ds) {
    const SegmentCheck check = events_between(map_, at_fixed_, last_, next, ds, scales_, settings_);
    if (!check.mismatch.empty()) return check.mismatch;
    // Past a grazing where both families lie on one side: on from the new point back the way it came.
    if (check.turns_back) next.tangent = -next.tangent;
    const double p = next.parameter(), lo = std::min(from_, to_), hi = std::max(from_, to_);
    const bool leaves = p < lo || p > hi;
    for (const auto& event : check.events) {
      // A step that leaves the range may pass events beyond its boundary: not the range's.
      if (leaves && (event.parameter < lo || event.parameter > hi)) continue;
      branch_.events.push_back(event);
      open_ = {};
      if (event.kind == "grazing")
        open_ = {static_cast<long>(branch_.events.size()) - 1, branch_.points.size(),
                 last_.tangent_parameter() > 0 ? 1.0 : -1.0};
    }
    if (const auto earlier = retraced(next)) {
      std::ostringstream end;
      end << std::setprecision(10) << "the branch retraces itself at " << parameter_ << " = " << p
          << ": the orbit there lies on the part already followed (between " << branch_.points[*earlier].parameter
          << " and " << branch_.points[*earlier + 1].parameter << "); not followed again";
      branch_.end = end.str();
      return "";
    }
    if (p >= lo && p <= hi) {
      branch_.points.push_back({p, next.orbit});
      return "";
    }
    const double boundary = p > hi ? hi : lo;
    const double w = (boundary - last_.parameter()) / (p - last_.parameter());
    ParameterSet values = values_;
    values.set_at(index_, boundary);
    const PeriodicOrbit orbit =
        shoot_periodic_orbit(*model_.start(values), map_.state(last_.orbit.state, (1 - w) * last_.y + w * next.y),
                             periods_, settings_.shooting, expected_);
    if (orbit.converged) branch_.points.push_back({boundary, orbit});
    branch_.end = end_at(boundary);
    return "";
  }

  void turn_at_grazing() {
    BranchEvent& grazing = branch_.events[static_cast<std::size_t>(open_.event)];
    grazing.parameter = last_.parameter();
    last_.tangent = -last_.tangent;
    if (open_.approach * last_.tangent_parameter() < 0)  // both families on one side of the grazing
      grazing.detail += "; the branch turns back there";
    branch_.points.erase(branch_.points.begin() + static_cast<long>(open_.first_point), branch_.points.end() - 1);
    open_ = {};
  }

  // Where the section state jumps (an impact crossing t = k T) no arclength step exists. Natural
  // continuation passes such points (it shoots at the next parameter value, with the flow's help where
  // Newton alone fails): it takes the branch over one parameter step `dp`, and arclength resumes where
  // it ends. False when the branch ends here (lost, or at the end of the range).
  bool natural_step(double dp, const std::string& why) {
    const double direction = last_.tangent_parameter() > 0 ? 1 : -1;
    const double target = std::clamp(last_.parameter() + direction * dp, std::min(from_, to_), std::max(from_, to_));
    const FoldSearchOff folds_are_arclengths;
    const Branch hop = target == last_.parameter()
                           ? Branch{}
                           : continue_periodic_orbit(model_, values_, parameter_, last_.parameter(), target,
                                                     last_.orbit.state, periods_, settings_);
    // The natural steps may end where the branch turns back at a grazing (both families on one side):
    // arclength goes on from their last point, on the new family, back the way they came.
    const bool reached = hop.end == "reached the end of the range", turned = hop.turns_back;
    const bool hopped = hop.points.size() >= 2;  // past the jump of the section state, if not to the target
    if (hopped) {
      branch_.points.insert(branch_.points.end(), hop.points.begin() + 1, hop.points.end());
      branch_.events.insert(branch_.events.end(), hop.events.begin(), hop.events.end());
      if (reached && (target == to_ || target == from_)) {
        branch_.end = end_at(target);
        return false;
      }
    }
    if (hop.ends_at_grazing) {  // the orbit ceases at the surface: the branch ends there, the grazing located
      if (!hopped) branch_.events.insert(branch_.events.end(), hop.events.begin(), hop.events.end());
      branch_.ends_at_grazing = true;
      branch_.end = hop.end;
      return false;
    }
    const double onwards = turned ? -direction : direction;
    const auto resumed = hopped ? node_at(map_, hop.points.back().orbit, hop.points.back().parameter,
                                          along_parameter(map_, onwards))
                                : std::nullopt;
    if (!resumed) {
      std::ostringstream end;
      // Where no map exists up to a fold, its location estimated from the multiplier's approach to +1.
      if (const auto fold = fold_by_extrapolation(branch_.points, direction)) {
        branch_.events.push_back(*fold);
        end << std::setprecision(10) << "the branch ends at a fold near " << parameter_ << " = " << fold->parameter
            << ", estimated from its last 3 points' multiplier approaching +1 (not located: no map found beyond "
            << branch_.points.back().parameter << " by arclength or natural steps)";
        branch_.end = end.str();
        return false;
      }
      end << "lost the branch after " << parameter_ << " = " << branch_.points.back().parameter
          << ": no step down to the smallest arclength step (" << why << "), nor a natural one ("
          << (hopped            ? "no tangent where it ends"
              : hop.end.empty() ? "at the end of the range"
                                : hop.end)
          << ")";
      branch_.end = end.str();
      return false;
    }
    last_ = *resumed;
    open_ = {};
    return true;
  }

  const Model& model_;
  ParameterSet values_;
  int index_;
  std::string parameter_;
  double from_, to_;
  int periods_;
  ContinuationSettings settings_;
  ExtendedMap map_;
  std::vector<double> scales_;
  FixedParameterShooter at_fixed_;
  OrbitSymmetry expected_ = OrbitSymmetry::Unknown;  // the first orbit's (OrbitSymmetry)
  Branch branch_;
  Node last_;
  OpenGrazing open_;
};

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
  values.set_at(index, from);
  const PeriodicOrbit first = shoot_periodic_orbit(*model.start(values), guess, periods, settings.shooting);
  if (!first.converged) {
    branch.end = "no orbit at the start: " + first.reason;
    return branch;
  }
  if (from == to) {
    branch.points.push_back({from, first});
    branch.end = "reached the end of the range";
    return branch;
  }
  return ArclengthBranch(model, values, index, parameter, from, to, periods, settings).follow(first);
}

}  // namespace vibro
