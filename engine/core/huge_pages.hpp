#pragma once
// Large arrays on huge pages, where the kernel grants them (transparent huge pages in "madvise" mode
// need the hint). On a paravirtualised VM a fresh 4-KB page cost about 17 us to touch first, so a
// 10^5-case group's arrays (some 100 MB) cost a tenth of a second or more a group before any work.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace vibro {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// `bytes` rounded up to whole huge pages, aligned to one and hinted; std::free releases it.
void* allocate_on_huge_pages(std::size_t bytes);

// std::allocator, but arrays of a huge page or more go on huge pages.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT(google-explicit-constructor): rebinding
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return static_cast<T*>(::operator new(bytes));
    return static_cast<T*>(allocate_on_huge_pages(bytes));
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHugePageBytes)
      ::operator delete(p);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

// HugePageAllocator, but an element made without arguments (vector::resize) is left as the memory
// holds it, for arrays of plain data whose elements are all written before they are read: a batch's
// cases, made in place on all threads. Value-initialised, a 10^5-case group's 65 MB were cleared on
// one thread only to be overwritten, and in a batch's first group that pass faulted in its fresh pages.
template <class T>
struct UninitialisedHugePageAllocator : HugePageAllocator<T> {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "only plain data may be left uninitialised");
  UninitialisedHugePageAllocator() = default;
  template <class U>
  UninitialisedHugePageAllocator(const UninitialisedHugePageAllocator<U>&) {}  // NOLINT(google-explicit-constructor): rebinding
  template <class U>
  void construct(U* /*p*/) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace vibro
