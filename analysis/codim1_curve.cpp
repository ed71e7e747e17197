#include "analysis/codim1_curve.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>

#include "analysis/branch_events.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

using Plane = Eigen::Vector2d;  // a point or direction in the plane of the scaled parameters

// Finite-difference step of the extended system's Jacobian (scaled state, scaled parameter). Next to a
// grazing (a fold curve running into a grazing curve) the multipliers grow like the inverse of the
// vanishing impact velocity, and a larger step moves the impact too far: with 1e-7 Model A's fold curve
// stalled 1.1e-7 (in lambda) from the grazing curve, with 1e-9 at 3e-11 (the map is integrated to a
// relative 1e-10 or better; Newton needs no exact Jacobian, its residual is the exact map's).
constexpr double kDifference = 1e-9;
// How far (scaled) from a stalled fold or period-doubling curve's last point a grazing is looked for.
constexpr double kGrazingReach = 1e-3;
constexpr int kNewtonIterations = 30;

std::string pair_text(const std::string& a, const std::string& b, double p1, double p2) {
  std::ostringstream text;
  text << std::setprecision(10) << "(" << a << ", " << b << ") = (" << p1 << ", " << p2 << ")";
  return text.str();
}

// A corrected point on one normal line, or why there is none.
struct Correction {
  bool ok = false;
  std::string why;
  CurvePoint point;
  double s = 0;  // where on the line, in scaled units
  int iterations = 0;
};

class CurveTracer {
 public:
  CurveTracer(const Model& model, ParameterSet values, int i1, int i2, const BranchEvent& event,
              const CurveSettings& settings, Plane scales)
      : model_(model), values_(std::move(values)), i1_(i1), i2_(i2), event_(event), settings_(settings),
        scales_(std::move(scales)) {
    state_scales_ = model_.start(values_)->layout().state_scales;
  }

  // Parameters of the plane point u (scaled).
  double p1(const Plane& u) const { return u[0] * scales_[0]; }
  double p2(const Plane& u) const { return u[1] * scales_[1]; }

  // A simulation at plane point u; null where a parameter leaves its declared range.
  std::unique_ptr<Simulation> at(const Plane& u, std::string* why = nullptr) {
    try {
      values_.set_at(i1_, p1(u));
      values_.set_at(i2_, p2(u));
      return model_.start(values_);
    } catch (const std::exception& refused) {  // outside a declared range, or a start the model refuses
      if (why) *why = refused.what();
      return nullptr;
    }
  }

  PeriodicOrbit shoot(const Plane& u, const std::vector<StrobeSample>& guesses, const ShootingSettings* shooting = nullptr) {
    PeriodicOrbit orbit;
    orbit.reason = "no guess";
    auto simulation = at(u, &orbit.reason);
    if (!simulation) return orbit;
    for (const auto& g : guesses)
      if ((orbit = shoot_periodic_orbit(*simulation, g, event_.orbit.periods, shooting ? *shooting : settings_.shooting))
              .converged)
        break;
    return orbit;
  }

  // The largest change of a parameter, in its own units, per unit of s along direction n.
  double parameter_rate(const Plane& n) const { return std::max(std::fabs(n[0]) * scales_[0], std::fabs(n[1]) * scales_[1]); }

  Correction correct(const Plane& P, const Plane& n, const StrobeSample& guess, double reach) {
    if (event_.kind == "grazing") return correct_grazing(P, n, guess, reach);
    return correct_crossing(P, n, guess, reach);
  }

