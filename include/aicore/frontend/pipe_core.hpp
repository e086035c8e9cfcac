// The state machines behind Ascend C's TPipe, TQue/TQueBind and TBuf, reproducing the flags the
// real library emits on arch 2201 (docs/ascendc.md, "What TPipe and TQue emit"):
//   TPipe()       allocates M_MTE1 ids 0, 1, 2 and sets each (kept for the whole kernel)
//   InitBuffer    carves `num` buffers of `len` (rounded up to 32 B) from the pool's top; no flags
//   AllocTensor   takes the next FREE buffer round-robin; if its FreeTensor left an id:
//                 WaitFlag<freeEvt>(id), id released
//   EnQue         id = lowest free id of enqueEvt; SetFlag<enqueEvt>(id)
//   DeQue         the oldest enqueued buffer; WaitFlag<enqueEvt>(its id), id released
//   FreeTensor    id = lowest free id of freeEvt; SetFlag<freeEvt>(id); the buffer is FREE
//   Destroy/~     WaitFlag<freeEvt>(id) for every buffer holding a free id (InitBuffer order),
//                 WaitFlag<M_MTE1>(0, 1, 2), PipeBarrier<PIPE_ALL>
// Each HardEvent has 8 ids; misuse (DeQue of an empty queue, EnQue past the depth, AllocTensor
// with every buffer in use, a ninth id, a second TPipe, a pool overflow) is a KernelError.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "aicore/frontend/call_site.hpp"
#include "aicore/isa/instructions.hpp"
#include "ascendc/detail/enums.hpp"

namespace aicore::frontend {

// A HardEvent the queues use: its enumerator (the id pool) and the pipes it joins.
struct QueueEvent {
  AscendC::HardEvent event = AscendC::HardEvent::MAX;
  isa::EventPair pair;
};

class QueueCore;

enum class BufferState : uint8_t { Free, Occupied, Enqueued, Dequeued };

// One buffer carved by InitBuffer. LocalTensors of a queue point at it (their "buffer handle").
struct BufferSlot {
  AscendC::TPosition pos = AscendC::TPosition::MAX;  // of the tensors handed out
  uint32_t addr = 0, len = 0;                        // bytes in the position's buffer
  BufferState state = BufferState::Free;
  int8_t enque_id = -1, free_id = -1;  // ids held by the last EnQue / FreeTensor (-1 = none)
  QueueEvent free_event;               // FreeTensor's event (none for TBuf)
  const QueueCore* queue = nullptr;    // null for a TBuf
};

class PipeCore {
 public:
  // The kernel's TPipe: a second live one is a KernelError. Sets M_MTE1 0, 1, 2.
  explicit PipeCore(CallSite site);
  ~PipeCore();
  PipeCore(const PipeCore&) = delete;
  PipeCore& operator=(const PipeCore&) = delete;

  static PipeCore* current();
  // Drains as described above; later calls do nothing.
  void destroy(CallSite site);

  // `num` buffers of `len` bytes (rounded up to 32) for q, from `pool`.
  void init_queue(QueueCore& q, uint32_t num, uint32_t len, CallSite site);
  // One buffer, no flags (TBuf).
  BufferSlot* init_tbuf(AscendC::TPosition pos, uint32_t len, CallSite site);

  // Lowest free id of `e`; more than 8 at once is a KernelError naming `api`.
  int8_t alloc_event(AscendC::HardEvent e, CallSite site, const char* api);
  void release_event(AscendC::HardEvent e, int8_t id);
  // The id alloc_event would return, without taking it (-1 when all 8 are taken).
  int8_t fetch_event(AscendC::HardEvent e) const;
  // Whether id `id` of `e` is taken (by the TPipe, a queue or AllocEventID).
  bool event_taken(AscendC::HardEvent e, int id) const {
    return id >= 0 && id < 64 && (taken_[static_cast<size_t>(e)] >> id & 1u);
  }
  // Bytes of a hardware buffer InitBuffer has carved so far.
  uint64_t pool_used(AscendC::Hardware h) const { return pool_top_[static_cast<size_t>(h)]; }
  bool destroyed() const { return destroyed_; }

 private:
  uint32_t carve(AscendC::TPosition pos, uint32_t len, CallSite site, const char* api);

  std::array<uint64_t, static_cast<size_t>(AscendC::HardEvent::MAX)> taken_{};
  std::array<uint64_t, static_cast<size_t>(AscendC::Hardware::MAX)> pool_top_{};
  std::deque<BufferSlot> slots_;  // InitBuffer order; a deque keeps the handles stable
  CallSite site_;
  bool destroyed_ = false;
};

// A TQueBind<src, dst, depth>: the events and pool come from the header's position table.
class QueueCore {
 public:
  QueueCore(AscendC::TPosition tensor_pos, QueueEvent enque, QueueEvent free, int32_t depth,
            const char* name);
  QueueCore(const QueueCore&) = delete;
  QueueCore& operator=(const QueueCore&) = delete;

  BufferSlot* alloc(CallSite site);
  bool enque(BufferSlot* slot, CallSite site);
  BufferSlot* deque(CallSite site);
  void free(BufferSlot* slot, CallSite site);
  void free_all_events(CallSite site);

  bool vacant() const { return used_ < static_cast<uint32_t>(depth_); }
  bool has_tensor() const { return used_ > 0; }
  int32_t tensor_count() const { return static_cast<int32_t>(used_); }
  bool has_idle_buffer() const;

  AscendC::TPosition tensor_pos() const { return tensor_pos_; }
  const char* name() const { return name_; }

 private:
  friend class PipeCore;
  PipeCore& pipe(CallSite site, const char* api) const;
  void own(const BufferSlot* slot, CallSite site, const char* api) const;

  AscendC::TPosition tensor_pos_;
  QueueEvent enque_, free_;
  int32_t depth_;
  const char* name_;  // "TQue<A1>" etc., for messages
  PipeCore* pipe_ = nullptr;
  std::vector<BufferSlot*> slots_;
  uint32_t cursor_ = 0;
  std::vector<BufferSlot*> ring_;  // enqueued buffers, oldest at head_
  uint32_t head_ = 0, used_ = 0;
};

// The flags themselves (recorded at `site`); the queues' own pass origin Library.
void set_flag(isa::EventPair e, int id, CallSite site, const char* api,
              isa::Origin origin = isa::Origin::User);
void wait_flag(isa::EventPair e, int id, CallSite site, const char* api,
               isa::Origin origin = isa::Origin::User);
void pipe_barrier(isa::Pipe p, bool all, CallSite site, const char* api,
                  isa::Origin origin = isa::Origin::User);

}  // namespace aicore::frontend
