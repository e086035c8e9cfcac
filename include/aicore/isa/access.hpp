// The exact bytes an instruction reads and writes, operand by operand (the race checker's
// footprint). isa::footprint() gives one hull per operand, which is right for bounds and port
// traffic but too coarse for hazards: a strided copy leaves gaps another copy may fill, and the
// Cube reads only rows < m, columns < n and k < K of its padded fractals (docs/checking.md).
// Written bytes follow what the semantics layer writes: whole 32-byte ND2NZ blocks (the last one
// zero padded) and whole 16 x 16 L0C fractals for Mmad (docs/decisions.md, partial fractals).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::isa {

struct ByteRange {
  uint64_t begin = 0, end = 0;  // [begin, end)
  uint64_t size() const { return end - begin; }
  friend bool operator==(ByteRange a, ByteRange b) { return a.begin == b.begin && a.end == b.end; }
};

// One operand's bytes in one memory. `ranges` are sorted, disjoint and not adjacent (two
// touching ranges are merged), so a caller walks them once in address order.
struct OperandAccess {
  const char* operand = "";  // the field it comes from: "src", "dst", "fm", "filter", "idx", ...
  Space space = Space::L1;
  uint32_t tensor = 0;  // GM only
  bool write = false;
  bool exact = true;  // false: `ranges` is the hull only (see exact_accesses' gm_reads)
  std::vector<ByteRange> ranges;
  uint64_t bytes() const;
};

// The operands of one instruction, reads before writes (an accumulating Mmad reads L0C, then
// writes it). Reused from instruction to instruction, so steady state allocates nothing.
class AccessList {
 public:
  size_t size() const { return count_; }
  const OperandAccess& operator[](size_t i) const { return ops_[i]; }
  const OperandAccess* begin() const { return ops_.data(); }
  const OperandAccess* end() const { return ops_.data() + count_; }

  void clear() { count_ = 0; }
  // Starts a new operand; add its ranges with append() in any order, then close it with seal().
  void open(const char* operand, Space s, uint32_t tensor, bool write, bool exact = true);
  void append(uint64_t begin, uint64_t end) {  // empty ranges are ignored
    if (begin >= end) return;
    std::vector<ByteRange>& v = ops_[count_ - 1].ranges;
    if (!v.empty()) {
      ByteRange& last = v.back();
      // Most enumerations come in address order: extend the last range in place.
      if (begin >= last.begin && begin <= last.end) {
        if (end > last.end) last.end = end;
        return;
      }
      if (begin < last.begin) sorted_ = false;
    }
    v.push_back(ByteRange{begin, end});
  }
  void seal();  // sorts (only if needed) and coalesces

 private:
  std::array<OperandAccess, 6> ops_{};
  size_t count_ = 0;
  bool sorted_ = true;
};

// Fills `out` with what `op` touches (nothing for no-ops and sync instructions). Call only on an
// op that passed check_fields(). An ND2NZ operand of more than kMaxExactRanges pieces (far beyond
// any real tile) is given as its hull instead, so a degenerate instruction cannot take unbounded
// time or memory.
// With gm_reads = false a GM source is given as its hull (exact = false): a caller that learns
// from the hull alone that it needs nothing more (a tensor nothing writes) skips enumerating
// one range per row.
void exact_accesses(const Op& op, AccessList& out, bool gm_reads = true);

// The L0C unit-flag granules (kUnitFlagBytes each) a Mmad writes or a Fixpipe reads, ascending,
// without repeats; empty for other ops and no-ops. Call only on an op that passed check_fields().
std::vector<uint32_t> unit_flag_granules(const Op& op);
constexpr uint64_t kMaxExactRanges = uint64_t{1} << 20;

}  // namespace aicore::isa
