#pragma once
// Symmetric periodic orbits of a case with a half-period symmetry S: (x, t) -> (R x, t + T/2)
// (engine/core/half_period_symmetry.hpp), solved as fixed points of G = S o P_{kT/2} (k odd), the
// half-period map followed by the mirror. The full-period map is P^k = G o G, so where P^k has a
// multiplier 1 - eps in the direction that breaks the symmetry, G has one near -1 there: P^k - I is
// nearly singular (Newton on it accepts states up to |P^k(x) - x| / eps off the orbit, and the map's own
// error moves its fixed point as far), G - I is not (its eigenvalue there is near -2). A symmetric orbit
// is then found to the tolerance, and the symmetry breaking (G's multiplier through -1, a pitchfork of
// P^k) is an event of its own (analysis/branch_character: breaks_symmetry).
#include "analysis/periodic_shooting.hpp"
#include "engine/core/half_period_symmetry.hpp"

namespace vibro {

// G as a fixed-point map: `half`'s map over k half periods, then its mirror (the state R x, the mode's
// image, the Jacobian R M_half).
FixedPointMap mirrored_half_period_map(HalfPeriodMap& half, int periods);

// shoot_periodic_orbit where the case is symmetric and k odd. Symmetric: Newton on G alone. Unknown:
// Newton on P^k first; its point is taken as the symmetric orbit's when G has a fixed point within
// twice its uncertainty (the full-period shot cannot tell them apart), and G's fixed point is taken
// where P^k's Newton fails. Every fixed point of G is checked on P^k: a declared symmetry the
// equations do not have leaves G's fixed points off the flow's orbits, and the shot says so.
PeriodicOrbit shoot_with_symmetry(Simulation& simulation, HalfPeriodMap& half, const StrobeSample& guess, int periods,
                                  const ShootingSettings& settings, OrbitSymmetry expected);

}  // namespace vibro
