#include "aicore/frontend/pipe_core.hpp"

#include <exception>
#include <string>

#include "aicore/frontend/runtime.hpp"
#include "names.hpp"
#include "state.hpp"

namespace aicore::frontend {

namespace {

constexpr int kEventIds = 8;                                           // ids per HardEvent on arch 2201
constexpr size_t kMaxBuffers = 64;                                     // buffers one TPipe can carve
constexpr AscendC::HardEvent kPipeEvent = AscendC::HardEvent::M_MTE1;  // TPipe keeps ids 0..2
constexpr isa::EventPair kPipePair{isa::Pipe::M, isa::Pipe::MTE1};
constexpr isa::Origin kLib = isa::Origin::Library;  // what the queues emit

PipeCore*& current_slot() {
  static PipeCore* p = nullptr;
  return p;
}

std::string queue_name(const QueueCore& q) {
  return std::string("TQue<") + position_name(q.tensor_pos()) + ">";
}

}  // namespace

void set_flag(isa::EventPair e, int id, CallSite site, const char* api, isa::Origin origin) {
  if (id < 0 || id >= kEventIds) fail(site, api, "event id " + std::to_string(id) + " is outside 0..7");
  issue(isa::SetFlag{e, static_cast<uint8_t>(id)}, site, api, origin);
}
void wait_flag(isa::EventPair e, int id, CallSite site, const char* api, isa::Origin origin) {
  if (id < 0 || id >= kEventIds) fail(site, api, "event id " + std::to_string(id) + " is outside 0..7");
  issue(isa::WaitFlag{e, static_cast<uint8_t>(id)}, site, api, origin);
}
void pipe_barrier(isa::Pipe p, bool all, CallSite site, const char* api, isa::Origin origin) {
  issue(isa::PipeBarrier{all ? isa::Pipe::S : p, all}, site, api, origin);
}

// ---- PipeCore ----------------------------------------------------------------------------------

PipeCore::PipeCore(CallSite site) : site_(site) {
  need_block(site, "TPipe");
  if (current_slot())
    fail(site, "TPipe",
         "a second TPipe while one is alive (declared at " + std::string(current_slot()->site_.file) + ":" +
             std::to_string(current_slot()->site_.line) + "); a kernel has one TPipe at a time");
  current_slot() = this;
  // TPipe::Init on the AIC: M_MTE1 ids 0, 1, 2 are taken and set for the whole kernel.
  for (int i = 0; i < 3; ++i)
    set_flag(kPipePair, alloc_event(kPipeEvent, site, "TPipe"), site, "TPipe", kLib);
}

PipeCore::~PipeCore() {
  if (current_slot() == this) current_slot() = nullptr;
}

PipeCore* PipeCore::current() {
  return current_slot();
}

void PipeCore::destroy(CallSite site) {
  // Not while an error unwinds the kernel: the block is abandoned, nothing more is recorded.
  if (destroyed_ || std::uncaught_exceptions() > 0 || !in_kernel()) {
    destroyed_ = true;
    return;
  }
  destroyed_ = true;
  for (BufferSlot& s : slots_)
    if (s.free_id >= 0) {
      wait_flag(s.free_event.pair, s.free_id, site, "TPipe::Destroy", kLib);
      release_event(s.free_event.event, s.free_id);
      s.free_id = -1;
    }
  for (int8_t i = 0; i < 3; ++i) {
    wait_flag(kPipePair, i, site, "TPipe::Destroy", kLib);
    release_event(kPipeEvent, i);
  }
  pipe_barrier(isa::Pipe::S, true, site, "TPipe::Destroy", kLib);
  if (current_slot() == this) current_slot() = nullptr;
}

uint32_t PipeCore::carve(AscendC::TPosition pos, uint32_t len, CallSite site, const char* api) {
  if (destroyed_) fail(site, api, "the TPipe was destroyed already");
  if (slots_.size() >= kMaxBuffers)
    fail(site, api, "more than " + std::to_string(kMaxBuffers) + " buffers in one TPipe");
  const isa::Space space = space_of(pos, site, api);
  uint64_t& top = pool_top_[static_cast<size_t>(AscendC::GetPhyType(pos))];
  const uint64_t rounded = (uint64_t{len} + 31) / 32 * 32;
  if (top + rounded > space_bytes(space))
    fail(site, api,
         "the buffer of " + std::to_string(rounded) + " bytes does not fit: " + isa::to_string(space) +
             " has " + std::to_string(space_bytes(space)) + " bytes and " + std::to_string(top) +
             " are taken");
  const uint32_t addr = static_cast<uint32_t>(top);
  top += rounded;
  return addr;
}

void PipeCore::init_queue(QueueCore& q, uint32_t num, uint32_t len, CallSite site) {
  const char* api = "TPipe::InitBuffer";
  if (q.pipe_) fail(site, api, queue_name(q) + " has its buffers already");
  if (num == 0) fail(site, api, "num must be at least 1");
  q.pipe_ = this;
  for (uint32_t i = 0; i < num; ++i) {
    BufferSlot s;
    s.pos = q.tensor_pos();
    s.addr = carve(s.pos, len, site, api);
    s.len = (len + 31) / 32 * 32;
    s.free_event = q.free_;
    s.queue = &q;
    slots_.push_back(s);
    q.slots_.push_back(&slots_.back());
  }
  q.ring_.assign(static_cast<size_t>(q.depth_), nullptr);
}

BufferSlot* PipeCore::init_tbuf(AscendC::TPosition pos, uint32_t len, CallSite site) {
  BufferSlot s;
  s.pos = pos;
  s.addr = carve(pos, len, site, "TPipe::InitBuffer");
  s.len = (len + 31) / 32 * 32;
  slots_.push_back(s);
  return &slots_.back();
}

int8_t PipeCore::alloc_event(AscendC::HardEvent e, CallSite site, const char* api) {
  uint64_t& taken = taken_[static_cast<size_t>(e)];
  for (int id = 0; id < kEventIds; ++id)
    if (!(taken >> id & 1u)) {
      taken |= uint64_t{1} << id;
      return static_cast<int8_t>(id);
    }
  fail(site, api,
       std::string("more than 8 event ids of HardEvent::") + hard_event_name(e) +
           " in use at once (8 per HardEvent on arch 2201" +
           (e == kPipeEvent ? "; the TPipe itself holds M_MTE1 ids 0-2" : "") + ")");
}

void PipeCore::release_event(AscendC::HardEvent e, int8_t id) {
  if (id >= 0 && id < kEventIds) taken_[static_cast<size_t>(e)] &= ~(uint64_t{1} << id);
}

int8_t PipeCore::fetch_event(AscendC::HardEvent e) const {
  const uint64_t taken = taken_[static_cast<size_t>(e)];
  for (int id = 0; id < kEventIds; ++id)
    if (!(taken >> id & 1u)) return static_cast<int8_t>(id);
  return -1;
}

// ---- QueueCore ---------------------------------------------------------------------------------

QueueCore::QueueCore(AscendC::TPosition tensor_pos, QueueEvent enque, QueueEvent free, int32_t depth,
                     const char* name)
    : tensor_pos_(tensor_pos), enque_(enque), free_(free), depth_(depth), name_(name) {}

PipeCore& QueueCore::pipe(CallSite site, const char* api) const {
  if (!pipe_) fail(site, api, queue_name(*this) + " has no buffers (call TPipe::InitBuffer first)");
  if (pipe_ != PipeCore::current()) fail(site, api, queue_name(*this) + " belongs to a TPipe that is gone");
  return *pipe_;
}

void QueueCore::own(const BufferSlot* slot, CallSite site, const char* api) const {
  if (!slot || slot->queue != this)
    fail(site, api, "the tensor was not allocated from this " + queue_name(*this));
}

BufferSlot* QueueCore::alloc(CallSite site) {
  const char* api = "AllocTensor";
  PipeCore& p = pipe(site, api);
  for (size_t tries = 0; tries < slots_.size(); ++tries) {
    BufferSlot* s = slots_[cursor_++ % slots_.size()];
    if (s->state != BufferState::Free) continue;
    s->state = BufferState::Occupied;
    if (s->free_id >= 0) {
      wait_flag(free_.pair, s->free_id, site, api, kLib);
      p.release_event(free_.event, s->free_id);
      s->free_id = -1;
    }
    return s;
  }
  fail(site, api,
       "no free buffer in " + queue_name(*this) + ": all " + std::to_string(slots_.size()) +
           " are in use (FreeTensor one first; on the device this call would spin forever)");
}

bool QueueCore::enque(BufferSlot* slot, CallSite site) {
  const char* api = "EnQue";
  PipeCore& p = pipe(site, api);
  own(slot, site, api);
  if (used_ >= static_cast<uint32_t>(depth_))
    fail(site, api,
         queue_name(*this) + " is full: depth " + std::to_string(depth_) + " and " + std::to_string(used_) +
             " tensor(s) enqueued (DeQue one first)");
  if (slot->state == BufferState::Free || slot->state == BufferState::Enqueued)
    fail(site, api,
         std::string("the tensor's buffer is ") + buffer_state_name(slot->state) +
             " (EnQue takes a tensor from AllocTensor or DeQue)");
  const int8_t id = p.alloc_event(enque_.event, site, api);
  set_flag(enque_.pair, id, site, api, kLib);
  slot->enque_id = id;
  slot->state = BufferState::Enqueued;
  ring_[(head_ + used_) % ring_.size()] = slot;
  ++used_;
  return true;
}

BufferSlot* QueueCore::deque(CallSite site) {
  const char* api = "DeQue";
  PipeCore& p = pipe(site, api);
  if (used_ == 0) fail(site, api, queue_name(*this) + " is empty (no EnQue before this DeQue)");
  BufferSlot* s = ring_[head_];
  head_ = (head_ + 1) % ring_.size();
  --used_;
  if (s->enque_id >= 0) {
    wait_flag(enque_.pair, s->enque_id, site, api, kLib);
    p.release_event(enque_.event, s->enque_id);
    s->enque_id = -1;
  }
  s->state = BufferState::Dequeued;
  return s;
}

void QueueCore::free(BufferSlot* slot, CallSite site) {
  const char* api = "FreeTensor";
  PipeCore& p = pipe(site, api);
  own(slot, site, api);
  if (slot->state == BufferState::Free)
    fail(site, api, "the tensor's buffer is free already (a second FreeTensor)");
  if (slot->state == BufferState::Enqueued)
    fail(site, api, "the tensor is still in the queue (DeQue it first)");
  const int8_t id = p.alloc_event(free_.event, site, api);
  set_flag(free_.pair, id, site, api, kLib);
  slot->free_id = id;
  slot->state = BufferState::Free;
}

void QueueCore::free_all_events(CallSite site) {
  PipeCore& p = pipe(site, "FreeAllEvent");
  for (BufferSlot* s : slots_)
    if (s->free_id >= 0) {
      wait_flag(free_.pair, s->free_id, site, "FreeAllEvent", kLib);
      p.release_event(free_.event, s->free_id);
      s->free_id = -1;
    }
}

bool QueueCore::has_idle_buffer() const {
  for (const BufferSlot* s : slots_)
    if (s->state == BufferState::Free) return true;
  return false;
}

}  // namespace aicore::frontend
