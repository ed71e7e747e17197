#pragma once
// What distinguishes the orbits of a branch on either side of an event: the impacts per period (a
// grazing changes them) and the number of multipliers outside the unit circle (a stability change),
// and how a stability change is named from the multiplier that crossed.
#include <complex>
#include <string>

#include "analysis/periodic_shooting.hpp"

namespace vibro {

struct BranchCharacter {
  long long events = 0;
  int unstable = 0;
  bool operator==(const BranchCharacter& o) const { return events == o.events && unstable == o.unstable; }
  bool operator!=(const BranchCharacter& o) const { return !(*this == o); }
};

BranchCharacter branch_character(const PeriodicOrbit& orbit);

// Whether an odd number of real multipliers lie beyond -1. Without an event between two orbits of one
// branch it stays: a real multiplier outside the unit circle changes sign only through -1 and +1 or
// with a partner of its sign (into a complex pair), so a flip with the same type is another orbit
// (the impact oscillator's (2,2) orbit and its (1,1) orbit run twice, both one multiplier outside).
bool odd_flips(const PeriodicOrbit& orbit);

// The multiplier of `orbit` nearest the unit circle: the one that crosses at a stability change.
std::complex<double> critical_multiplier(const PeriodicOrbit& orbit);

// "period_doubling" (real, near -1), "fold" (real, near +1) or "neimark_sacker" (complex pair), from the
// multiplier of `after` nearest the unit circle; `detail` gets that multiplier.
std::string stability_change_kind(const PeriodicOrbit& after, std::string& detail);

// "multiplier a + bi".
std::string describe_multiplier(std::complex<double> mu);

// The orbit type as messages name it: "(1,1) stable", "(1,0) unstable (1 multiplier outside the unit
// circle)" ((periods, impacts) as in the class codes).
std::string describe_orbit_type(const PeriodicOrbit& orbit);

}  // namespace vibro
