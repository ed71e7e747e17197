#include "analysis/grazing_switching.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "analysis/branch_switching.hpp"
#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

// The start of the branch with more impacts than the grazing's orbit `touching`, a little to `side` (+1
// or -1) of the grazing at p0: orbits shot from seeds displaced from x* by fractions of the state scales
// along each component, the nearest to x* kept when continuing it back reaches the grazing (an orbit
// of another branch found this way does not). Its first point is nearest the grazing; empty when none.
Branch seeded_impacting_start(const Model& model, const ParameterSet& values, int index, const PeriodicOrbit& touching,
                              double p0, double side, double reach, const ContinuationSettings& settings) {
  ParameterSet at = values;
  const std::string& parameter = at.specs()[static_cast<std::size_t>(index)].name;
  for (const double fraction : {1e-4, 1e-3, 1e-2}) {
    const double p = p0 + side * fraction * reach;
    try {
      at.set_at(index, p);
    } catch (const InputError&) {
      break;
    }
    const auto simulation = model.start(at);
    const auto& scales = simulation->layout().state_scales;
    PeriodicOrbit nearest;
    double nearest_distance = 0;
    for (const double size : {1e-3, 1e-2, 1e-1})
      for (std::size_t c = 0; c < scales.size(); ++c)
        for (const double sign : {1.0, -1.0}) {
          StrobeSample seed = touching.state;
          seed.state[c] += sign * size * scales[c];
          const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, seed, touching.periods, settings.shooting);
          if (!orbit.converged || orbit.events <= touching.events) continue;
          double distance = 0;
          for (std::size_t k = 0; k < scales.size(); ++k)
            distance = std::max(distance, std::fabs(orbit.state.state[k] - touching.state.state[k]) / scales[k]);
          if (!nearest.converged || distance < nearest_distance) nearest = orbit, nearest_distance = distance;
        }
    if (!nearest.converged) continue;
    Branch start;
    start.points.emplace_back(p, nearest);
    if (fill_in_towards_birth(model, at, parameter, p0, touching.periods, settings, start)) return start;
  }
  return {};
}

}  // namespace

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
  // Both families on one side (a nonsmooth fold at the grazing, e.g. Model A in lambda): Newton from x*
  // finds the touch-free orbit there, the impacting one lies a little off x*. Seeds displaced from x*
  // along each state component reach it; the side towards `to` first.
  for (const double side : {towards, -towards}) {
    Branch start = seeded_impacting_start(model, values, index, touching, p0, side, reach, settings);
    if (start.points.empty()) continue;
    const BranchPoint first_found = start.points.back();
    if (side != towards) return other_side(first_found.orbit.events, first_found.parameter);
    values.set_at(index, first_found.parameter);
    Branch born = follow(model, values, parameter, first_found.parameter, to, first_found.orbit.state,
                         touching.periods, settings);
    born.points.insert(born.points.begin(), start.points.begin(), start.points.end() - 1);
    born.events.insert(born.events.begin(), start.events.begin(), start.events.end());
    return born;
  }
  why << "no orbit with more impacts found next to the grazing at " << parameter << " = " << p0;
  failed.end = why.str();
  return failed;
}

}  // namespace vibro
