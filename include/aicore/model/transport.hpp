// How engines and memories talk over TLM-2.0. A transaction carries the timing of one
// access (command, encoded address, length); the bytes themselves move through DMI pointers
// and the semantics layer, so a --timing-only run sends the same transactions with no data.
#pragma once
#include <tlm>

#include "aicore/isa/types.hpp"

namespace aicore::model {

// Address = space (bits 56..63) | GM tensor (bits 40..55) | byte offset (bits 0..39).
inline uint64_t encode_address(isa::Space s, uint32_t tensor, uint64_t offset) {
  return uint64_t{static_cast<uint8_t>(s)} << 56 | uint64_t{tensor & 0xffffu} << 40 |
         (offset & ((uint64_t{1} << 40) - 1));
}
inline isa::Space address_space(uint64_t a) {
  return static_cast<isa::Space>(a >> 56);
}
inline uint32_t address_tensor(uint64_t a) {
  return static_cast<uint32_t>((a >> 40) & 0xffffu);
}
inline uint64_t address_offset(uint64_t a) {
  return a & ((uint64_t{1} << 40) - 1);
}

// The access's timing: the cycle it starts (engines run ahead of SystemC time, so this is
// their local time, possibly later than sc_time_stamp()) and the initiator's own transfer time
// (its path's occupancy). A memory port without a bandwidth of its own is held that long; one
// with a bandwidth (GM) uses the larger of the two. On return, the b_transport delay is when
// the port finished, counted from start_cycle.
struct PathExtension : tlm::tlm_extension<PathExtension> {
  uint64_t path_cycles = 0;
  uint64_t start_cycle = 0;
  tlm::tlm_extension_base* clone() const override { return new PathExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    path_cycles = static_cast<const PathExtension&>(e).path_cycles;
    start_cycle = static_cast<const PathExtension&>(e).start_cycle;
  }
};

}  // namespace aicore::model
