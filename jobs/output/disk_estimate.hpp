#pragma once
// The disk space a sweep will need (its checkpoint logs and the HDF5 file, which coexist until the
// file is written), checked against the output folder's free space before the first case: a full
// disk found after hours of computing loses the run.
#include <string>

#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

struct DiskEstimate {
  double checkpoint_bytes = 0;  // all ranks' logs together
  double output_bytes = 0;      // the HDF5 file
  double total() const { return checkpoint_bytes + output_bytes; }
};

// From a result record of the size a case of this sweep stores (its model's observables and
// counters, the averaging window's stroboscopic points, the extras asked for).
DiskEstimate estimate_disk_use(const SweepSpec& spec);

// Free bytes for an unprivileged user in the folder that holds `path` (statvfs); negative when
// unknown.
double free_bytes_for(const std::string& path);

// Throws InputError naming output.file, the estimate and the free space when `free_bytes` (plus
// what earlier checkpoint logs of this sweep already hold) is short of the estimate.
void check_disk_space(const SweepSpec& spec, double free_bytes, double existing_checkpoint_bytes = 0);
// The same with the output folder's free space and the sweep's checkpoint logs on disk.
void check_disk_space(const SweepSpec& spec);

}  // namespace vibro
