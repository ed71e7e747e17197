#include "analysis/orbit_continuation.hpp"

#include "analysis/branch_character.hpp"
#include "analysis/branch_events.hpp"
#include "analysis/natural_fold.hpp"
#include "engine/core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace vibro {

namespace {

StrobeSample blend(const StrobeSample& a, const StrobeSample& b, double w) {
  StrobeSample out = a;
  for (std::size_t i = 0; i < out.state.size(); ++i) out.state[i] = (1 - w) * a.state[i] + w * b.state[i];
  return out;
}

// Keeps the sample at which it stops the run, `periods` samples on.
class LastSample : public StrobeObserver {
 public:
  explicit LastSample(int periods) : left_(periods) {}
  bool on_sample(const StrobeSample& s) override {
    sample = s;
    return --left_ > 0;
  }
  StrobeSample sample{};

 private:
  int left_;
};

constexpr int kSettlePeriods = 300;

// The multipliers of two orbits (each |.| descending, a complex pair in either order) agree to 1 % of
// their size.
bool same_multipliers(const PeriodicOrbit& a, const PeriodicOrbit& b) {
  if (a.multipliers.size() != b.multipliers.size()) return false;
  for (std::size_t i = 0; i < a.multipliers.size(); ++i) {
    const auto mu = a.multipliers[i], nu = b.multipliers[i];
    if (std::min(std::abs(mu - nu), std::abs(std::conj(mu) - nu)) > 1e-2 * (1 + std::abs(mu))) return false;
  }
  return true;
}

class Shooter {
 public:
  Shooter(const Model& model, ParameterSet values, int index, int periods, const ShootingSettings& settings)
      : model_(model), values_(std::move(values)), index_(index), periods_(periods), settings_(settings) {}
  PeriodicOrbit at(double parameter, const StrobeSample& guess) {
    values_.set_at(index_, parameter);
    const auto simulation = model_.start(values_);
    return shoot_periodic_orbit(*simulation, guess, periods_, settings_, expected_);
  }
  // Every later shot looks for an orbit like this one: symmetric, or not (OrbitSymmetry).
  void follow(const PeriodicOrbit& first) { expected_ = symmetry_of(first); }
  // The first guess that converges. Near a grazing an interpolated guess may be a penetrating state,
  // which the model refuses, while a neighbouring orbit's state is admissible; and the map's
  // square-root singularity there shrinks Newton's basin, so the last resort lets the flow carry the
  // first admissible guess for a while (a stable orbit attracts it) and shoots from where it ends.
  PeriodicOrbit at(double parameter, std::initializer_list<StrobeSample> guesses, bool settle) {
    PeriodicOrbit orbit;
    for (const auto& guess : guesses)
      if ((orbit = at(parameter, guess)).converged) return orbit;
    if (!settle) return orbit;
    for (const auto& guess : guesses) {
      values_.set_at(index_, parameter);
      const auto simulation = model_.start(values_);
      if (!simulation->restart_from(guess)) continue;
      LastSample settled(kSettlePeriods);
      simulation->run(settled);
      // A guess the flow holds (a state frozen in a mode it entered moving) settles nowhere: the next.
      if ((orbit = shoot_periodic_orbit(*simulation, settled.sample, periods_, settings_, expected_)).converged)
        return orbit;
    }
    return orbit;
  }

 private:
  const Model& model_;
  ParameterSet values_;
  int index_, periods_;
  ShootingSettings settings_;
  OrbitSymmetry expected_ = OrbitSymmetry::Unknown;
};

}  // namespace