  // Where, on the line P + s n (|s| <= reach), the orbit with fewer impacts than `orbit` ceases: a
  // grazing next to a point of a fold or period-doubling curve, bisected to locate_tol in the
  // parameters; false where none is bracketed within reach. The orbit with fewer impacts is first
  // looked for from `orbit`'s state, ever farther from P (next to the grazing Newton from there may
  // return to the impacting orbit), then each shot starts from the one found last.
  bool grazing_near(const Plane& P, const Plane& n, const PeriodicOrbit& orbit, double reach, double& s_grazing,
                    PeriodicOrbit& touching) {
    const auto fewer = [&](double s, const StrobeSample& from) {
      const PeriodicOrbit found = shoot(P + s * n, {from});
      if (!found.converged || found.events >= orbit.events) return false;
      touching = found;
      return true;
    };
    double have = 0, gone = 0;
    bool found = false, bracketed = false;
    for (double d = 1e-10; d <= reach && !found; d *= 4)
      for (const double s : {d, -d})
        if ((found = fewer(s, orbit.state))) {
          have = s;
          break;
        }
    for (double d = 1e-10; found && d <= 2 * reach && !bracketed; d *= 4)
      for (const double s : {have + d, have - d})
        if ((bracketed = !fewer(s, touching.state))) {
          gone = s;
          break;
        }
    if (!bracketed) return false;
    fewer(have, touching.state);  // `touching` back at `have`
    const double rate = parameter_rate(n);
    while (std::fabs(gone - have) * rate > settings_.locate_tol) {
      const double mid = 0.5 * (have + gone);
      if (fewer(mid, touching.state)) have = mid;
      else gone = mid;
    }
    s_grazing = 0.5 * (have + gone);
    return true;
  }

  const std::vector<double>& state_scales() const { return state_scales_; }
  long long meeting_impacts() const { return meeting_impacts_; }
  // The direction in the plane (scaled) in which the orbit with fewer impacts exists, at the last point.
  Plane existing_side{0, 0};
  // Guesses for the orbit with more impacts next to a grazing (its basin shrinks towards the grazing:
  // the grazing orbit's own state is a poor guess), the last one found first.
  std::vector<StrobeSample> meeting_states;

 private:
  // --- period doubling and fold: Newton on the extended system ---
  double test_function(const Eigen::MatrixXd& monodromy) const {
    const auto n = monodromy.rows();
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
    return event_.kind == "period_doubling" ? (monodromy + I).determinant() : (I - monodromy).determinant();
  }

  struct Residual {
    bool ok = false;
    Eigen::VectorXd r;  // scaled defect, then the test function
    Eigen::MatrixXd monodromy;
    double size = 0;
  };

  Residual residual(const Plane& P, const Plane& n, const Eigen::VectorXd& xi, double s) {
    Residual out;
    auto simulation = at(P + s * n);
    if (!simulation) return out;
    const auto m = static_cast<Eigen::Index>(state_scales_.size());
    StrobeSample x = event_.orbit.state;
    for (Eigen::Index i = 0; i < m; ++i) x.state[static_cast<std::size_t>(i)] = xi[i] * state_scales_[static_cast<std::size_t>(i)];
    MapStep step;
    if (!simulation->stroboscopic_map(x, event_.orbit.periods, step)) return out;
    out.r.resize(m + 1);
    for (Eigen::Index i = 0; i < m; ++i) {
      const auto k = static_cast<std::size_t>(i);
      out.r[i] = (step.image.state[k] - x.state[k]) / state_scales_[k];
    }
    out.r[m] = test_function(step.jacobian);
    out.monodromy = step.jacobian;
    out.size = out.r.cwiseAbs().maxCoeff();
    out.ok = std::isfinite(out.size);
    return out;
  }

