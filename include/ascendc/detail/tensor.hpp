// GlobalTensor, LocalTensor and LocalMemAllocator. A LocalTensor is a position, a byte address
// inside that position's buffer and a length, plus the queue buffer it came from (if any); the
// APIs dispatch on its position at run time, as Ascend C does. In this host build GetPhyAddr()
// returns a host pointer into the current block's simulated buffer (as CANN's CPU-debug mode does).
// Sizes and offsets count elements; an int4b_t tensor's bytes are half its elements (operator[]
// adds offset / 2 bytes, as Ascend C does).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "aicore/frontend/pipe_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/enums.hpp"
#include "ascendc/detail/soft_float.hpp"

namespace AscendC {

using aicore::frontend::CallSite;

template <typename T>
class GlobalTensor {
 public:
  GlobalTensor() = default;
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
  }
  void SetGlobalBuffer(__gm__ T* buffer) { addr_ = buffer; }
  __gm__ T* GetPhyAddr() const { return addr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return at(offset); }
  uint64_t GetSize() const { return size_; }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t;
    t.addr_ = at(offset);
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }
  // Scalar access (PIPE_S on the device): reads and writes the host GM directly; not an
  // instruction of the simulated program.
  T GetValue(uint64_t offset) const {
    static_assert(
        !std::is_same<T, int4b_t>::value,
        "GlobalTensor<int4b_t>::GetValue is not supported by aicore-sim (two elements share a byte)");
    return addr_[offset];
  }
  void SetValue(uint64_t offset, const T& value) const {
    static_assert(
        !std::is_same<T, int4b_t>::value,
        "GlobalTensor<int4b_t>::SetValue is not supported by aicore-sim (two elements share a byte)");
    addr_[offset] = value;
  }
  template <typename U>
  GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> t;
    t.SetGlobalBuffer(reinterpret_cast<U*>(addr_),
                      size_ * aicore_ascendc::element_bits<T>() / aicore_ascendc::element_bits<U>());
    return t;
  }

 private:
  T* at(uint64_t offset) const {  // element `offset` (int4b_t: byte offset / 2)
    return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(addr_) + aicore_ascendc::element_bytes<T>(offset));
  }
  T* addr_ = nullptr;
  uint64_t size_ = 0;
};

