#include "aicore/semantics/memory.hpp"

namespace aicore::sem {

void MemoryView::attach(isa::Space s, uint8_t* data, uint64_t size) {
  base_[static_cast<size_t>(s)] = data;
  limits_.space_bytes[static_cast<size_t>(s)] = size;
}

void MemoryView::attach_gm(uint32_t tensor, uint8_t* data, uint64_t size) {
  if (gm_.size() <= tensor) {
    gm_.resize(tensor + 1, nullptr);
    limits_.gm_tensor_bytes.resize(tensor + 1, 0);
  }
  gm_[tensor] = data;
  limits_.gm_tensor_bytes[tensor] = size;
}

uint8_t* MemoryView::ptr(isa::Space s, uint32_t tensor, uint64_t offset) const {
  uint8_t* base = s == isa::Space::GM ? gm_[tensor] : base_[static_cast<size_t>(s)];
  return base + offset;
}

}  // namespace aicore::sem
