#include "models/conveyor/conveyor_classes.hpp"

#include "analysis/strobe_sample_window.hpp"
#include "models/conveyor/conveyor_window.hpp"

namespace vibro::conveyor {

std::string classify_conveyor(const SteadyState& steady) {
  return conveyor_class_of(window_of(steady.window), WindowClass{steady.periodicity, steady.period}).text;
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
