#pragma once
// Memory for many steady-state detectors' histories at once: one block a group of cases, handed out by
// a bump pointer and reused group after group. Why: a batched run at a GPU's group size keeps ~10^5
// detectors alive, and one fresh 7-KB allocation each (a malloc, then first-touch page faults) cost
// more than their tests (adaptive, 10^5 conveyor cases in one group, 2 threads: page faults 12 % and
// malloc 6 % of the run; bench/README.md). The block asks the kernel for huge pages where it can.
#include <atomic>
#include <cstddef>

namespace vibro {

class HistoryArena {
 public:
  HistoryArena() = default;
  ~HistoryArena();
  HistoryArena(const HistoryArena&) = delete;
  HistoryArena& operator=(const HistoryArena&) = delete;
  // Room for `words` doubles (a larger block is kept), all of it free again: no history taken from
  // the arena may be used after this.
  void reset(std::size_t words);
  // `words` doubles, or nullptr when the block is spent (the caller then allocates its own).
  // Thread-safe.
  double* take(std::size_t words) {
    const std::size_t at = used_.fetch_add(words, std::memory_order_relaxed);
    return at + words <= size_ ? block_ + at : nullptr;
  }

 private:
  double* block_ = nullptr;
  std::size_t size_ = 0;
  std::atomic<std::size_t> used_{0};
};

}  // namespace vibro
