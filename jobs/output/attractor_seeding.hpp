#pragma once
// Seeding of global continuation (analysis.seed_from_previous), after the seeding of Datseris, Rossi
// and Wagemakers, "Framework for global stability analysis of dynamical systems", Chaos 33 (2023): the
// grid of initial conditions misses an attractor whose basin has shrunk below its resolution, so each
// point is also run once from a state on every attractor found at its neighbours along the axis: the
// point before it and (analysis.seed_directions = both) the point after it, as if the axis were swept
// forward and backward. A seed that reaches an attractor the point lacks adds it with no cases (basin
// fraction 0: seeds are no sample of the basins); it seeds that point's neighbours in the next round,
// until a round adds none. Both directions add to the same points, so one matching pass over them
// gives one labelling.
//
// Runs when the file is written, after every rank's grid is in, over the writing rank's threads: each
// seed case depends only on the gathered results, so the answer does not depend on ranks or threads.
// Seeds are few (attractors x points) beside the grid and are not checkpointed (recomputed on resume).
#include "jobs/output/sweep_attractors.hpp"

namespace vibro {

struct SeedTally {
  long long cases = 0;      // seed cases run
  long long found = 0;      // attractors only seeds reached
  int rounds = 0;
};

// Adds the attractors only seeds reach to attractors.points (labels after the grid's, cases 0).
SeedTally seed_from_previous_points(const SweepSpec& spec, CaseStore& cases, SweepAttractors& attractors);

}  // namespace vibro
