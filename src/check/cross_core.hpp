// GM accesses of different cores. The only instruction that orders two cores is SyncAll: every
// core's n-th SyncAll waits for every other core's n-th, after its own pipes drained. So a GM
// access of one core is ordered with one of another core iff a different number of SyncAlls
// precedes them in their programs (their *epochs* differ). Within one epoch, any GM byte one
// core writes and another reads or writes is a race, whatever the order — except atomic adds
// (SetAtomicAdd) of one element type, which the memory side serialises. That keeps the check
// order-free: each core keeps, per epoch and byte range, its first writer, atomic writer and
// reader by program order, and the maps are compared once at the end of the run.
#pragma once
#include <vector>

#include "aicore/isa/access.hpp"
#include "refs.hpp"
#include "report_book.hpp"
#include "strided_map.hpp"

namespace aicore::check {

// What the cross-core check knows of a GM access besides its bytes: decided in program order.
struct CrossTag {
  uint32_t epoch = 0;  // SyncAlls before it in its core's program
  uint8_t atomic = 0;  // 0: plain writes; else 1 + the isa::DType SetAtomicAdd named
  static uint8_t atomic_of(isa::DType t) { return static_cast<uint8_t>(1 + static_cast<uint8_t>(t)); }
};

class CrossCore {
 public:
  CrossCore(uint16_t cores, ReportBook& book) : maps_(cores), book_(book) {}
  // The GM operands of `acc`, accessed by instruction `b` of `core`; `out` is what a write
  // writes (a Fixpipe's output type), for the fix text.
  void record(uint16_t core, const isa::AccessList& acc, const AccessRef& b, const CrossTag& tag,
              isa::DType out = isa::DType::Int32);
  void finish();

 private:
  struct Cell {
    AccessRef first_write, first_atomic, first_read;
    uint8_t atomic_types = 0;  // bit per isa::DType added atomically
    uint8_t write_type = 0;    // isa::DType of first_write
    // Bytes only read merge whatever instruction read them first: a core's reads of an input it
    // never writes would otherwise keep a cell per instruction (memory growing with the kernel);
    // a report then names the first reader of the merged range, one that read some of its bytes.
    bool same(const Cell& o) const {
      const bool reads_only =
          !first_write.valid() && !first_atomic.valid() && first_read.valid() && o.first_read.valid();
      return first_write.index == o.first_write.index && first_atomic.index == o.first_atomic.index &&
             (first_read.index == o.first_read.index || reads_only) && atomic_types == o.atomic_types;
    }
  };
  using Map = StridedMap<Cell>;    // a tile of rows is one cell
  using Epoch = std::vector<Map>;  // [GM tensor]
  struct Piece {
    uint64_t lo, hi;
    Cell cell;
  };
  struct Flat {
    bool done = false, writes = false;  // writes: some cell has a plain or atomic writer
    std::vector<Piece> pieces;          // the map's cells in address order
  };
  Flat& flat(uint16_t core, uint32_t epoch, uint32_t tensor);
  void compare(uint32_t tensor, uint16_t c1, const Flat& a, uint16_t c2, const Flat& b);
  void compare(uint32_t tensor, uint16_t c1, const Cell& x, uint16_t c2, const Cell& y, uint64_t lo,
               uint64_t hi);
  enum class Cure : uint8_t { SyncAll, Atomic, AtomicType };
  void report(uint32_t tensor, bool a_writes, bool b_writes, uint16_t c1, const AccessRef& a, uint16_t c2,
              const AccessRef& b, uint64_t lo, uint64_t hi, Cure fix, isa::DType type);

  std::vector<std::vector<Epoch>> maps_;  // [core][epoch][GM tensor]
  // [core][epoch][GM tensor], each made once by finish(): 24 cores are 276 pairs.
  std::vector<std::vector<std::vector<Flat>>> flats_;
  uint32_t epoch_ = 0;  // the epoch finish() compares
  ReportBook& book_;
};

}  // namespace aicore::check