  Correction correct_crossing(const Plane& P, const Plane& n, const StrobeSample& guess, double reach) {
    Correction c;
    const auto m = static_cast<Eigen::Index>(state_scales_.size());
    Eigen::VectorXd xi(m);
    for (Eigen::Index i = 0; i < m; ++i)
      xi[i] = guess.state[static_cast<std::size_t>(i)] / state_scales_[static_cast<std::size_t>(i)];
    double s = 0;
    Residual current = residual(P, n, xi, s);
    if (!current.ok) {
      c.why = "no stroboscopic map at the predicted point";
      return c;
    }
    const double rate = parameter_rate(n);
    for (; c.iterations < kNewtonIterations; ++c.iterations) {
      Eigen::MatrixXd J(m + 1, m + 1);
      for (Eigen::Index i = 0; i < m; ++i)
        for (Eigen::Index j = 0; j < m; ++j)
          J(i, j) = (current.monodromy(i, j) - (i == j ? 1.0 : 0.0)) * state_scales_[static_cast<std::size_t>(j)] /
                    state_scales_[static_cast<std::size_t>(i)];
      for (Eigen::Index j = 0; j < m; ++j) {  // the test function's x-derivatives
        Eigen::VectorXd moved = xi;
        moved[j] += kDifference;
        const Residual r = residual(P, n, moved, s);
        if (!r.ok) {
          c.why = "no stroboscopic map next to the corrector's iterate";
          return c;
        }
        J(m, j) = (r.r[m] - current.r[m]) / kDifference;
      }
      const Residual r = residual(P, n, xi, s + kDifference);
      if (!r.ok) {
        c.why = "no stroboscopic map next to the corrector's iterate";
        return c;
      }
      J.col(m) = (r.r - current.r) / kDifference;
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
      if (!lu.isInvertible()) {
        c.why = "the extended system is singular (the curve is tangent to the correction line)";
        return c;
      }
      const Eigen::VectorXd delta = lu.solve(-current.r);
      bool improved = false;
      for (double damping = 1; damping > 1e-3 && !improved; damping /= 2) {
        const Eigen::VectorXd trial_xi = xi + damping * delta.head(m);
        const double trial_s = s + damping * delta[m];
        Residual next = residual(P, n, trial_xi, trial_s);
        if (next.ok && (next.size < current.size || damping * std::fabs(delta[m]) * rate < settings_.locate_tol)) {
          xi = trial_xi;
          s = trial_s;
          current = std::move(next);
          improved = true;
        }
      }
      if (!improved) {
        c.why = "the corrector stalled at residual " + std::to_string(current.size);
        return c;
      }
      if (std::fabs(s) > reach) {
        c.why = "the corrector left the predictor's reach";
        return c;
      }
      const double state_change = delta.head(m).cwiseAbs().maxCoeff();
      if (std::fabs(delta[m]) * rate <= settings_.locate_tol && state_change <= settings_.shooting.tolerance * 10 &&
          current.r.head(m).cwiseAbs().maxCoeff() <= settings_.shooting.tolerance)
        break;
    }
    if (c.iterations == kNewtonIterations) {
      c.why = "the corrector did not converge in " + std::to_string(kNewtonIterations) + " iterations";
      return c;
    }
    const Plane u = P + s * n;
    StrobeSample x = guess;
    for (Eigen::Index i = 0; i < m; ++i) x.state[static_cast<std::size_t>(i)] = xi[i] * state_scales_[static_cast<std::size_t>(i)];
    c.point = {p1(u), p2(u), shoot(u, {x})};
    if (!c.point.orbit.converged) {
      c.why = "the orbit at the corrected point does not converge: " + c.point.orbit.reason;
      return c;
    }
    const double target = event_.kind == "period_doubling" ? -1 : 1;
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& mu : c.point.orbit.multipliers) nearest = std::min(nearest, std::abs(mu - target));
    if (nearest > 1e-5) {
      c.why = "no multiplier at " + std::to_string(target) + " at the corrected point";
      return c;
    }
    c.s = s;
    c.ok = true;
    return c;
  }

  // --- grazing: bisection on where the orbit with fewer impacts ceases ---
  bool exists(const Plane& u, std::vector<StrobeSample>& guesses, PeriodicOrbit& orbit) {
    orbit = shoot(u, guesses);
    if (!orbit.converged || orbit.events != event_.orbit.events) return false;
    guesses.insert(guesses.begin(), orbit.state);
    if (guesses.size() > 3) guesses.pop_back();
    return true;
  }

  Correction correct_grazing(const Plane& P, const Plane& n, const StrobeSample& guess, double reach) {
    Correction c;
    std::vector<StrobeSample> guesses{guess};
    const double rate = parameter_rate(n);
    // Which way along this line the orbit exists: the side of the last point's, carried over.
    double side = existing_side.dot(n) >= 0 ? 1 : -1;
    if (existing_side.norm() == 0) {  // the first point: probe both sides of the event
      PeriodicOrbit probe;
      const double d = 1e-6;
      const bool plus = exists(P + d * n, guesses, probe), minus = exists(P - d * n, guesses, probe);
      if (plus == minus) {
        c.why = std::string("the orbit with ") + std::to_string(event_.orbit.events) + " impacts exists on " +
                (plus ? "both sides" : "neither side") + " of the grazing";
        return c;
      }
      side = plus ? 1 : -1;
    }
    // Bracketed from the side where the orbit exists, a little away from the grazing (near it, Newton
    // from a guess off the orbit may reach the surface), then walked towards the other side, each shot
    // from the nearest orbit found, until it ceases.
    PeriodicOrbit found;
    double have = 0, gone = 0;  // s where the orbit exists, and where it has ceased
    bool exists_somewhere = false, bracketed = false;
    for (double d = reach / 8; d <= 4 * reach && !exists_somewhere; d *= 2) {
      PeriodicOrbit orbit;
      if ((exists_somewhere = exists(P + side * d * n, guesses, orbit))) found = orbit, have = side * d;
    }
    for (double d = reach / 8; exists_somewhere && d <= 4 * reach && !bracketed; d *= 2) {
      PeriodicOrbit orbit;
      const double s = have - side * d;
      if (exists(P + s * n, guesses, orbit)) found = orbit, have = s;
      else gone = s, bracketed = true;
    }
    if (!bracketed) {
      c.why = std::string("the orbit with ") + std::to_string(event_.orbit.events) + " impacts " +
              (exists_somewhere ? "does not cease" : "is not found") + " within the predictor's reach on the normal line";
      return c;
    }
    while (std::fabs(gone - have) * rate > settings_.locate_tol) {
      const double mid = 0.5 * (have + gone);
      PeriodicOrbit orbit;
      if (exists(P + mid * n, guesses, orbit)) found = orbit, have = mid;
      else gone = mid;
    }
    const double s = 0.5 * (have + gone);
    const Plane u = P + s * n;
    // The orbit with more impacts must meet the grazing orbit here (on either side: where the branch
    // turns back at the grazing both families lie on one side).
    const std::string meeting = meet(P, n, have, gone, found);
    if (!meeting.empty()) {
      c.why = meeting;
      return c;
    }
    c.point = {p1(u), p2(u), found};
    c.s = s;
    c.ok = true;
    existing_side = (have - gone > 0 ? 1.0 : -1.0) * n;
    return c;
  }

  // The orbit with more impacts next to the grazing, looked for on both sides (where the branch turns
  // back at the grazing both families lie on one side). Newton's basin for it shrinks towards the
  // grazing (the map's square-root singularity), so not finding it proves nothing and only a
  // contradiction is refused: an orbit next to the grazing orbit with another count than at the start.
  std::string meet(const Plane& P, const Plane& n, double have, double gone, const PeriodicOrbit& touching) {
    const double away = gone > have ? 1 : -1;
    ShootingSettings quick = settings_.shooting;  // from a guess in its basin Newton converges in a few steps
    quick.max_iterations = std::min(quick.max_iterations, 12);
    for (const double d : {1e-7, 1e-5}) {
      for (const double s : {gone + away * d, have - away * d}) {
        std::vector<StrobeSample> guesses = meeting_states;
        guesses.push_back(touching.state);
        const PeriodicOrbit orbit = shoot(P + s * n, guesses, &quick);
        if (!orbit.converged || orbit.events <= touching.events) continue;
        if (scaled_distance(orbit.state, touching.state, state_scales_) > settings_.max_predictor_error) continue;
        if (meeting_impacts_ < 0) meeting_impacts_ = orbit.events;
        if (orbit.events != meeting_impacts_)
          return "the orbit meeting the grazing orbit has " + std::to_string(orbit.events) + " impacts, not " +
                 std::to_string(meeting_impacts_);
        meeting_states.insert(meeting_states.begin(), orbit.state);  // the best guess for the next point
        if (meeting_states.size() > 3) meeting_states.pop_back();
        ++met_;
        return "";
      }
    }
    return "";
  }

  const Model& model_;
  ParameterSet values_;
  int i1_, i2_;
  const BranchEvent& event_;
  const CurveSettings& settings_;
  Plane scales_;
  std::vector<double> state_scales_;
  long long meeting_impacts_ = -1;

 public:
  int met_ = 0;  // points at which the orbit with more impacts was found meeting the grazing orbit
};