template <typename T>
class LocalTensor {
 public:
  LocalTensor() = default;
  // The static-tensor style: a tile of `tileSize` elements at byte `addr` of `pos`'s buffer
  // (32-byte aligned and inside the buffer).
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, CallSite site = CallSite::here())
      : pos_(pos), addr_(addr), bytes_(bytes(tileSize)) {
    check_static(site);
  }

  TPosition GetPosition() const { return pos_; }
  uint32_t GetSize() const { return bytes_ * 8 / aicore_ascendc::element_bits<T>(); }
  void SetSize(uint32_t size) { bytes_ = bytes(size); }
  uint32_t GetLength() const { return bytes_; }
  LocalTensor operator[](uint32_t offset) const {  // int4b_t: offset / 2 bytes
    LocalTensor t = *this;
    const uint32_t shift = bytes(offset);
    t.addr_ += shift;
    t.bytes_ = bytes_ > shift ? bytes_ - shift : 0;
    return t;
  }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>::from_parts(pos_, addr_, bytes_, slot_);
  }

  // Host pointer to the tensor's first element in the current block's buffer.
  T* GetPhyAddr(CallSite site = CallSite::here()) const {
    return reinterpret_cast<T*>(bytes_at(0, 0, site, "LocalTensor::GetPhyAddr"));
  }
  T GetValue(uint32_t index, CallSite site = CallSite::here()) const {
    static_assert(
        !std::is_same<T, int4b_t>::value,
        "LocalTensor<int4b_t>::GetValue is not supported by aicore-sim (two elements share a byte)");
    T v;
    std::memcpy(&v, element(index, site, "LocalTensor::GetValue"), sizeof(T));
    return v;
  }
  void SetValue(uint32_t index, const T& value, CallSite site = CallSite::here()) const {
    static_assert(
        !std::is_same<T, int4b_t>::value,
        "LocalTensor<int4b_t>::SetValue is not supported by aicore-sim (two elements share a byte)");
    std::memcpy(element(index, site, "LocalTensor::SetValue"), &value, sizeof(T));
  }
  T& operator()(uint32_t index, CallSite site = CallSite::here()) const {
    static_assert(
        !std::is_same<T, int4b_t>::value,
        "LocalTensor<int4b_t>::operator() is not supported by aicore-sim (two elements share a byte)");
    return *reinterpret_cast<T*>(element(index, site, "LocalTensor::operator()"));
  }

  // For the front end: the operand address, the queue buffer.
  aicore::isa::Addr address(CallSite site, const char* api) const {
    return aicore::isa::Addr{aicore::frontend::space_of(pos_, site, api), 0, addr_};
  }
  aicore::frontend::BufferSlot* slot() const { return slot_; }
  uint32_t byte_addr() const { return addr_; }
  static LocalTensor from_parts(TPosition pos, uint32_t addr, uint32_t bytes,
                                aicore::frontend::BufferSlot* slot) {
    LocalTensor t;
    t.pos_ = pos;
    t.addr_ = addr;
    t.bytes_ = bytes;
    t.slot_ = slot;
    return t;
  }

 private:
  static uint32_t bytes(uint32_t elements) {
    return static_cast<uint32_t>(aicore_ascendc::element_bytes<T>(elements));
  }
  uint8_t* bytes_at(uint64_t offset, uint64_t n, CallSite site, const char* api) const {
    return aicore::frontend::local_bytes(aicore::frontend::space_of(pos_, site, api), addr_ + offset, n, site,
                                         api);
  }
  uint8_t* element(uint32_t index, CallSite site, const char* api) const {
    if (index >= GetSize())
      aicore::frontend::fail(site, api,
                             "index " + std::to_string(index) + " is outside the tensor's " +
                                 std::to_string(GetSize()) + " elements");
    return bytes_at(uint64_t{index} * sizeof(T), sizeof(T), site, api);
  }
  void check_static(CallSite site) const {
    const char* api = "LocalTensor(TPosition, addr, tileSize)";
    // A tensor of the fixpipe buffer (not modelled) may be made, as kernels make them for the
    // scenarios they do not run; its first use is the error, at the use's line.
    const Hardware h = GetPhyType(pos_);
    if (h == Hardware::FIXBUF) return;
    const aicore::isa::Space s = aicore::frontend::space_of(pos_, site, api);
    const uint32_t align = h == Hardware::BIAS ? aicore::isa::kBiasBlockBytes : 32;  // the table's unit
    if (addr_ % align != 0)
      aicore::frontend::fail(
          site, api,
          "address " + std::to_string(addr_) + " is not " + std::to_string(align) + "-byte aligned");
    if (uint64_t{addr_} + bytes_ > aicore::frontend::space_bytes(s))
      aicore::frontend::fail(site, api,
                             "bytes " + std::to_string(addr_) + ".." +
                                 std::to_string(uint64_t{addr_} + bytes_) + " run past the end of " +
                                 aicore::isa::to_string(s) + " (" +
                                 std::to_string(aicore::frontend::space_bytes(s)) + " bytes)");
  }

  TPosition pos_ = TPosition::MAX;
  uint32_t addr_ = 0, bytes_ = 0;
  aicore::frontend::BufferSlot* slot_ = nullptr;
};

namespace detail {
// The position LocalMemAllocator<hard>::Alloc<T> gives a tile.
constexpr TPosition default_position(Hardware hard) {
  switch (hard) {
    case Hardware::L1:
      return TPosition::A1;
    case Hardware::L0A:
      return TPosition::A2;
    case Hardware::L0B:
      return TPosition::B2;
    case Hardware::L0C:
      return TPosition::CO1;
    default:
      return TPosition::MAX;
  }
}
// One live allocator per hardware buffer (the API's rule); the runtime keeps the count.
void allocator_alive(Hardware hard, bool alive, CallSite site);
}  // namespace detail

// Hands out consecutive tiles of one hardware buffer, from address 0.
template <Hardware hard>
class LocalMemAllocator {
  static_assert(
      detail::default_position(hard) != TPosition::MAX,
      "LocalMemAllocator: only Hardware::L1, L0A, L0B and L0C are supported by aicore-sim (UB, BIAS "
      "and FIXBUF are not modelled)");

 public:
  explicit LocalMemAllocator(CallSite site = CallSite::here()) { detail::allocator_alive(hard, true, site); }
  ~LocalMemAllocator() { detail::allocator_alive(hard, false, CallSite{}); }
  LocalMemAllocator(const LocalMemAllocator&) = delete;
  LocalMemAllocator& operator=(const LocalMemAllocator&) = delete;

  template <TPosition pos, typename T>
  LocalTensor<T> Alloc(uint32_t tileSize, CallSite site = CallSite::here()) {
    static_assert(GetPhyType(pos) == hard,
                  "LocalMemAllocator::Alloc: the position is not in this hardware buffer");
    const LocalTensor<T> t(pos, cur_, tileSize, site);
    cur_ += static_cast<uint32_t>(aicore_ascendc::element_bytes<T>(tileSize));
    return t;
  }
  template <typename T>
  LocalTensor<T> Alloc(uint32_t tileSize, CallSite site = CallSite::here()) {
    return Alloc<detail::default_position(hard), T>(tileSize, site);
  }
  uint32_t GetCurAddr() const { return cur_; }

 private:
  uint32_t cur_ = 0;
};

}  // namespace AscendC
