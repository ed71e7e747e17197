#pragma once
// Where a batch's launches leave their kept samples in its sample buffer, on the host side of both
// batches (CpuBatch, CudaBatch): by a case's position in the last launch's live list, the last
// launch's samples only; or held (CaseBatch::hold_samples), one row of `row` samples a case by its
// index in the batch, appended to launch after launch.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "engine/batch/case_batch.hpp"

namespace vibro {

class SampleRowPlan {
 public:
  // Holds rows of `row` samples from the next launch on, if a row fits kMaxHeldRowBytes.
  template <class Sample>
  bool hold(int row) {
    if (row <= 0 || static_cast<std::size_t>(row) * sizeof(Sample) > kMaxHeldRowBytes) return false;
    row_ = static_cast<std::size_t>(row);
    held_ = 0;
    return true;
  }
  // Back to the last launch's samples only (CaseBatch::clear).
  void release() { row_ = held_ = 0; }

  // A launch of `periods` periods, the first `unkept` unsampled, over `live` of the batch's `cases`
  // cases: the buffer's size in samples. `batch` names the batch in the error a launch past the held
  // rows raises (a runner that asked to hold fewer samples than it launches).
  std::size_t begin_launch(int periods, int unkept, std::size_t cases, std::size_t live, const char* batch) {
    kept_ = static_cast<std::size_t>(periods - unkept);
    if (held() && held_ + kept_ > row_) throw std::logic_error(std::string(batch) + ": a launch past the held rows");
    return held() ? cases * row_ : live * kept_;
  }
  // After the launch: its samples belong to the held rows.
  void end_launch() { held_ += held() ? kept_ : 0; }

  bool held() const { return row_ > 0; }
  bool full() const { return held() && held_ == row_; }  // every held row has all its samples
  std::size_t kept() const { return kept_; }              // samples a live case keeps in the last launch
  std::size_t stride() const { return held() ? row_ : kept_; }  // samples from one case's row to the next
  std::size_t held_samples() const { return held_; }      // samples each held row has before the launch under way
  // Row of case `index`, at position `slot` of the last launch's live list: where sample 0 is.
  std::size_t row(std::size_t index, std::size_t slot) const { return (held() ? index : slot) * stride(); }
  // Where the launch under way writes case `index`'s first kept sample.
  std::size_t launch_start(std::size_t index, std::size_t slot) const { return row(index, slot) + held_; }

 private:
  std::size_t kept_ = 0;
  std::size_t row_ = 0;   // > 0: samples held, row_ a case
  std::size_t held_ = 0;  // samples each held row has
};

}  // namespace vibro
