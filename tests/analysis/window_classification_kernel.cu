// Compiled by nvcc alone (ctest window_classification_device_compile, registered where nvcc is found):
// the window classification and its statistics (analysis/window_classification.hpp) over a compact
// sample type in a kernel, each case's window reduced to one result row with a local scratch. It fails
// to compile, warnings included, if a host-only call enters the templates' path.
#include <cstdint>

#include "analysis/window_classification.hpp"

namespace {

// Counters first, then the drift, then four state components: not StrobeSample's layout.
struct CompactSample {
  std::int32_t impacts, sticks;
  double drift;
  double x[4];
};

struct CompactWindow {
  const CompactSample* rows;
  int n;
  __device__ int size() const { return n; }
  __device__ double state(int i, int c) const { return rows[i].x[c]; }
  __device__ double drift(int i) const { return rows[i].drift; }
  __device__ std::int64_t counter(int i, int c) const { return c == 0 ? rows[i].impacts : rows[i].sticks; }
};

struct ResultRow {
  int periodicity, period;
  double velocity, first_half, second_half, impacts_per_orbit;
  std::int64_t sticks_in_window;
};

constexpr int kWindowSamples = 64;  // the scratch's room: windows of up to 63 periods

}  // namespace

__global__ void reduce_windows(const CompactSample* samples, int cases, int window, vibro::WindowRules rules,
                               double period_seconds, ResultRow* rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cases || window > kWindowSamples) return;
  double scratch[kWindowSamples];
  const CompactWindow w{samples + static_cast<long>(i) * window, window};
  const vibro::WindowClass c = vibro::classify_window_of(w, rules, scratch);
  ResultRow r;
  r.periodicity = static_cast<int>(c.periodicity);
  r.period = c.period;
  r.velocity = vibro::window_drift_velocity(w, c.period, period_seconds);
  r.first_half = vibro::window_drift_velocity_half(w, period_seconds, 0);
  r.second_half = vibro::window_drift_velocity_half(w, period_seconds, 1);
  r.impacts_per_orbit = vibro::window_counter_per_orbit(w, c.period, 0);
  r.sticks_in_window = vibro::window_counter_in_window(w, 1);
  rows[i] = r;
}
