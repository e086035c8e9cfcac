// An allocator for large, randomly indexed host arrays (the L2 model's tag store: 393k ways of
// 192 MiB, about 19 MB). On 4 KiB pages nearly every lookup of such an array also misses the
// host's TLB; asking the kernel for 2 MiB pages (transparent huge pages, madvise) removes most of
// those walks. Small arrays, and hosts that refuse, get ordinary memory: only speed differs.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace aicore::model {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= kHuge) {
      const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
      p = std::aligned_alloc(kHuge, rounded);
      if (p) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
    } else {
      p = std::malloc(bytes ? bytes : 1);
    }
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }
};

template <class T, class U>
bool operator==(const HugePageAllocator<T>&, const HugePageAllocator<U>&) {
  return true;
}
template <class T, class U>
bool operator!=(const HugePageAllocator<T>&, const HugePageAllocator<U>&) {
  return false;
}

}  // namespace aicore::model
