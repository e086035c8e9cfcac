// A zero-filled array for large, randomly indexed host data (the L2 model's tag store: 393k ways
// of 192 MiB, about 19 MB), taken straight from the kernel with mmap:
// - its pages are zero until first written, so the array is never filled by hand and a run pays
//   only for the pages it touches (a short trace touches a few of the 19 MB; filling them all
//   cost every run about 5 ms);
// - on 4 KiB pages nearly every lookup of such an array also misses the host's TLB; asking for
//   2 MiB pages (transparent huge pages, madvise) removes most of those walks.
// Hosts that refuse huge pages give ordinary ones, and a failed mmap falls back to calloc: only
// speed differs. T must be trivially copyable with all-zero bytes as its initial value.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace aicore::model {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "the pages start as zero bytes");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t n) : n_(n) {
    bytes_ = n * sizeof(T);
    if (bytes_ == 0) return;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      p = std::calloc(n, sizeof(T));
      if (!p) throw std::bad_alloc();
      mapped_ = false;
    } else {
      madvise(p, bytes_, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
    }
    data_ = static_cast<T*>(p);
  }
  ~ZeroedArray() { release(); }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ZeroedArray(ZeroedArray&& o) noexcept { *this = std::move(o); }
  ZeroedArray& operator=(ZeroedArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_, n_ = o.n_, bytes_ = o.bytes_, mapped_ = o.mapped_;
      o.data_ = nullptr, o.n_ = 0, o.bytes_ = 0;
    }
    return *this;
  }

  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return n_; }

 private:
  void release() {
    if (!data_) return;
    if (mapped_)
      munmap(data_, bytes_);
    else
      std::free(data_);
    data_ = nullptr;
  }

  T* data_ = nullptr;
  size_t n_ = 0, bytes_ = 0;
  bool mapped_ = true;
};

}  // namespace aicore::model
