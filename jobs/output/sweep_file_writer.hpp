#pragma once
// One self-describing HDF5 file per sweep; the schema is documented in docs/hdf5_schema.md.
// Written from a case store (the checkpoint logs of a run) a block of cases at a time, so memory
// does not grow with the grid; to a temporary name, renamed at the end, so a crash never leaves a
// half file under the final name.
#include <H5Cpp.h>

#include <map>
#include <string>

#include "jobs/output/unsettled_extension.hpp"
#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// 2: periodicity 3 (quasi-periodic), lyapunov_between_resets, branch admissibility; 3: latest file format,
// fletcher32 on every dataset, fixed-length strings (so every byte that matters is checksummed); 4: /basins
// (basin fractions, basin entropies, global continuation of attractors) and /cases/global_attractor; 5: /parameters
// as scalar datasets with unit and description, /legend (class codes, state units, modes), a unit or
// meaning on every dataset; 6: the grid view at the root (each axis a netCDF dimension, every per-case
// column a virtual dataset shaped like the grid, CF attributes) and /cases/class_index.
inline constexpr int kSchemaVersion = 6;

struct Provenance {
  std::string started_utc, finished_utc;
  int ranks = 1;
  int threads = 1;
  std::string scheduler = "OpenMP dynamic";
  double wall_seconds = 0;
};

// What the file holds, counted while writing it: cases per status ("ok", "failed", ...) and per class.
struct SweepCensus {
  std::map<std::string, long long> statuses, classes;
};

// `cases`: the grid's cases, with those run on (run.extend_unsettled: extend_unsettled_cases, whose
// tally `extension` is) in their place.
SweepCensus write_sweep_file(const std::string& path, const SweepSpec& spec, CaseStore& cases,
                             const Provenance& provenance, const UnsettledExtension& extension = {});

std::string utc_now();

// Root attributes every vibro file has: format, schema and program version, model, sweep file and text.
void write_origin(H5::Group& root, const SweepSpec& spec, const std::string& format);

// /parameters: one scalar dataset per parameter of the model that is not an axis of the sweep, with
// its unit and description (and, for a choice, the accepted names).
void write_fixed_parameters(H5::H5File& file, const SweepSpec& spec);

}  // namespace vibro
