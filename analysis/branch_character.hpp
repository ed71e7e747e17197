#pragma once
// What distinguishes the orbits of a branch on either side of an event: the impacts per period (a
// grazing changes them), the mode changes located per period (the onset or end of a mode's phase, e.g.
// sticking or sliding, changes them) and the number of multipliers outside the unit circle (a
// stability change), and how each change is named.
#include <complex>
#include <string>

#include "analysis/periodic_shooting.hpp"

namespace vibro {

struct BranchCharacter {
  long long events = 0;
  long long switches = 0;
  int unstable = 0;
  bool same_motion(const BranchCharacter& o) const { return events == o.events && switches == o.switches; }
  bool operator==(const BranchCharacter& o) const { return same_motion(o) && unstable == o.unstable; }
  bool operator!=(const BranchCharacter& o) const { return !(*this == o); }
};

BranchCharacter branch_character(const PeriodicOrbit& orbit);

// Whether two orbits have the same impacts and located mode changes per period (stability aside).
bool same_motion(const PeriodicOrbit& a, const PeriodicOrbit& b);
bool same_motion(const MapStep& a, const MapStep& b);

// The orbit with the simpler motion at an event where the motion changes: fewer impacts, or with as
// many, fewer located mode changes (the orbit that ceases at a grazing or where a phase sets in).
bool simpler_motion(const PeriodicOrbit& a, const PeriodicOrbit& b);

// The event where the motion changes from `before` to `after`: "grazing" (the impacts change) or
// "mode_change" (as many impacts, other mode changes: a phase such as sticking or sliding begins or
// ends); `detail` says what changed, e.g. "impacts per period 1 -> 0" or "mode changes per period 2 -> 4",
// and ends "; uncertain: ..." when either orbit is known only roughly (uncertain_orbit).
std::string motion_change_kind(const PeriodicOrbit& before, const PeriodicOrbit& after, std::string& detail);

// Whether an odd number of real multipliers lie beyond -1. Without an event between two orbits of one
// branch it stays: a real multiplier outside the unit circle changes sign only through -1 and +1 or
// with a partner of its sign (into a complex pair), so a flip with the same type is another orbit
// (the impact oscillator's (2,2) orbit and its (1,1) orbit run twice, both one multiplier outside).
bool odd_flips(const PeriodicOrbit& orbit);

// The multiplier of `orbit` nearest the unit circle: the one that crosses at a stability change.
std::complex<double> critical_multiplier(const PeriodicOrbit& orbit);

// "period_doubling" (real, near -1), "fold" (real, near +1) or "neimark_sacker" (complex pair), from the
// multiplier of `after` nearest the unit circle; `detail` gets that multiplier. On a symmetric orbit a
// real multiplier through +1 whose half-period multiplier is the one near -1 is "symmetry_breaking"
// (symmetry_breaking_detail).
std::string stability_change_kind(const PeriodicOrbit& after, std::string& detail);

// Whether a symmetric orbit's full-period multiplier nearest +1 is the square of its half-period
// multiplier nearest -1 rather than +1: where it crosses, the symmetry breaks (a pitchfork of the
// full-period map: asymmetric orbits branch off in mirror-image pairs) and the symmetric orbit goes on;
// no fold.
bool breaks_symmetry(const PeriodicOrbit& orbit);
// "pitchfork of the full-period map: half-period multiplier -0.9999 + 0i through -1 (full period
// multiplier 0.9998 + 0i)".
std::string symmetry_breaking_detail(const PeriodicOrbit& orbit, std::complex<double> full_period_multiplier);

// "multiplier a + bi".
std::string describe_multiplier(std::complex<double> mu);

// An orbit known only roughly (PeriodicOrbit::uncertainty beyond 1e-6 in the layout's scales): its
// impacts and mode changes may be those of a state off the orbit, so a change of motion it shows is not
// to be trusted. Events and orbit descriptions say so.
inline constexpr double kUncertainOrbit = 1e-6;
bool uncertain_orbit(const PeriodicOrbit& orbit);
// "known only to about 2.4e-05 (nearly neutral: a state that far off returns within the tolerance)".
std::string describe_uncertainty(const PeriodicOrbit& orbit);

// The orbit type as messages name it: "(1,1) stable", "(1,0) unstable (1 multiplier outside the unit
// circle)" ((periods, impacts) as in the class codes), "(1,0; 4 mode changes) stable" for an orbit
// that changes mode; "..., known only to about ..." when it is uncertain_orbit.
std::string describe_orbit_type(const PeriodicOrbit& orbit);

}  // namespace vibro
