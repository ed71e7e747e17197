#pragma once
// A fixed-length run's window reduced inside the batch (CaseBatch::reduce_held): each case's held
// row becomes one small summary, made where the samples are (on a GPU: by a kernel beside them, so
// that 10^6 cases copy back a summary each instead of a 51-sample window, 6.5 GB), by the model's
// kernel through the same window tests the detector applies (analysis/window_classification.hpp).
// Plain data: made on the device as on the host.
#include <cstddef>
#include <cstdint>

#include "engine/core/class_text.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

inline constexpr int kMaxHeldObservables = 8;
// The largest row a batch holds (CaseBatch::hold_samples), so the most samples a window can have: a
// reduction's scratch is sized by it. A kernel whose Sample is a whole StrobeSample (736 bytes, the
// hybrid-model API's) would hold several times what its detectors' packed histories take (the
// conveyor's 56-sample row: 7 KB).
inline constexpr std::size_t kMaxHeldRowBytes = 16384;
template <class Sample>
constexpr int max_held_samples() {
  return static_cast<int>(kMaxHeldRowBytes / sizeof(Sample));
}

// Which samples of each held row are the window, and the tests' settings (the run's steady-state
// settings, as numbers: the engine knows no detector).
struct HeldWindow {
  int first = 0;    // the window's first sample in the row
  int samples = 0;  // its samples: window periods + 1
  double tol = 0;
  int max_period = 0;
  int quasi_min_window = 0;
  double quasi_tol = 0;
};

// One case's window, reduced: its class and observables as the model's summary makes them, its
// periodicity (the stored value of analysis' Periodicity) and period. The window's first and last
// samples (the counts over it; where the case ended) are read from the row beside it.
struct HeldSummary {
  int periodicity = 0;
  int period = 0;
  ClassText class_code;
  int observable_count = 0;
  double observables[kMaxHeldObservables] = {};
};

}  // namespace vibro
