#pragma once
// The cases of a batch that still advance: retired ones leave at the next compaction, so a launch
// steps only cases that go on (the CPU and GPU batches share this bookkeeping).
#include <cstddef>
#include <vector>

namespace vibro {

class LiveSet {
 public:
  void add(int i) {
    live_.push_back(i);
    retired_.push_back(0);
  }
  void clear() {
    live_.clear();
    retired_.clear();
  }
  void retire(int i) { retired_[static_cast<std::size_t>(i)] = 1; }  // safe from several threads at once
  int live() const {
    int count = 0;
    for (const int i : live_) count += retired_[static_cast<std::size_t>(i)] ? 0 : 1;
    return count;
  }
  // Drops the retired cases; returns the live ones in order (position = row of the sample buffer).
  const std::vector<int>& compact() {
    std::size_t kept = 0;
    for (const int i : live_)
      if (!retired_[static_cast<std::size_t>(i)]) live_[kept++] = i;
    live_.resize(kept);
    return live_;
  }

 private:
  std::vector<int> live_;
  std::vector<char> retired_;
};

}  // namespace vibro
