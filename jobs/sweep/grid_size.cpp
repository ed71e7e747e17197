#include "jobs/sweep/grid_size.hpp"

#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

namespace {

constexpr double kMaxGridBytes = 16e9;
// Per case: the checkpoint index (8 bytes), the attractor label (4) and the done flags, rounded up.
constexpr double kBytesPerCase = 16;
// A continuation sweep keeps a final state per resumed case (a hash-map node around a sample).
constexpr double kContinuationBytesPerCase = sizeof(StrobeSample) + 64;
// Per axis value: the values, their copies while the grid is ordered, and their text in the
// provenance and the checkpoint fingerprint.
constexpr double kBytesPerAxisValue = 64;

}  // namespace

GridEstimate estimate_grid(const std::vector<AxisPlan>& axes, bool continuation) {
  GridEstimate estimate;
  double values = 0;
  for (const auto& axis : axes) {
    estimate.cases *= static_cast<double>(axis.count);
    values += static_cast<double>(axis.count);
  }
  const double per_case = kBytesPerCase + (continuation ? kContinuationBytesPerCase : 0);
  estimate.bytes = estimate.cases * per_case + values * kBytesPerAxisValue;
  return estimate;
}

void check_grid_size(const std::vector<AxisPlan>& axes, bool continuation, double memory_limit_bytes) {
  const GridEstimate estimate = estimate_grid(axes, continuation);
  if (estimate.bytes <= memory_limit_bytes) return;
  std::ostringstream out;
  out << "the grid ";
  for (std::size_t a = 0; a < axes.size(); ++a)
    out << (a ? " x " : "") << "axes." << axes[a].name << " (" << axes[a].count << " values)";
  out << " has " << estimate.cases << " cases and needs about " << estimate.bytes / 1e9
      << " GB of memory per rank, more than the " << memory_limit_bytes / 1e9
      << " GB limit (half the physical memory, at most " << kMaxGridBytes / 1e9
      << " GB): use fewer axis values or split the sweep";
  throw InputError(out.str());
}

double grid_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return kMaxGridBytes;
  return std::min(kMaxGridBytes, 0.5 * static_cast<double>(pages) * static_cast<double>(page));
}

}  // namespace vibro
