#pragma once
// One self-describing HDF5 file per sweep; the schema is documented in docs/hdf5_schema.md.
// Written to a temporary name and renamed at the end, so a crash never leaves a half file under
// the final name. (Checkpointing and MPI collection build on this in the distributed-sweeps work.)
#include <string>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

inline constexpr int kSchemaVersion = 1;

struct Provenance {
  std::string started_utc, finished_utc;
  int ranks = 1;
  int threads = 1;
  std::string scheduler = "OpenMP dynamic";
};

void write_sweep_file(const std::string& path, const SweepSpec& spec, const SweepRun& run, const Provenance& provenance);

std::string utc_now();

}  // namespace vibro
