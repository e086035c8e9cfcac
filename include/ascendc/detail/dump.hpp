// DumpTensor, DumpAccChkPoint and ShapeInfo: a kernel prints a tensor's elements while it runs
// (docs/ascendc.md, "What is supported"). The kernel's data is computed as each call is issued
// (aicore/frontend/runtime.hpp), so a dump shows what the tensor holds at the call's place in the
// program, as on the device. A dump is not an instruction: it costs no simulated time (on the
// device it does, and the documented advice is to turn it off for timing), and the device's 1 MiB
// per-core dump space is not enforced. `-DASCENDC_DUMP=0` turns dumps off, as documented.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore/frontend/call_site.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/enums.hpp"
#include "ascendc/detail/soft_float.hpp"
#include "ascendc/detail/tensor.hpp"

namespace AscendC {

// The most dimensions a ShapeInfo holds (the library's K_MAX_DIM).
constexpr int32_t K_MAX_DIM = 8;

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC };

// A tensor's shape (its current and original dimensions, outermost first) for DumpTensor to print
// by. More than K_MAX_DIM dimensions is an error at the construction's line.
struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], uint8_t inputOriginalShapeDim,
            const uint32_t inputOriginalShape[], DataFormat inputFormat, CallSite site = CallSite::here())
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    check(site);
    for (int i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
    for (int i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], DataFormat inputFormat,
            CallSite site = CallSite::here())
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat, site) {}
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], CallSite site = CallSite::here())
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND, site) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {};
  uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  void check(CallSite site) const;
};

// The product of the current dimensions (1 for none).
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int n = 1;
  for (int i = 0; i < shapeInfo.shapeDim; ++i) n *= static_cast<int>(shapeInfo.shape[i]);
  return n;
}

namespace detail {

// One dump, as the non-template part prints it: the header's fields and the elements as text.
struct DumpRecord {
  uint32_t desc = 0;
  uint64_t addr = 0;
  const char* data_type = "";
  const char* position = "";
  uint32_t dump_size = 0;
  const ShapeInfo* shape = nullptr;  // null: one flat list
  bool has_data = true;              // false in a timing-only run (no data exists)
  std::vector<std::string> values;
};
void print_dump(const DumpRecord& r);
// The device's names of the element types DumpTensor prints.
template <typename T>
constexpr const char* dump_type_name() {
  if constexpr (std::is_same_v<T, half>)
    return "float16";
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return "bfloat16";
  else if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64";
  else
    return nullptr;
}
// An element as the device prints it: floating types with %f, integers as integers.
template <typename T>
std::string dump_value(const T& v) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>)
      return std::to_string(static_cast<long long>(v));
    else
      return std::to_string(static_cast<unsigned long long>(v));
  } else {
    return std::to_string(static_cast<double>(static_cast<float>(v)));
  }
}
template <typename T>
void fill_values(DumpRecord& r, const uint8_t* bytes) {
  r.values.reserve(r.dump_size);
  for (uint32_t i = 0; i < r.dump_size; ++i) {
    T v;
    std::memcpy(&v, bytes + uint64_t{i} * sizeof(T), sizeof(T));
    r.values.push_back(dump_value(v));
  }
}
// The position's name in a dump (UB, L1, L0C), or an error naming `api` for the positions the
// device cannot dump (the docs: UB, L1, L0C and GM only).
const char* dump_position(TPosition pos, CallSite site, const char* api);

template <typename T>
void dump_local(const LocalTensor<T>& t, uint32_t offset, uint32_t desc, uint32_t dumpSize,
                const ShapeInfo* shape, CallSite site, const char* api) {
  static_assert(dump_type_name<T>() != nullptr, "DumpTensor: element type not supported");
  DumpRecord r;
  r.desc = desc;
  r.data_type = dump_type_name<T>();
  r.position = dump_position(t.GetPosition(), site, api);
  r.addr = t.byte_addr() + uint64_t{offset} * sizeof(T);
  r.dump_size = dumpSize;
  r.shape = shape;
  const aicore::isa::Space s = aicore::frontend::space_of(t.GetPosition(), site, api);
  const uint8_t* bytes = aicore::frontend::local_bytes(s, r.addr, uint64_t{dumpSize} * sizeof(T), site, api);
  r.has_data = !aicore::frontend::timing_only(site, api);
  if (r.has_data) fill_values<T>(r, bytes);
  print_dump(r);
}

template <typename T>
void dump_global(const GlobalTensor<T>& t, uint32_t offset, uint32_t desc, uint32_t dumpSize,
                 const ShapeInfo* shape, CallSite site, const char* api) {
  static_assert(dump_type_name<T>() != nullptr, "DumpTensor: element type not supported");
  DumpRecord r;
  r.desc = desc;
  r.data_type = dump_type_name<T>();
  r.position = "GM";
  r.dump_size = dumpSize;
  r.shape = shape;
  const T* first = t.GetPhyAddr() + offset;
  r.addr = aicore::frontend::gm_address(first, site, api).offset;
  // Every dumped byte must lie in the GM buffer the tensor points into.
  if (dumpSize > 0)
    aicore::frontend::gm_address(reinterpret_cast<const uint8_t*>(first + dumpSize) - 1, site, api);
  // A timing-only run computes nothing, so GM holds only what the host put there.
  r.has_data = !aicore::frontend::timing_only(site, api);
  if (r.has_data) fill_values<T>(r, reinterpret_cast<const uint8_t*>(first));
  print_dump(r);
}

}  // namespace detail

#if !defined(ASCENDC_DUMP) || ASCENDC_DUMP != 0
// Prints `dumpSize` elements of the tensor from its first, after a header line
// `DumpTensor: desc=D, addr=A, data_type=T, position=P, dump_size=N`, as one list or, with a
// ShapeInfo, nested by its dimensions.
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                CallSite site = CallSite::here()) {
  detail::dump_local(tensor, 0, desc, dumpSize, nullptr, site, "DumpTensor");
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                CallSite site = CallSite::here()) {
  detail::dump_global(tensor, 0, desc, dumpSize, nullptr, site, "DumpTensor");
}
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo,
                CallSite site = CallSite::here()) {
  detail::dump_local(tensor, 0, desc, dumpSize, &shapeInfo, site, "DumpTensor");
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo,
                CallSite site = CallSite::here()) {
  detail::dump_global(tensor, 0, desc, dumpSize, &shapeInfo, site, "DumpTensor");
}
// DumpTensor from element `countOff` on; `index` is the user's tag (printed as desc).
template <typename T>
void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                     CallSite site = CallSite::here()) {
  detail::dump_local(tensor, countOff, index, dumpSize, nullptr, site, "DumpAccChkPoint");
}
template <typename T>
void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                     CallSite site = CallSite::here()) {
  detail::dump_global(tensor, countOff, index, dumpSize, nullptr, site, "DumpAccChkPoint");
}
#else
template <typename Tensor, typename... Args>
void DumpTensor(const Tensor&, Args&&...) {}
template <typename Tensor, typename... Args>
void DumpAccChkPoint(const Tensor&, Args&&...) {}
#endif

}  // namespace AscendC
