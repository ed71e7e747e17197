#include "engine/core/huge_pages.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vibro {

void* allocate_on_huge_pages(std::size_t bytes) {
  bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* block = std::aligned_alloc(kHugePageBytes, bytes);
  if (!block) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(block, bytes, MADV_HUGEPAGE);  // a hint: where the kernel declines, small pages do
#endif
  return block;
}

}  // namespace vibro
