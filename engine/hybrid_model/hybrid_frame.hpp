#pragma once
// What the adapter's simulation needs beyond the description of one case: the numerics (chatter
// threshold, step control), which component is a drift coordinate (sampled as the drift position, not
// compared on the section), and whose per-period extremes are tracked; and where a period's
// bookkeeping lands in a StrobeSample (counters and aux slots).
#include <cstddef>
#include <string>
#include <vector>

#include "engine/core/strobe_sample.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

// StrobeSample::counters of every adapted model, in this order; then one per counted stop (a GapLaw
// with `counted`), "impacts_<guard name>", in the order the guards were declared.
enum HybridCounter { kHybridImpacts, kHybridGrazings, kHybridStickings, kHybridReleases, kHybridSwitches,
                     kHybridSteps, kHybridRejectedSteps, kHybridCounterCount };
inline std::vector<std::string> hybrid_counter_names() {
  return {"impacts", "grazings", "stickings", "releases", "switches", "steps", "rejected_steps"};
}
inline std::vector<std::string> hybrid_counter_meanings() {
  return {"impacts on a stop (restitution events)", "grazing contacts with a stop (zero approach speed)",
          "times the state came to rest on a stop (chatter ended)", "releases from rest on a stop",
          "switches between declared modes", "accepted integration steps", "rejected integration steps (error control)"};
}

// StrobeSample::aux of every adapted model, reset at every sample: the phase w t mod 2 pi and the
// approach speed of the period's last impact (NaN: none), then (max, min) of each tracked component.
enum HybridAux { kAuxImpactPhase = 0, kAuxImpactSpeed = 1, kAuxFirstExtreme = 2 };
inline constexpr int kMaxTrackedComponents = (kMaxAux - kAuxFirstExtreme) / 2;  // the aux slots left, in pairs
inline constexpr int kMaxCountedStops = kMaxCounters - kHybridCounterCount;

struct HybridNumerics {
  StepControl control;  // h_max bounds a step to one extremum per component
  double v_eps = 1e-9;  // rebound speed below which chatter on a sticking stop ends
};

struct HybridFrame {
  std::vector<std::string> names;  // state components
  std::vector<std::string> units;  // their units, as declared (empty: not declared)
  int drift_component = -1;        // -1: none
  std::vector<int> tracked;        // components with per-period extremes, at most kMaxTrackedComponents
  HybridNumerics numerics;
  // The section's components: all but the drift one.
  std::vector<int> strobe_components() const {
    std::vector<int> out;
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (i != drift_component) out.push_back(i);
    return out;
  }
};

}  // namespace vibro
