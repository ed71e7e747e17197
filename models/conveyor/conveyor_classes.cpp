#include "models/conveyor/conveyor_classes.hpp"

#include <algorithm>

#include "models/conveyor/conveyor_simulation.hpp"

namespace vibro::conveyor {

std::string classify_conveyor(const SteadyState& steady) {
  if (steady.periodicity == Periodicity::NotConverged) return "X";
  if (steady.periodicity == Periodicity::QuasiPeriodic) return "Q";
  const std::string k = std::to_string(steady.period);
  const std::string slow = steady.periodicity == Periodicity::SlowlyConverging ? "~" : "";
  const bool any_coupled = std::any_of(steady.window.begin(), steady.window.end(),
                                       [](const StrobeSample& s) { return s.mode == kCoupled; });
  const bool all_coupled = std::all_of(steady.window.begin(), steady.window.end(),
                                       [](const StrobeSample& s) { return s.mode == kCoupled; });
  const auto impacts = steady.counter_in_window(kImpacts);
  if (impacts == 0 && all_coupled) return "S" + slow;
  if (steady.counter_in_window(kCoupledPhases) > 0 || any_coupled) return "M" + k + slow;
  // Impacts per orbit over whole orbits only; a non-integer count means the orbit is not periodic.
  const double per_orbit = steady.counter_per_orbit(kImpacts);
  if (per_orbit < 0) return "X";
  if (per_orbit == 1) return "H" + k + slow;
  return "P" + k + slow;
}

std::vector<ClassCode> conveyor_class_legend() {
  return {{"S[~]", "permanent contact: the part never leaves the plate (no impacts, every sample in coupled motion); ~: converged slowly"},
          {"M<k>[~]", "period-k motion with coupled phases: flights that end in an accumulation onto the plate "
                      "(microthrow); ~: converged slowly"},
          {"H<k>[~]", "period-k hopping with one impact per orbit (a flight of k plate periods for k > 1); ~: converged slowly"},
          {"P<k>[~]", "period-k hopping with several impacts per orbit and no coupled phase; ~: converged slowly"},
          quasi_periodic_class(),
          not_converged_class()};
}

}  // namespace vibro::conveyor
