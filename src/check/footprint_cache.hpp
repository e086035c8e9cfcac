// The exact footprints of recent instructions, by value. A tiled kernel repeats the same
// on-chip instructions (the same LoadData, Mmad) every tile, and enumerating a footprint and
// validating its fields costs more than comparing the instruction's fields, so the checker
// looks the instruction up here first.
#pragma once
#include <array>
#include <cstdint>

#include "aicore/isa/access.hpp"

namespace aicore::check {

class FootprintCache {
 public:
  explicit FootprintCache(bool gm_reads) : gm_reads_(gm_reads) {}
  // exact_accesses(op, ..., gm_reads) of a memory op, or nullptr if check_fields rejects it
  // (the model faults there). Valid until the next call.
  // `hash` (if given) gets hash_op(op).
  const isa::AccessList* get(const isa::Op& op, uint64_t* hash = nullptr);

 private:
  struct Entry {
    bool used = false, ok = false;
    isa::Op op;
    isa::AccessList acc;
  };
  static constexpr size_t kEntries = 256;  // a power of two: a few tiles' distinct instructions
  bool gm_reads_;
  std::array<Entry, kEntries> entries_{};
};

// Field-by-field equality and hash of two ops (no padding bytes involved).
bool same_op(const isa::Op& a, const isa::Op& b);
uint64_t hash_op(const isa::Op& op);

}  // namespace aicore::check
