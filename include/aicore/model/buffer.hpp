// An on-chip buffer of one core (L1, L0A, L0B, the sparse index buffer, L0C): its storage
// (none in --timing-only runs) and its ports. Each bank has a read port and a write port; a
// transfer holds the port of every bank its bytes touch for its whole duration. A port that
// more than one pipe uses (L0C's read port: accumulating Mmads and Fixpipe) keeps a Calendar,
// so requests from pipes that run ahead of each other are answered in simulated time; a port
// with a single in-order user can never be contended and books nothing.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "aicore/isa/types.hpp"
#include "aicore/model/calendar.hpp"
#include "aicore/model/dispatch.hpp"

namespace aicore::model {

struct BufferParams {
  isa::Space space = isa::Space::L1;
  uint64_t bytes = 0;
  uint32_t banks = 1;
  bool allocate = true;  // false in --timing-only runs
};

class Buffer {
 public:
  explicit Buffer(const BufferParams& p);

  isa::Space space() const { return params_.space; }
  uint64_t size() const { return params_.bytes; }
  uint8_t* data() { return storage_.empty() ? nullptr : storage_.data(); }

  // Elaboration: `user` (a pipe's engine) reads or writes this buffer.
  void add_user(bool write, const TimeSource* user);
  // The calendars of the banks [begin, end) touches on one port, appended to `out`; none when
  // the port has a single user.
  void calendars(bool write, uint64_t begin, uint64_t end, std::vector<Calendar*>& out);
  // After a booking: drop what no user can still conflict with.
  void forget_old();
  // Whether a user of this port other than `self` may still ask for a cycle before t (its
  // horizon is below t): then `self` must ask in time order.
  bool sharer_before(bool write, const TimeSource* self, uint64_t t) const;

  uint64_t bytes_read() const { return read_; }
  uint64_t bytes_written() const { return written_; }
  void count(bool write, uint64_t bytes) { (write ? written_ : read_) += bytes; }

 private:
  struct Port {
    std::vector<const TimeSource*> users;
    std::vector<Calendar> banks;  // empty while it has a single user
  };
  BufferParams params_;
  uint64_t bank_bytes_;
  std::vector<uint8_t> storage_;
  Port ports_[2];  // [0] read, [1] write
  uint64_t read_ = 0, written_ = 0;
  uint32_t bookings_ = 0;
};

}  // namespace aicore::model
