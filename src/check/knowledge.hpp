// Happens-before knowledge of one pipe (a vector clock, as race detectors keep): for every pipe R,
// the bound below which all of R's instructions are known to have completed before this pipe's
// next instruction starts, and which sync instruction brought that knowledge here. Sync
// instructions are shared by the bounds they raised through reference-counted records, so the
// checker can tell, once nothing refers to one any more, whether it ever ordered anything.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "refs.hpp"

namespace aicore::check {

// A WaitFlag, PipeBarrier or PIPE_ALL that raised some knowledge.
struct SyncDesc {
  AccessRef ref;
  AccessRef set;         // WaitFlag: the SetFlag it paired with
  isa::Op op;            // for its name in messages (sync_text)
  bool library = false;  // emitted by TPipe/TQue (isa::Origin::Library): never judged unneeded
};

struct SyncUse {
  SyncDesc desc;
  uint32_t refs = 0;
  bool raised = false;    // it raised at least one bound
  bool needed = false;    // an access was ordered only thanks to it
  bool conflict = false;  // an access met a conflict with the pipe it raised, already ordered before
};

class SyncPool {
 public:
  using Judge = std::function<void(const SyncUse&)>;
  explicit SyncPool(Judge judge) : judge_(std::move(judge)) {}
  uint32_t make(SyncDesc desc);
  SyncUse& at(uint32_t slot) { return items_[slot]; }
  void retain(uint32_t slot) { ++items_[slot].refs; }
  void release(uint32_t slot);
  // End of run: judges every record still referred to (if `judge`); later releases judge nothing.
  void close(bool judge);

 private:
  std::vector<SyncUse> items_;
  std::vector<uint32_t> free_;
  Judge judge_;
  bool closed_ = false;
};

// A counted reference to a SyncUse (or none).
class ViaRef {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  ViaRef() = default;
  ViaRef(SyncPool* pool, uint32_t slot) : pool_(pool), slot_(slot) { pool_->retain(slot_); }
  ViaRef(const ViaRef& o) : pool_(o.pool_), slot_(o.slot_) {
    if (slot_ != kNone) pool_->retain(slot_);
  }
  ViaRef& operator=(const ViaRef& o) {
    if (o.slot_ != kNone) o.pool_->retain(o.slot_);
    drop();
    pool_ = o.pool_;
    slot_ = o.slot_;
    return *this;
  }
  ~ViaRef() { drop(); }
  explicit operator bool() const { return slot_ != kNone; }
  SyncUse* operator->() const { return &pool_->at(slot_); }

 private:
  void drop() {
    if (slot_ != kNone) pool_->release(slot_);
    slot_ = kNone;
  }
  SyncPool* pool_ = nullptr;
  uint32_t slot_ = kNone;
};

// What one pipe knows of pipe R: every R instruction with index < `before` has completed.
struct Bound {
  uint64_t before = 0;
  uint64_t prev = 0;  // `before` until `via` raised it (tells whether `via` was needed)
  AccessRef last;     // the last R memory instruction below the bound (for messages)
  ViaRef via;         // the sync that raised it to `before` here
};
using Knowledge = std::array<Bound, isa::kPipeCount>;

// What a SetFlag releases: its pipe's knowledge plus its own pipe's earlier instructions.
struct Known {
  uint64_t before = 0;
  AccessRef last;
};
using Release = std::array<Known, isa::kPipeCount>;

}  // namespace aicore::check
