// The printing half of DumpTensor / DumpAccChkPoint (include/ascendc/detail/dump.hpp).
#include <string>

// compiler_env defines the kernel qualifiers (__gm__) the tensor header uses.
#include "ascendc/detail/compiler_env.hpp"
#include "ascendc/detail/dump.hpp"
#include "ascendc/detail/utils.hpp"

namespace AscendC {

void ShapeInfo::check(CallSite site) const {
  if (shapeDim > K_MAX_DIM || originalShapeDim > K_MAX_DIM)
    aicore::frontend::fail(site, "ShapeInfo",
                           "a shape has at most " + std::to_string(K_MAX_DIM) + " dimensions, not " +
                               std::to_string(shapeDim > K_MAX_DIM ? shapeDim : originalShapeDim));
}

namespace detail {

const char* dump_position(TPosition pos, CallSite site, const char* api) {
  switch (GetPhyType(pos)) {
    case Hardware::UB:
      return "UB";
    case Hardware::L1:
      return "L1";
    case Hardware::L0C:
      return "L0C";
    case Hardware::GM:
      return "GM";
    default:
      break;
  }
  aicore::frontend::fail(site, api, "the device dumps only UB, L1 (A1, B1, C1), L0C (CO1) and GM tensors");
}

namespace {

std::string shape_text(const ShapeInfo& s) {
  std::string t = "[";
  for (int i = 0; i < s.shapeDim; ++i) t += (i ? ", " : "") + std::to_string(s.shape[i]);
  return t + "]";
}

// Dimension `dim` of the shape from element `first` on: a bracketed list of the next dimension's
// lists, one per line, indented by the brackets already open.
void nested(const DumpRecord& r, int dim, size_t first, std::string& out) {
  const ShapeInfo& s = *r.shape;
  out += '[';
  if (dim + 1 == s.shapeDim) {
    for (uint32_t i = 0; i < s.shape[dim]; ++i) out += (i ? ", " : "") + r.values[first + i];
  } else {
    size_t inner = 1;
    for (int d = dim + 1; d < s.shapeDim; ++d) inner *= s.shape[d];
    for (uint32_t i = 0; i < s.shape[dim]; ++i) {
      if (i) out += ",\n" + std::string(static_cast<size_t>(dim) + 1, ' ');
      nested(r, dim + 1, first + i * inner, out);
    }
  }
  out += ']';
}

}  // namespace

void print_dump(const DumpRecord& r) {
  std::string out = "DumpTensor: desc=" + std::to_string(r.desc) + ", addr=" + std::to_string(r.addr) +
                    ", data_type=" + r.data_type + ", position=" + r.position +
                    ", dump_size=" + std::to_string(r.dump_size) + "\n";
  if (!r.has_data) {
    out += "(no data: the run is timing-only)\n";
    kernel_print(out);
    return;
  }
  const bool by_shape = r.shape && r.shape->shapeDim > 0 &&
                        static_cast<uint64_t>(GetShapeSize(*r.shape)) == uint64_t{r.dump_size};
  if (r.shape && !by_shape)
    out += "(shape " + shape_text(*r.shape) + " has " + std::to_string(GetShapeSize(*r.shape)) +
           " elements, not dump_size: printed as one list)\n";
  if (by_shape) {
    nested(r, 0, 0, out);
  } else {
    out += '[';
    for (size_t i = 0; i < r.values.size(); ++i) out += (i ? ", " : "") + r.values[i];
    out += ']';
  }
  kernel_print(out + "\n");
}

}  // namespace detail
}  // namespace AscendC
