// The unitFlag hand-off between the Cube and Fixpipe of one core (docs/semantics.md, "unitFlag").
// L0C carries one unit flag per 512-byte granule (isa::kUnitFlagBytes). A Mmad with unitFlag=3
// sets the flags of the granules it writes as it produces them; a Fixpipe with unitFlag 2 or 3
// reads each granule only once its flag is set (3 clears it again); a Mmad with unitFlag 2 or 3
// writes a granule only once a Fixpipe with unitFlag=3 has cleared it. No M_FIX / FIX_M flags.
//
// Which instruction a granule waits for follows program order, so it is decided when the scalar
// unit issues (at_issue). The timing comes from the producer's record: its granules become ready
// evenly over [start, busy_end] in address order, and the consumer reads or writes its own
// granules evenly over its own occupancy, so it starts as soon as no granule would be touched
// before its producer is done with it (earliest_start). A wrong hand-off (a Fixpipe with unitFlag
// and no Mmad with unitFlag=3 before it, ...) would hang silicon; here it waits for nothing, and
// the race checker reports it (docs/checking.md).
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::model {

class UnitFlags {
 public:
  explicit UnitFlags(uint64_t l0c_bytes);

  // One granule a consumer waits for: its producer, and where the granule sits in the producer's
  // and the consumer's own order of granules (of `*_count`).
  struct Link {
    uint64_t producer = 0;  // instruction index
    uint32_t producer_pos = 0, producer_count = 1;
    uint32_t pos = 0, count = 1;
  };
  // Issue side, in program order: registers what `in` produces and returns the links it waits on
  // (none for an instruction without unitFlag, or with nothing to wait for).
  const std::vector<Link>& at_issue(const isa::Instruction& in);
  // What the consumer `index` waits on (as at_issue returned it); empty if nothing.
  const std::vector<Link>& links(uint64_t index) const;
  void consumed(uint64_t index);  // the consumer started: forget its links

  // Execution side: a producer's record (start and busy end); whether it is known yet.
  // `known_at`: the cycle its timing is settled, no consumer starts earlier (its start; a GM
  // transfer's: its end, when the bandwidth it shared is known).
  void publish(uint64_t index, uint64_t start, uint64_t busy_end, uint64_t known_at);
  bool known(uint64_t producer) const { return profiles_.count(producer) != 0; }
  bool producer(uint64_t index) const { return refs_.count(index) != 0; }
  sc_core::sc_event& published() { return published_; }

  // The earliest start of a consumer whose first granule access comes `offset` cycles after its
  // start and who spends `duration` cycles on its granules, given that every producer is known.
  uint64_t earliest_start(const std::vector<Link>& links, uint64_t offset, uint64_t duration) const;

 private:
  struct Granule {
    uint64_t setter = kNone, taker = kNone;  // the Mmad that set its flag, the Fixpipe that cleared it
    uint32_t setter_pos = 0, setter_count = 1, taker_pos = 0, taker_count = 1;
  };
  static constexpr uint64_t kNone = UINT64_MAX;
  void ref(uint64_t index) { ++refs_[index]; }
  void unref(uint64_t index);

  std::vector<Granule> granules_;
  std::unordered_map<uint64_t, std::vector<Link>> waits_;  // consumer index -> links
  std::unordered_map<uint64_t, uint32_t> refs_;            // producer index -> granules and links naming it
  struct Profile {
    uint64_t start, busy_end, known_at;
  };
  std::unordered_map<uint64_t, Profile> profiles_;
  std::vector<Link> scratch_;
  sc_core::sc_event published_;
};

}  // namespace aicore::model
