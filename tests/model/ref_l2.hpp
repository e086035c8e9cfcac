// The reference schedule's own L2 and GM address map (reference.hpp), written apart from
// model/l2_cache.cpp and model/global_memory.cpp as plainly as possible: a set is a list of
// lines in use order (front = most recent), and the bytes an instruction moves are enumerated
// from its fields row by row. Only the documented rules are shared with the model
// (docs/decisions.md, "L2 and HBM"): 2 MiB-aligned tensors in declaration order, the set hash,
// LRU, sectors, write-back with write-allocate and no fill, and "shared" = another core's read of
// the line still running.
#pragma once
#include <cstdint>
#include <list>
#include <set>
#include <utility>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"

namespace ref {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;  // [begin, end) chip addresses

// Chip address of each tensor: declaration order, each from the next 2 MiB boundary.
std::vector<uint64_t> tensor_bases(const std::vector<uint64_t>& tensor_bytes);

// The GM bytes a DataCopy, DataCopyNd2Nz or Fixpipe moves, as its contiguous runs of chip
// addresses in address order (rows that touch are one run).
Ranges gm_ranges(const aicore::isa::Op& op, const std::vector<uint64_t>& bases);

class PlainL2 {
 public:
  struct Found {
    uint64_t lines = 0, hits = 0, misses = 0, shared = 0, hbm_bytes = 0;
  };
  explicit PlainL2(const aicore::config::L2& cfg);
  Found access(const Ranges& ranges, bool write, int core, uint64_t now, uint64_t until);

 private:
  struct Line {
    uint64_t line = 0;
    std::set<uint64_t> valid, dirty;  // sector numbers
    int reader = -1;
    uint64_t until = 0;
  };
  void touch(uint64_t line, const std::set<uint64_t>& sectors, bool write, int core, uint64_t now,
             uint64_t until, Found& f);
  aicore::config::L2 cfg_;
  std::vector<std::list<Line>> sets_;
};

}  // namespace ref
