#include "analysis/orbit_continuation.hpp"

#include "analysis/branch_character.hpp"

#include <algorithm>
#include <cmath>
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

class Shooter {
 public:
  Shooter(const Model& model, ParameterSet values, int index, int periods, const ShootingSettings& settings)
      : model_(model), values_(std::move(values)), index_(index), periods_(periods), settings_(settings) {}
  PeriodicOrbit at(double parameter, const StrobeSample& guess) {
    values_.set_at(index_, parameter);
    const auto simulation = model_.start(values_);
    return shoot_periodic_orbit(*simulation, guess, periods_, settings_);
  }
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
      return shoot_periodic_orbit(*simulation, settled.sample, periods_, settings_);
    }
    return orbit;
  }

 private:
  const Model& model_;
  ParameterSet values_;
  int index_, periods_;
  ShootingSettings settings_;
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
    // Newton alone while the step can shrink; the flow's help only where it cannot (at a grazing,
    // where the branch ends and the flow moves on to what follows it, as a sweep would).
    const bool stuck = step / 2 < settings.min_step;
    PeriodicOrbit orbit = shoot.at(next, {predicted, last.orbit.state}, stuck);
    if (!orbit.converged) {
      step /= 2;
      if (stuck) {
        std::ostringstream end;
        end << "lost the branch after " << last.parameter << ": " << orbit.reason;
        branch.end = end.str();
        return branch;
      }
      continue;
    }
    // An event between the two points: bisect, each side keeping its character.
    const BranchCharacter before = branch_character(last.orbit), after = branch_character(orbit);
    if (before != after) {
      double a = last.parameter, b = next;
      PeriodicOrbit at_a = last.orbit, at_b = orbit;
      const bool grazing = before.events != after.events;
      while (std::fabs(b - a) > settings.locate_tol) {
        const double mid = 0.5 * (a + b);
        PeriodicOrbit m;
        bool a_side = false;
        if (grazing) {
          // The grazing orbit is the one with fewer impacts: it ceases where it touches the surface,
          // a well-posed end, unlike the impacting one, whose map has a square-root singularity there.
          const bool a_grazes = before.events < after.events;
          m = shoot.at(mid, a_grazes ? at_a.state : at_b.state);
          const bool same = m.converged && branch_character(m) == (a_grazes ? before : after);
          a_side = same == a_grazes;
        } else {
          m = shoot.at(mid, {blend(at_a.state, at_b.state, 0.5), at_a.state, at_b.state}, false);
          if (!m.converged) break;
          a_side = branch_character(m) == before;
        }
        if (a_side) {
          a = mid;
          if (m.converged) at_a = m;
        } else {
          b = mid;
          if (m.converged) at_b = m;
        }
      }
      BranchEvent event;
      if (grazing) {
        std::ostringstream detail;
        detail << "impacts per period " << before.events << " -> " << after.events;
        event = {"grazing", 0, detail.str()};
      } else {
        event.kind = stability_change_kind(at_b, event.detail);
        event.multiplier = critical_multiplier(at_b);
      }
      event.parameter = 0.5 * (a + b);
      branch.events.push_back(event);
    }
    branch.points.push_back({next, orbit});
    if (orbit.iterations <= 3) step = std::min(1.5 * step, settings.max_step);
  }
  branch.end = "reached the end of the range";
  return branch;
}

}  // namespace vibro
