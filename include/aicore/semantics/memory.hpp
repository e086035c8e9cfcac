// The bytes the semantics functions operate on: one contiguous span per on-chip memory and
// one per declared GM tensor. The owner (the model's buffers, or a test) keeps the storage;
// this is only a view, so semantics stays free of SystemC and of allocation.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "aicore/isa/check.hpp"

namespace aicore::sem {

class MemoryView {
 public:
  // Attach an on-chip memory (any Space except GM).
  void attach(isa::Space s, uint8_t* data, uint64_t size);
  // Attach GM tensor number `tensor` (tensor ids are dense, in declaration order).
  void attach_gm(uint32_t tensor, uint8_t* data, uint64_t size);

  const isa::Limits& limits() const { return limits_; }
  // Pointer to the first byte of an extent that isa::check has already validated.
  uint8_t* ptr(isa::Space s, uint32_t tensor, uint64_t offset) const;
  uint8_t* ptr(const isa::Addr& a) const { return ptr(a.space, a.tensor, a.offset); }

 private:
  std::array<uint8_t*, isa::kSpaceCount> base_{};
  std::vector<uint8_t*> gm_;
  isa::Limits limits_;
};

}  // namespace aicore::sem
