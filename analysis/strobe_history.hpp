#pragma once
// The newest samples of one case, as the steady-state detector keeps them: a ring of at most
// `capacity` samples, each packed to the words its model fills.
//
// Why: a StrobeSample is 736 bytes (arrays sized for the largest model), of which the conveyor fills
// 17 words and a two-body model 24. A batched sweep keeps 10^5 detectors alive at once, and whole
// samples made their histories gigabytes of fresh memory a group (page faults and memory traffic
// costing several times the launches). Packing is exact: a sample's array entries past the packed
// extents are zero bits, and unpacking restores them as zeros, so every unpacked sample equals the
// sample pushed. The extents grow from the data (an entry that turns non-zero later widens every
// held sample), so no model has to declare them.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/history_arena.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

class StrobeHistory {
 public:
  // min_state, min_counters: extents held from the start (the layout's components and counters, so
  // that reads of those never fall past the packed words). arena: where the words come from while it
  // has room (null: the heap); the history must not be used after the arena's next reset.
  StrobeHistory(int capacity, int min_state, int min_counters, HistoryArena* arena = nullptr);
  // Appends a sample; once `capacity` are held, the oldest is dropped.
  void push(const StrobeSample& sample);
  void clear() {
    head_ = 0;
    size_ = 0;
  }
  int size() const { return size_; }
  // Words its first allocation will take at least (the held extents: more when aux entries are set).
  std::size_t words_at_least() const {
    return static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(kHot + state_ + kCold + counters_);
  }
  int capacity() const { return capacity_; }

  // Sample i, 0 the oldest held. state(i) reads components below the packed state extent (at least
  // min_state); aux reads any index (zero past the extent).
  double time(int i) const { return cold(i)[kTime]; }
  double drift(int i) const { return hot(i)[kDrift]; }
  int mode(int i) const;
  const double* state(int i) const { return hot(i) + kHot; }
  double aux(int i, int a) const { return a < aux_ ? cold(i)[cold_stride_ - aux_ + a] : 0.0; }
  // The whole sample as it was pushed; and samples first, first + 1, ... into `out` (resized).
  StrobeSample sample(int i) const;
  void samples(int first, int count, std::vector<StrobeSample>& out) const;

 private:
  // A sample is two packed records in two arrays: the words the adaptive tests read at every sample
  // (drift position, mode, state[state_]) and the rest (time, period, counters[counters_], aux[aux_];
  // integers stored bit for bit in the doubles' words). Why: the tests' pre-checks read the newest
  // ~17 samples of a case at every period, and a group's histories are far larger than the caches,
  // so the cache lines those reads pull in are what they cost (the conveyor: 5 of 17 words).
  enum HotWord { kDrift, kMode, kHot };
  enum ColdWord { kTime, kPeriod, kCold };

  std::ptrdiff_t slot(int i) const {
    const int slot = head_ + i;
    return slot >= capacity_ ? slot - capacity_ : slot;
  }
  const double* hot(int i) const { return words_ + slot(i) * hot_stride_; }
  const double* cold(int i) const { return words_ + cold_offset() + slot(i) * cold_stride_; }
  std::ptrdiff_t cold_offset() const { return static_cast<std::ptrdiff_t>(capacity_) * hot_stride_; }
  void widen(int state, int counters, int aux);
  void unpack_into_zeroed(int i, StrobeSample& out) const;  // out's arrays are zero

  int capacity_;
  int state_, counters_, aux_ = 0;      // packed extents
  std::ptrdiff_t hot_stride_ = kHot;    // words a record: kHot + state_
  std::ptrdiff_t cold_stride_ = kCold;  // and kCold + counters_ + aux_
  int head_ = 0;                        // slot of the oldest sample
  int size_ = 0;
  // capacity_ hot records, then capacity_ cold ones; allocated at the first push, from the arena or
  // owned_.
  double* words_ = nullptr;
  std::unique_ptr<double[]> owned_;
  HistoryArena* arena_;
};

}  // namespace vibro
