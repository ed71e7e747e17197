#include "analysis/history_arena.hpp"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vibro {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

HistoryArena::~HistoryArena() { std::free(block_); }

void HistoryArena::reset(std::size_t words) {
  used_.store(0, std::memory_order_relaxed);
  if (words <= size_) return;
  std::free(block_);
  block_ = nullptr;
  size_ = 0;
  const std::size_t bytes = (words * sizeof(double) + kHugePage - 1) / kHugePage * kHugePage;
  void* block = std::aligned_alloc(kHugePage, bytes);
  if (!block) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(block, bytes, MADV_HUGEPAGE);  // a hint: where the kernel declines, small pages do
#endif
  block_ = static_cast<double*>(block);
  size_ = bytes / sizeof(double);
}

}  // namespace vibro
