#include "analysis/branch_character.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace vibro {

BranchCharacter branch_character(const PeriodicOrbit& orbit) {
  const auto unstable = std::count_if(orbit.multipliers.begin(), orbit.multipliers.end(),
                                      [](const auto& mu) { return std::abs(mu) > 1; });
  return {orbit.events, orbit.switches, static_cast<int>(unstable)};
}

bool same_motion(const PeriodicOrbit& a, const PeriodicOrbit& b) { return a.events == b.events && a.switches == b.switches; }
bool same_motion(const MapStep& a, const MapStep& b) { return a.events == b.events && a.switches == b.switches; }

bool simpler_motion(const PeriodicOrbit& a, const PeriodicOrbit& b) {
  return a.events != b.events ? a.events < b.events : a.switches < b.switches;
}

namespace {

std::string plain_motion_change(const PeriodicOrbit& before, const PeriodicOrbit& after, std::string& detail) {
  std::ostringstream text;
  if (before.events != after.events) {
    text << "impacts per period " << before.events << " -> " << after.events;
    detail = text.str();
    return "grazing";
  }
  text << "mode changes per period " << before.switches << " -> " << after.switches;
  detail = text.str();
  return "mode_change";
}

}  // namespace

std::string motion_change_kind(const PeriodicOrbit& before, const PeriodicOrbit& after, std::string& detail) {
  const std::string kind = plain_motion_change(before, after, detail);
  for (const PeriodicOrbit* orbit : {&before, &after})
    if (uncertain_orbit(*orbit)) {
      detail += "; uncertain: the " + std::string(orbit == &before ? "earlier" : "later") + " orbit is " +
                describe_uncertainty(*orbit);
      break;
    }
  return kind;
}

bool uncertain_orbit(const PeriodicOrbit& orbit) { return orbit.uncertainty > kUncertainOrbit; }

std::string describe_uncertainty(const PeriodicOrbit& orbit) {
  std::ostringstream text;
  text << std::setprecision(2) << "known only to about " << orbit.uncertainty
       << " (nearly neutral: a state that far off returns within the tolerance)";
  return text.str();
}

bool odd_flips(const PeriodicOrbit& orbit) {
  const auto flips = std::count_if(orbit.multipliers.begin(), orbit.multipliers.end(),
                                   [](const auto& mu) { return std::fabs(mu.imag()) < 1e-12 && mu.real() < -1; });
  return flips % 2 == 1;
}

std::complex<double> critical_multiplier(const PeriodicOrbit& orbit) {
  return *std::min_element(orbit.multipliers.begin(), orbit.multipliers.end(), [](auto a, auto b) {
    return std::fabs(std::abs(a) - 1) < std::fabs(std::abs(b) - 1);
  });
}

std::string describe_multiplier(std::complex<double> mu) {
  std::ostringstream text;
  text << "multiplier " << mu.real() << (mu.imag() < 0 ? " - " : " + ") << std::fabs(mu.imag()) << "i";
  return text.str();
}

std::string describe_orbit_type(const PeriodicOrbit& orbit) {
  const int unstable = branch_character(orbit).unstable;
  std::ostringstream text;
  text << "(" << orbit.periods << "," << orbit.events;
  if (orbit.switches > 0) text << "; " << orbit.switches << " mode change" << (orbit.switches > 1 ? "s" : "");
  text << ") ";
  if (unstable == 0) text << "stable";
  else text << "unstable (" << unstable << " multiplier" << (unstable > 1 ? "s" : "") << " outside the unit circle)";
  if (uncertain_orbit(orbit)) text << ", " << describe_uncertainty(orbit);
  return text.str();
}

std::string stability_change_kind(const PeriodicOrbit& after, std::string& detail) {
  const auto nearest = critical_multiplier(after);
  detail = describe_multiplier(nearest);
  if (std::fabs(nearest.imag()) > 1e-6) return "neimark_sacker";
  if (nearest.real() < 0) return "period_doubling";
  if (breaks_symmetry(after)) {
    detail = symmetry_breaking_detail(after, nearest);
    return "symmetry_breaking";
  }
  return "fold";
}

namespace {

std::complex<double> nearest_to(const std::vector<std::complex<double>>& mu, double target) {
  return *std::min_element(mu.begin(), mu.end(), [&](auto a, auto b) { return std::abs(a - target) < std::abs(b - target); });
}

}  // namespace

bool breaks_symmetry(const PeriodicOrbit& orbit) {
  if (!orbit.symmetric || orbit.half_multipliers.empty()) return false;
  return std::abs(nearest_to(orbit.half_multipliers, -1) + 1.0) < std::abs(nearest_to(orbit.half_multipliers, 1) - 1.0);
}

std::string symmetry_breaking_detail(const PeriodicOrbit& orbit, std::complex<double> full_period_multiplier) {
  return "pitchfork of the full-period map: half-period " + describe_multiplier(nearest_to(orbit.half_multipliers, -1)) +
         " through -1 (full period " + describe_multiplier(full_period_multiplier) + ")";
}

}  // namespace vibro
