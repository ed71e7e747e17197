#pragma once
// The HDF5 file of `vibro continue`: one branch of periodic orbits with its stability and the points
// where it changes character (docs/hdf5_schema.md, "Branch files").
#include <string>

#include "analysis/orbit_continuation.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

void write_branch_file(const std::string& path, const SweepSpec& spec, const std::string& parameter, double from,
                       double to, int periods, const Branch& branch);

}  // namespace vibro
