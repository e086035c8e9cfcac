// GM accesses of different cores. No instruction orders two cores (the ISA has no cross-core
// flag yet), so any GM byte one core writes and another core reads or writes is a race, whatever
// the order. That makes the check order-free: each core keeps, per byte range, its first writer
// and first reader by program order, and the maps are compared once at the end of the run.
#pragma once
#include <vector>

#include "aicore/isa/access.hpp"
#include "refs.hpp"
#include "report_book.hpp"
#include "strided_map.hpp"

namespace aicore::check {

class CrossCore {
 public:
  CrossCore(uint16_t cores, ReportBook& book) : maps_(cores), book_(book) {}
  // The GM operands of `acc`, accessed by instruction `b` of `core`.
  void record(uint16_t core, const isa::AccessList& acc, const AccessRef& b);
  void finish();

 private:
  struct Cell {
    AccessRef first_write, first_read;
    bool same(const Cell& o) const {
      return first_write.index == o.first_write.index && first_read.index == o.first_read.index;
    }
  };
  using Map = StridedMap<Cell>;  // a tile of rows is one cell
  struct Piece {
    uint64_t lo, hi;
    Cell cell;
  };
  struct Flat {
    bool done = false, writes = false;
    std::vector<Piece> pieces;  // the map's cells in address order
  };
  Flat& flat(uint16_t core, uint32_t tensor);
  void compare(uint32_t tensor, uint16_t c1, const Flat& a, uint16_t c2, const Flat& b);
  void report(uint32_t tensor, bool a_writes, bool b_writes, uint16_t c1, const AccessRef& a, uint16_t c2,
              const AccessRef& b, uint64_t lo, uint64_t hi);

  std::vector<std::vector<Map>> maps_;    // [core][GM tensor]
  std::vector<std::vector<Flat>> flats_;  // [core][GM tensor], made once each by finish()
  ReportBook& book_;
};

}  // namespace aicore::check
