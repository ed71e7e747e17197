#pragma once
// /basins of a sweep file: per parameter point its attractors with their basin fractions (standard
// error, basin stability), its basin entropy and boundary basin entropy, and with global
// continuation the attractors' global ids and the events between points (docs/hdf5_schema.md).
#include <H5Cpp.h>

#include "jobs/output/attractor_seeding.hpp"
#include "jobs/output/sweep_attractors.hpp"
#include "jobs/output/sweep_continuation.hpp"
#include "jobs/output/unsettled_extension.hpp"

namespace vibro {

// Written only for sweeps with initial-condition axes or global continuation (otherwise every point
// is one case and there is no basin to measure).
bool has_basins(const SweepSpec& spec, const SweepAttractors& attractors);
void write_basins(H5::H5File& file, const SweepSpec& spec, const SweepAttractors& attractors,
                  const SweepContinuation& continuation, const SeedTally& seeds = {},
                  const UnsettledExtension& extension = {});

}  // namespace vibro
