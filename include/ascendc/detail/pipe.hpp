// TPipe, TQueBind, TQue and TBuf: thin templates over the runtime's state machines
// (aicore/frontend/pipe_core.hpp), which emit exactly the flags of the Ascend C library.
// A TQue<pos> is TQueBind<src, dst> of the logical move that ends (or starts) at pos:
//   A1, B1, C1: GM -> L1,   events MTE2_MTE1 (EnQue/DeQue) and MTE1_MTE2 (FreeTensor/AllocTensor)
//   A2, B2, C2: L1 -> L0A/L0B/bias table, MTE1_M and M_MTE1
//   CO1:        L0C -> GM (CO2 is GM),    M_FIX and FIX_M
// Other positions are compile-time errors (UB positions are AIV-only; C2PIPE2GM, TSCM and SPM
// are not modelled yet).
#pragma once
#include <cstdint>

#include "aicore/frontend/pipe_core.hpp"
#include "ascendc/detail/sync.hpp"
#include "ascendc/detail/tensor.hpp"

namespace AscendC {

using aicore::frontend::CallSite;

namespace detail {

// The logical (src, dst) of TQue<pos>.
constexpr TPosition logic_src(TPosition pos) {
  switch (pos) {
    case TPosition::A2:
      return TPosition::A1;
    case TPosition::B2:
      return TPosition::B1;
    case TPosition::C2:
      return TPosition::C1;
    case TPosition::CO1:
    case TPosition::CO2:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
      return pos;
    default:
      return TPosition::GM;
  }
}
constexpr TPosition logic_dst(TPosition pos) {
  switch (pos) {
    case TPosition::CO1:
      return TPosition::CO2;
    case TPosition::CO2:
    case TPosition::VECOUT:
      return TPosition::GM;
    default:
      return pos;
  }
}

// What a queue of the move src -> dst is on arch 2201: the position of its tensors (which names
// the buffer pool) and its two events. tensor = MAX marks an unsupported move.
struct QueueKind {
  TPosition tensor;
  HardEvent enque, free;
};
constexpr QueueKind queue_kind(TPosition src, TPosition dst) {
  const Hardware s = GetPhyType(src), d = GetPhyType(dst);
  if (s == Hardware::GM && d == Hardware::L1 && dst != TPosition::TSCM && dst != TPosition::SPM)
    return {dst, HardEvent::MTE2_MTE1, HardEvent::MTE1_MTE2};
  // C1 -> C2 (the bias table) too: MTE1 fills it and the Cube reads it.
  if (s == Hardware::L1 && (d == Hardware::L0A || d == Hardware::L0B || d == Hardware::BIAS))
    return {dst, HardEvent::MTE1_M, HardEvent::M_MTE1};
  if (s == Hardware::L0C && d == Hardware::GM) return {src, HardEvent::M_FIX, HardEvent::FIX_M};
  return {TPosition::MAX, HardEvent::MAX, HardEvent::MAX};
}

constexpr aicore::frontend::QueueEvent queue_event(HardEvent e) {
  return {e, {event_info(e).src, event_info(e).dst}};
}

constexpr bool tbuf_position(TPosition pos) {
  const Hardware h = GetPhyType(pos);
  return h == Hardware::L1 || h == Hardware::L0A || h == Hardware::L0B || h == Hardware::L0C ||
         h == Hardware::BIAS;
}

}  // namespace detail

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
  static constexpr detail::QueueKind kKind = detail::queue_kind(src, dst);
  static_assert(
      kKind.tensor != TPosition::MAX,
      "TQue/TQueBind: aicore-sim supports the Cube queues A1, B1, C1 (GM -> L1), A2, B2, C2 (L1 -> "
      "L0A/L0B/bias table) and CO1 (L0C -> GM); UB positions are AIV-only and CO2, C2PIPE2GM, TSCM, SPM "
      "are not supported yet");
  static_assert(depth >= 1, "TQue with depth 0 (in-place queues) is not supported yet by aicore-sim");

 public:
  TQueBind()
      : core_(kKind.tensor, detail::queue_event(kKind.enque), detail::queue_event(kKind.free), depth,
              "TQue") {}

