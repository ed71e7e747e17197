#include "analysis/grazing_switching.hpp"

#include <cmath>
#include <vector>
#include <iomanip>
#include <sstream>

#include "analysis/branch_events.hpp"
#include "analysis/branch_switching.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

Branch continue_impacting_branch(const Model& model, ParameterSet values, const std::string& parameter,
                                 const BranchEvent& grazing, double to, const ContinuationSettings& settings,
                                 BranchFollower follow) {
  Branch failed;
  const int index = values.index_of(parameter);
  const PeriodicOrbit& touching = grazing.orbit;
  if (index < 0 || grazing.kind != "grazing" || !touching.converged) {
    failed.end = "no grazing with its orbit to switch at";
    return failed;
  }
  const double p0 = grazing.parameter;
  const double reach = std::max(std::fabs(to - p0), 1e-12);
  const double towards = to > p0 ? 1.0 : -1.0;
  std::ostringstream why;
  why << std::setprecision(10);
  // The orbit shot from x* on either side: on one side the touch-free orbit, on the other the one with
  // more impacts (the touch-free orbit would cross the surface there). Near first: the impacting orbit
  // grows from x* (like the square root of the distance, or linearly), and the branch should start as
  // close to its birth as Newton allows.
  const auto shoot_at = [&](double p, PeriodicOrbit& orbit) {
    try {
      values.set_at(index, p);
    } catch (const InputError&) {
      return false;
    }
    orbit = shoot_periodic_orbit(*model.start(values), touching.state, touching.periods, settings.shooting);
    return orbit.converged;
  };
  const auto other_side = [&](long long impacts, double where) {
    why << "the branch with " << impacts << " impacts per " << touching.periods << " period(s) is born on the other "
        << "side of the grazing at " << parameter << " = " << p0 << " (found at " << where << "); give --to on that side";
    failed.end = why.str();
    return failed;
  };
  // The farthest orbits found on the side away from `to` (behind) and towards it (ahead).
  PeriodicOrbit found_behind, found_ahead;
  double behind_at = p0, ahead_at = p0;
  for (const double fraction : {1e-6, 1e-5, 1e-4, 1e-3, 1e-2}) {
    PeriodicOrbit ahead, behind;
    const double p_ahead = p0 + towards * fraction * reach, p_behind = p0 - towards * fraction * reach;
    if (shoot_at(p_behind, behind)) found_behind = behind, behind_at = p_behind;
    if (shoot_at(p_ahead, ahead)) found_ahead = ahead, ahead_at = p_ahead;
    if (!ahead.converged || !behind.converged || ahead.events == behind.events) continue;
    if (behind.events > ahead.events) return other_side(behind.events, p_behind);
    values.set_at(index, p_ahead);
    Branch born = follow(model, values, parameter, p_ahead, to, ahead.state, touching.periods, settings);
    fill_in_towards_birth(model, values, parameter, p0, touching.periods, settings, born);
    return born;
  }
  // Where both families lie on one side of the grazing (a nonsmooth fold: Model A's impact-free orbit
  // at omega = 6, whose (1,1) family turns back at 0.56438 below the grazing at lambda = 0.5670028),
  // Newton from x* finds the touch-free orbit on that side and nothing on the other. The orbit with
  // more impacts lies next to x* on the touch-free side, unstable; guesses off x* along each state
  // component (1e-4 and 1e-3 of its scale, either sign) reach it, and it must lie within
  // max_predictor_error of x*.
  const PeriodicOrbit* touch_free = found_ahead.converged && found_ahead.events == touching.events     ? &found_ahead
                                    : found_behind.converged && found_behind.events == touching.events ? &found_behind
                                                                                                       : nullptr;
  if (touch_free) {
    const double side = touch_free == &found_ahead ? towards : -towards;
    const std::vector<double> scales = model.start(values)->layout().state_scales;
    for (const double fraction : {1e-6, 1e-5, 1e-4, 1e-3, 1e-2}) {
      const double p = p0 + side * fraction * reach;
      try {
        values.set_at(index, p);
      } catch (const InputError&) {
        break;
      }
      const auto simulation = model.start(values);
      for (std::size_t i = 0; i < scales.size(); ++i)
        for (const double offset : {1e-4, -1e-4, 1e-3, -1e-3}) {
          StrobeSample guess = touching.state;
          guess.state[i] += offset * scales[i];
          const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, guess, touching.periods, settings.shooting);
          if (!orbit.converged || orbit.events <= touching.events ||
              scaled_distance(orbit.state, touching.state, scales) > settings.max_predictor_error)
            continue;
          if (side != towards) return other_side(orbit.events, p);
          Branch born = follow(model, values, parameter, p, to, orbit.state, touching.periods, settings);
          fill_in_towards_birth(model, values, parameter, p0, touching.periods, settings, born);
          return born;
        }
    }
  }
  // Newton from x* fails on the impacting side where its slow impact's saltation makes the map too
  // nonsmooth (the impact oscillator's (1,1) orbit below its grazing: stalled from 2.3e-7 to 2.3e-3 away
  // with the range 0.23). Continuation of the orbit found on one side steps over the grazing as it would
  // along the branch (with its meeting check); the part beyond the grazing, with more impacts, is the
  // new branch.
  const auto across = [&](const PeriodicOrbit& start, double at, double end) {
    values.set_at(index, at);
    Branch path = continue_periodic_orbit(model, values, parameter, at, end, start.state, touching.periods, settings);
    const double side = end > p0 ? 1.0 : -1.0;
    const auto beyond = [&](double p) { return side * (p - p0) > 1e-9 * reach; };
    Branch born;
    born.end = path.end;
    for (const auto& q : path.points)
      if (beyond(q.parameter)) born.points.push_back(q);
    for (const auto& e : path.events)
      if (beyond(e.parameter)) born.events.push_back(e);
    if (born.points.empty() || born.points.front().orbit.events <= start.events) born.points.clear();
    return born;
  };
  if (found_behind.converged) {
    Branch born = across(found_behind, behind_at, to);
    if (!born.points.empty()) {
      fill_in_towards_birth(model, values, parameter, p0, touching.periods, settings, born);
      return born;
    }
  }
  if (found_ahead.converged) {
    const Branch born = across(found_ahead, ahead_at, p0 - towards * reach);
    if (!born.points.empty()) return other_side(born.points.front().orbit.events, born.points.front().parameter);
  }
  why << "no orbit with more impacts found next to the grazing at " << parameter << " = " << p0;
  failed.end = why.str();
  return failed;
}

}  // namespace vibro