StrobeSample extrapolate(const StrobeSample& before, const StrobeSample& last, double w) {
  StrobeSample out = last;
  for (std::size_t i = 0; i < out.state.size(); ++i) out.state[i] = last.state[i] + w * (last.state[i] - before.state[i]);
  return out;
}

}  // namespace

Curve continue_codim1_curve(const Model& model, ParameterSet values, const std::string& parameter_1,
                            const std::string& parameter_2, const BranchEvent& event, double p2_to,
                            const CurveSettings& settings, const std::vector<StrobeSample>& meeting_guesses) {
  const int i1 = values.index_of(parameter_1), i2 = values.index_of(parameter_2);
  if (i1 < 0) throw InputError("unknown parameter '" + parameter_1 + "' of " + model.name());
  if (i2 < 0) throw InputError("unknown parameter '" + parameter_2 + "' of " + model.name());
  if (i1 == i2) throw InputError("the curve's two parameters must differ (both are '" + parameter_1 + "')");
  if (event.kind != "grazing" && event.kind != "period_doubling" && event.kind != "fold")
    throw InputError("a curve follows a grazing, period_doubling or fold, not '" + event.kind + "'");
  Curve curve;
  curve.kind = event.kind;
  curve.parameter_1 = parameter_1;
  curve.parameter_2 = parameter_2;
  if (!event.orbit.converged) {
    curve.end = "the event has no orbit to start from" + (event.orbit.reason.empty() ? "" : " (" + event.orbit.reason + ")");
    return curve;
  }
  const double p2_from = values.at(i2);
  const auto scale_of = [](double given, double value, double range) {
    if (given > 0) return given;
    const double s = std::max(std::fabs(value), std::fabs(range));
    return s > 0 ? s : 1.0;
  };
  const Plane scales(scale_of(settings.scale_1, event.parameter, 0), scale_of(settings.scale_2, p2_from, p2_to - p2_from));
  CurveTracer tracer(model, values, i1, i2, event, settings, scales);
  tracer.meeting_states = meeting_guesses;
  const double heading = p2_to >= p2_from ? 1 : -1;
  const double u2_to = p2_to / scales[1], u2_from = p2_from / scales[1];
  const double u1_min = settings.p1_min / scales[0], u1_max = settings.p1_max / scales[0];
  const Plane along_p1(1, 0), along_p2(0, 1);

  const auto named = [&](const std::string& why, const Plane& u) {
    return why + " at " + pair_text(parameter_1, parameter_2, tracer.p1(u), tracer.p2(u));
  };
  // The event again, on the line p2 = start.
  const Plane start(event.parameter / scales[0], u2_from);
  Correction first = tracer.correct(start, along_p1, event.orbit.state, 0.05);
  if (!first.ok) {
    curve.end = named("the event is not found again: " + first.why, start);
    return curve;
  }
  curve.points.push_back(first.point);
  if (p2_to == p2_from) {
    curve.end = "reached the end of the range";
    curve.meeting_impacts = tracer.meeting_impacts();
    curve.meetings = tracer.met_;
    return curve;
  }

  const auto finished = [&]() -> Curve {  // with what the tracer learnt about the meeting orbits
    curve.meeting_impacts = tracer.meeting_impacts();
    curve.meetings = tracer.met_;
    return curve;
  };
  double h = std::min(settings.step, settings.max_step);
  while (static_cast<int>(curve.points.size()) < settings.max_points) {
    const CurvePoint& last = curve.points.back();
    const Plane u_last(last.parameter_1 / scales[0], last.parameter_2 / scales[1]);
    Plane tangent = heading * along_p2;  // the first step: along p2, corrected along p1
    Plane normal = along_p1;
    StrobeSample predicted = last.orbit.state;
    double w = 0;
    if (curve.points.size() >= 2) {
      const CurvePoint& before = curve.points[curve.points.size() - 2];
      const Plane chord = u_last - Plane(before.parameter_1 / scales[0], before.parameter_2 / scales[1]);
      tangent = chord.normalized();
      normal = Plane(-tangent[1], tangent[0]);
      w = chord.norm();
    }
    Plane P = u_last + h * tangent;
    bool final_point = false;
    std::string ending;
    // Where the prediction leaves the range of p2 or the bounds of p1, the point is put on that
    // boundary: predicted where the tangent meets it, corrected along it.
    const auto clamp = [&](int axis, double bound, const std::string& why) {
      if (std::fabs(tangent[axis]) < 1e-12) return;
      const double t = (bound - u_last[axis]) / tangent[axis];
      P = u_last + t * tangent;
      normal = axis == 1 ? along_p1 : along_p2;
      final_point = true;
      ending = why;
    };
    if (heading * (P[1] - u2_to) > 0) clamp(1, u2_to, "reached the end of the range");
    else if (heading * (P[1] - u2_from) < 0) {
      std::ostringstream why;
      why << std::setprecision(10) << "the curve turns back in " << parameter_2 << " and returned to its start value "
          << p2_from;
      clamp(1, u2_from, why.str());
    }
    if (P[0] > u1_max) clamp(0, u1_max, "left the bounds of " + parameter_1 + " at its maximum");
    else if (P[0] < u1_min) clamp(0, u1_min, "left the bounds of " + parameter_1 + " at its minimum");
    const double hop = (P - u_last).norm();
    if (w > 0) predicted = extrapolate(curve.points[curve.points.size() - 2].orbit.state, last.orbit.state, hop / w);

    // The first step knows no tangent: the curve may cross the line p2 = const at any angle, so its
    // corrector may move farther along p1 than the step.
    const double reach = curve.points.size() < 2 ? hop + 0.05 : hop;
    Correction next = tracer.correct(P, normal, predicted, std::max(reach, 1e-12));
    std::string mismatch = next.why;
    if (next.ok) {
      const double off = scaled_distance(next.point.orbit.state, predicted, tracer.state_scales());
      if (next.point.orbit.events != last.orbit.events) {
        mismatch = "the orbit there has " + std::to_string(next.point.orbit.events) + " impacts per period, not " +
                   std::to_string(last.orbit.events);
      } else if (off > settings.max_predictor_error) {
        std::ostringstream why;
        why << "the orbit there lies " << off << " state scales from the prediction, more than "
            << settings.max_predictor_error;
        mismatch = why.str();
      }
    }
    if (!mismatch.empty()) {
      h /= 2;
      if (h < settings.min_step && curve.kind != "grazing") {
        // A fold or period-doubling curve that runs into a grazing curve: the orbit's impact fades
        // there, and the map's square-root singularity stops the corrector short of the meeting point.
        double s_grazing = 0;
        PeriodicOrbit touching;
        if (tracer.grazing_near(u_last, normal, last.orbit, kGrazingReach, s_grazing, touching)) {
          const Plane g = u_last + s_grazing * normal;
          curve.meets = {tracer.p1(g), tracer.p2(g), touching};
          curve.meets_distance = std::max(std::fabs(tracer.p1(g) - last.parameter_1), std::fabs(tracer.p2(g) - last.parameter_2));
          std::ostringstream end;
          end << std::setprecision(10) << (curve.kind == "fold" ? "fold" : "period doubling") << " meets grazing at "
              << pair_text(parameter_1, parameter_2, tracer.p1(g), tracer.p2(g)) << ": the orbit's impacts change ("
              << last.orbit.events << " -> " << touching.events << " per " << last.orbit.periods
              << " period(s)) within " << std::setprecision(2) << curve.meets_distance
              << " of the curve's last point, where the corrector stops (" << mismatch << ")";
          curve.end = end.str();
          curve.end_kind = "meets_grazing";
          return finished();
        }
      }
      if (h < settings.min_step) {
        std::ostringstream end;
        end << "step below the minimum (" << settings.min_step << "): " << mismatch;
        curve.end = named(end.str(), u_last);
        return finished();
      }
      continue;
    }
    curve.points.push_back(next.point);
    if (final_point) {
      curve.end = ending;
      return finished();
    }
    if (next.iterations <= 4 && std::fabs(next.s) < 0.25 * hop) h = std::min(1.5 * h, settings.max_step);
  }
  curve.end = "stopped at the most points (" + std::to_string(settings.max_points) + ")";
  return finished();
}

}  // namespace vibro

namespace vibro {

std::vector<StrobeSample> meeting_guesses(const Branch& branch, const BranchEvent& grazing) {
  std::vector<const BranchPoint*> more;
  for (const auto& q : branch.points)
    if (q.orbit.events > grazing.orbit.events) more.push_back(&q);
  std::sort(more.begin(), more.end(), [&](const BranchPoint* a, const BranchPoint* b) {
    return std::fabs(a->parameter - grazing.parameter) < std::fabs(b->parameter - grazing.parameter);
  });
  std::vector<StrobeSample> guesses;
  for (std::size_t i = 0; i < more.size() && i < 3; ++i) guesses.push_back(more[i]->orbit.state);
  return guesses;
}

}  // namespace vibro
