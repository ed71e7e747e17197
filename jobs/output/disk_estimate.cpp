#include "jobs/output/disk_estimate.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/output/checkpoint_log.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

namespace {

// The layout of the sweep's base case; the largest a layout can be when the base case cannot start.
StrobeLayout base_layout(const SweepSpec& spec) {
  try {
    return spec.model->start(spec.base)->layout();
  } catch (const std::exception&) {
    StrobeLayout layout;
    layout.state_names.assign(kMaxStrobeDims, "");
    layout.counter_names.assign(kMaxCounters, "");
    return layout;
  }
}

// A result of the size a case of this sweep stores when it runs to its budget.
CaseResult full_size_result(const SweepSpec& spec, const StrobeLayout& layout) {
  const auto dims = static_cast<std::size_t>(layout.dims());
  CaseResult r;
  r.status = CaseStatus::Ok;
  r.class_code = "P16";
  r.observables.resize(spec.model->observables().size());
  r.counters.resize(layout.counter_names.size());
  r.window_counters.resize(layout.counter_names.size());
  // The whole window, with output.strobe_points = orbit too: a case without a period keeps it.
  if (spec.record_strobe()) r.strobe.resize(static_cast<std::size_t>(spec.steady.window_periods) + 1);
  // Non-zero where the layout has entries: a record stores a sample's arrays up to their last
  // non-zero entry (case_result_codec), so zeros would estimate too little.
  for (auto& point : r.strobe) std::fill_n(point.state.begin(), dims, 1.0);
  r.has_final_state = spec.keeps_final_states();  // the log keeps it only then
  std::fill_n(r.final_state.state.begin(), dims, 1.0);
  std::fill_n(r.final_state.counters.begin(), layout.counter_names.size(), 1);
  if (spec.floquet) r.floquet.resize(dims);
  if (spec.lyapunov_periods > 0) r.lyapunov.resize(dims);
  return r;
}

// HDF5 bytes of one case: the fixed columns (status, class, periods, timings, label: about 64
// bytes), observables, both counter tables, the window's points (state, drift, mode) and offsets,
// and the extras' columns.
double output_bytes_per_case(const CaseResult& r, std::size_t dims) {
  double bytes = 64 + 8.0 * static_cast<double>(r.observables.size() + r.counters.size() + r.window_counters.size());
  bytes += static_cast<double>(r.strobe.size()) * (8.0 * static_cast<double>(dims) + 9) + 8;
  bytes += 16.0 * static_cast<double>(r.floquet.size()) + 8.0 * static_cast<double>(r.lyapunov.size());
  return bytes;
}

}  // namespace

DiskEstimate estimate_disk_use(const SweepSpec& spec) {
  const StrobeLayout layout = base_layout(spec);
  const CaseResult typical = full_size_result(spec, layout);
  std::vector<char> record;
  encode_case(0, typical, record);
  const auto cases = static_cast<double>(spec.case_count());
  DiskEstimate estimate;
  estimate.checkpoint_bytes = cases * static_cast<double>(record.size());
  estimate.output_bytes = cases * output_bytes_per_case(typical, static_cast<std::size_t>(layout.dims()));
  return estimate;
}

double free_bytes_for(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct statvfs fs {};
  if (statvfs(folder.c_str(), &fs) != 0) return -1;
  return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
}

void check_disk_space(const SweepSpec& spec, double free_bytes, double existing_checkpoint_bytes) {
  if (free_bytes < 0) return;  // unknown: nothing to compare with
  const DiskEstimate estimate = estimate_disk_use(spec);
  const double needed = estimate.total() - existing_checkpoint_bytes;
  if (needed <= free_bytes) return;
  std::ostringstream out;
  out.precision(3);
  out << "output.file = '" << spec.output_file << "': the sweep needs about " << needed / 1e9 << " GB of disk ("
      << spec.case_count() << " cases: " << estimate.checkpoint_bytes / 1e9 << " GB of checkpoint logs and "
      << estimate.output_bytes / 1e9 << " GB of HDF5 file";
  if (existing_checkpoint_bytes > 0) out << ", less " << existing_checkpoint_bytes / 1e9 << " GB already in checkpoints";
  out << "), but its folder has " << free_bytes / 1e9
      << " GB free: write elsewhere, use fewer cases or a shorter run.window_periods, or output.strobe_points = none";
  throw InputError(out.str());
}

void check_disk_space(const SweepSpec& spec) {
  double existing = 0;
  for (const auto& log : checkpoint_files(spec.output_file)) {
    std::error_code error;
    const auto size = std::filesystem::file_size(log, error);
    if (!error) existing += static_cast<double>(size);
  }
  check_disk_space(spec, free_bytes_for(spec.output_file), existing);
}

}  // namespace vibro