  template <typename T>
  LocalTensor<T> AllocTensor(CallSite site = CallSite::here()) {
    return tensor_of<T>(core_.alloc(site));
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor, CallSite site = CallSite::here()) {
    return core_.enque(tensor.slot(), site);
  }
  template <typename T>
  LocalTensor<T> DeQue(CallSite site = CallSite::here()) {
    return tensor_of<T>(core_.deque(site));
  }
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor, CallSite site = CallSite::here()) {
    core_.free(tensor.slot(), site);
  }
  bool VacantInQue() const { return core_.vacant(); }
  bool HasTensorInQue() const { return core_.has_tensor(); }
  int32_t GetTensorCountInQue() const { return core_.tensor_count(); }
  bool HasIdleBuffer() const { return core_.has_idle_buffer(); }
  void FreeAllEvent(CallSite site = CallSite::here()) { core_.free_all_events(site); }

  aicore::frontend::QueueCore& core() { return core_; }

 private:
  template <typename T>
  static LocalTensor<T> tensor_of(aicore::frontend::BufferSlot* s) {
    return LocalTensor<T>::from_parts(s->pos, s->addr, s->len, s);
  }
  aicore::frontend::QueueCore core_;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<detail::logic_src(pos), detail::logic_dst(pos), depth, mask> {};

template <TPosition pos = TPosition::LCM>
class TBuf {
  static_assert(detail::tbuf_position(pos),
                "TBuf: aicore-sim supports TBufs in L1 (A1, B1, C1), L0A (A2), L0B (B2) and L0C (CO1); UB "
                "positions (VECCALC = the default) are AIV-only");

 public:
  template <typename T>
  LocalTensor<T> Get(CallSite site = CallSite::here()) const {
    return Get<T>(slot(site)->len * 8 / aicore_ascendc::element_bits<T>(), site);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, CallSite site = CallSite::here()) const {
    return GetWithOffset<T>(len, 0, site);
  }
  // `size` elements from byte `bufOffset` of the buffer.
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, CallSite site = CallSite::here()) const {
    const aicore::frontend::BufferSlot* s = slot(site);
    const uint64_t bytes = aicore_ascendc::element_bytes<T>(size);
    if (bufOffset + bytes > s->len)
      aicore::frontend::fail(site, "TBuf::Get",
                             "bytes " + std::to_string(bufOffset) + ".." + std::to_string(bufOffset + bytes) +
                                 " run past the TBuf's " + std::to_string(s->len) + " bytes");
    return LocalTensor<T>::from_parts(pos, s->addr + bufOffset, static_cast<uint32_t>(bytes), nullptr);
  }

  void set_slot(aicore::frontend::BufferSlot* s) { slot_ = s; }

 private:
  const aicore::frontend::BufferSlot* slot(CallSite site) const {
    if (!slot_)
      aicore::frontend::fail(site, "TBuf::Get", "the TBuf has no buffer yet (call TPipe::InitBuffer first)");
    return slot_;
  }
  aicore::frontend::BufferSlot* slot_ = nullptr;
};

class TPipe;
namespace detail {
inline TPipe*& current_pipe() {
  static TPipe* p = nullptr;
  return p;
}
}  // namespace detail

class TPipe {
 public:
  explicit TPipe(CallSite site = CallSite::here()) : core_(site), site_(site) {
    detail::current_pipe() = this;
  }
  ~TPipe() {
    core_.destroy(site_);
    if (detail::current_pipe() == this) detail::current_pipe() = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <class Queue>
  bool InitBuffer(Queue& que, uint8_t num, uint32_t len, CallSite site = CallSite::here()) {
    core_.init_queue(que.core(), num, len, site);
    return true;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, CallSite site = CallSite::here()) {
    buf.set_slot(core_.init_tbuf(pos, len, site));
    return true;
  }
  void Destroy(CallSite site = CallSite::here()) { core_.destroy(site); }

  template <HardEvent evt>
  TEventID AllocEventID(CallSite site = CallSite::here()) {
    return core_.alloc_event(evt, site, "TPipe::AllocEventID");
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id, CallSite = CallSite::here()) {
    core_.release_event(evt, id);
  }
  template <HardEvent evt>
  TEventID FetchEventID() const {
    return core_.fetch_event(evt);
  }

  aicore::frontend::PipeCore& core() { return core_; }  // for the front end (the Matmul API)

 private:
  aicore::frontend::PipeCore core_;
  CallSite site_;
};

inline TPipe* GetTPipePtr() {
  return detail::current_pipe();
}

}  // namespace AscendC