Branch continue_periodic_orbit(const Model& model, ParameterSet values, const std::string& parameter, double from,
                               double to, const StrobeSample& guess, int periods, const ContinuationSettings& settings) {
  Branch branch;
  const int index = values.index_of(parameter);
  if (index < 0) {
    branch.end = "unknown parameter '" + parameter + "'";
    return branch;
  }
  Shooter shoot(model, values, index, periods, settings.shooting);
  PeriodicOrbit first = shoot.at(from, guess);
  if (!first.converged) {
    branch.end = "no orbit at the start: " + first.reason;
    return branch;
  }
  shoot.follow(first);
  const std::vector<double> scales = model.start(values)->layout().state_scales;
  const FixedParameterShooter at_fixed = [&](double p, const std::vector<StrobeSample>& guesses) {
    PeriodicOrbit orbit;
    try {
      for (const auto& g : guesses)
        if ((orbit = shoot.at(p, g)).converged) break;
    } catch (const InputError& outside) {  // a bracket beyond the parameter's declared range
      orbit.converged = false;
      orbit.reason = outside.what();
    }
    return orbit;
  };
  branch.points.push_back({from, first});
  const double direction = to >= from ? 1 : -1;
  double step = std::fabs(settings.step);
  while (direction * (to - branch.points.back().parameter) > 0) {
    const BranchPoint& last = branch.points.back();
    const double next = direction > 0 ? std::min(to, last.parameter + step) : std::max(to, last.parameter - step);
    StrobeSample predicted = last.orbit.state;  // secant through the last two points
    if (branch.points.size() >= 2) {
      const BranchPoint& before = branch.points[branch.points.size() - 2];
      predicted = blend(before.orbit.state, last.orbit.state, (next - before.parameter) / (last.parameter - before.parameter));
    }
    // Newton alone while the step can shrink; the flow's help only where it cannot (near a grazing the
    // map's square-root singularity shrinks Newton's basin); what the flow finds must still continue
    // the branch.
    const bool stuck = step / 2 < settings.min_step;
    const auto refuse = [&](const std::string& why) {
      if (!stuck) {
        step /= 2;
        return false;
      }
      std::ostringstream end;
      end << std::setprecision(10) << "step below the minimum (" << settings.min_step << ") at " << parameter << " = "
          << last.parameter << ": " << why;
      branch.end = end.str();
      return true;
    };
    PeriodicOrbit orbit = shoot.at(next, {predicted, last.orbit.state}, stuck);
    // At the smallest step the branch's orbit may have ended at the surface, the orbit beyond lying on
    // another branch (an impact-free orbit grazing where the impacting orbits coexist farther away): the
    // grazing is located and the branch ends there, saying so, instead of stopping short of it.
    const auto ends_at_grazing = [&](const std::string& beyond) {
      if (!stuck) return false;
      const auto event = locate_end_grazing(at_fixed, last, next, settings);
      if (!event) return false;
      // The orbit beyond keeps the impacts but changes mode otherwise: a phase (sticking) sets in.
      const bool mode_change = orbit.converged && orbit.events == last.orbit.events && orbit.switches != last.orbit.switches;
      branch.events.push_back(*event);
      if (mode_change) branch.events.back().kind = "mode_change";
      branch.events.back().detail = (mode_change ? "mode changes per period " + std::to_string(last.orbit.switches)
                                                 : "impacts per period " + std::to_string(last.orbit.events)) +
                                    " -> other; the orbit ends here";
      std::ostringstream end;
      end << std::setprecision(10) << "the orbit with " << last.orbit.events << " impacts per " << periods
          << " period(s) grazes at " << parameter << " = " << event->parameter << " and ends there: beyond it "
          << beyond << " (another branch: the motion jumps)";
      branch.end = end.str();
      branch.ends_at_grazing = true;
      return true;
    };
    // At the smallest step the branch may turn back at a fold just ahead (no orbit beyond it): located by
    // arclength, named, and the branch ends there.
    const auto ends_at_fold = [&]() {
      if (!stuck) return false;
      const double reach = 1e-3 * std::fabs(to - from) + 10 * std::fabs(next - last.parameter);
      const auto found = fold_just_ahead(model, values, parameter, branch.points, to, reach, periods, settings);
      if (found.empty()) return false;
      branch.events.insert(branch.events.end(), found.begin(), found.end());
      std::ostringstream end;
      end << std::setprecision(10);
      if (found.back().orbit.converged)
        end << "the branch turns back at a fold at " << parameter << " = " << found.back().parameter
            << " (located by arclength from " << last.parameter
            << "), which natural continuation cannot pass (--method arclength can)";
      else
        end << "the branch ends at a fold near " << parameter << " = " << found.back().parameter
            << ", estimated from its last 3 points' multiplier approaching +1 (not located: no map found beyond "
            << last.parameter << " by natural or arclength steps)";
      branch.end = end.str();
      return true;
    };
    if (!orbit.converged) {
      if (ends_at_grazing("no orbit of the branch continues it (" + orbit.reason + ")")) return branch;
      if (ends_at_fold()) return branch;
      if (refuse("lost the branch: " + orbit.reason)) return branch;
      continue;
    }
    const double off = scaled_distance(orbit.state, predicted, scales);
    const BranchPoint candidate{next, orbit};
    SegmentCheck check;
    // Where an impact crosses the section t = k T the section state jumps at fixed p while the orbit
    // goes on: at the smallest step a jump with the same orbit type and the same multipliers (which
    // do not depend on the section) is that, not another orbit.
    const bool section_jump = stuck && branch_character(orbit) == branch_character(last.orbit) &&
                              same_multipliers(orbit, last.orbit);
    if (off > settings.max_predictor_error && !section_jump) {
      std::ostringstream why;
      why << "the orbit found at " << next << " (" << describe_orbit_type(orbit) << ") lies " << off
          << " state scales from the prediction, more than " << settings.max_predictor_error;
      check.mismatch = why.str();
    } else {
      check = check_segment(at_fixed, last, candidate, direction, scales, settings);
      if (check.turns_back && check.mismatch.empty()) {  // the new family lies on the old one's side
        branch.events.insert(branch.events.end(), check.events.begin(), check.events.end());
        branch.points.push_back(candidate);
        std::ostringstream end;
        end << std::setprecision(10) << "the branch turns back at a grazing at " << parameter << " = "
            << check.events.back().parameter << " (both families of orbits lie on one side of it), which natural "
            << "continuation cannot follow (--method arclength can)";
        branch.end = end.str();
        branch.turns_back = true;
        return branch;
      }
    }
    if (!check.mismatch.empty()) {
      std::ostringstream found;
      found << std::setprecision(10) << "the orbit found at " << next << " is " << describe_orbit_type(orbit) << ", "
            << off << " state scales from the prediction";
      // Only an orbit with fewer impacts than the one beyond ends at the surface (an impacting orbit
      // whose impact fades meets the orbit with fewer impacts: check_segment's grazing).
      if (simpler_motion(last.orbit, orbit) && ends_at_grazing(found.str())) return branch;
      if (ends_at_fold()) return branch;
      if (refuse("the orbit changes from " + describe_orbit_type(last.orbit) + " to " + describe_orbit_type(orbit) +
                 " (" + check.mismatch + ")"))
        return branch;
      continue;
    }
    branch.events.insert(branch.events.end(), check.events.begin(), check.events.end());
    branch.points.push_back(candidate);
    // Step control from the corrector's convergence and the prediction's error (the branch's curvature).
    if (orbit.iterations <= 3 && off < 0.25 * settings.max_predictor_error) step = std::min(1.5 * step, settings.max_step);
    else if (off > 0.5 * settings.max_predictor_error) step = std::max(0.7 * step, settings.min_step);
  }
  branch.end = "reached the end of the range";
  return branch;
}

}  // namespace vibro
