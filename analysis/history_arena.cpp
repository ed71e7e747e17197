#include "analysis/history_arena.hpp"

#include <cstdlib>

#include "engine/core/huge_pages.hpp"

namespace vibro {

HistoryArena::~HistoryArena() { std::free(block_); }

void HistoryArena::reset(std::size_t words) {
  used_.store(0, std::memory_order_relaxed);
  if (words <= size_) return;
  std::free(block_);
  block_ = nullptr;
  size_ = 0;
  const std::size_t bytes = (words * sizeof(double) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  block_ = static_cast<double*>(allocate_on_huge_pages(bytes));
  size_ = bytes / sizeof(double);
}

}  // namespace vibro
