#pragma once
// The HDF5 file of `vibro continue --curve`: the curve in two parameters along which a branch's grazing,
// period doubling or fold persists, with the orbit at each point (docs/hdf5_schema.md, "Curve files").
#include <string>

#include "analysis/codim1_curve.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

inline constexpr int kCurveSchemaVersion = 1;

// `spec` the sweep file the branch started from; /parameters holds its values with the curve's two
// parameters at the curve's first point.
void write_curve_file(const std::string& path, const SweepSpec& spec, int periods, const Curve& curve);

}  // namespace vibro
