// The Matmul API's host tiling (CANN's "tiling/tiling_api.h"): matmul_tiling::MatmulApiTiling (one
// core) and MultiCoreMatmulTiling (SetDim cores), and optiling::TCubeTiling, the host's tiling data
// whose SaveToBuffer bytes are the kernel's TCubeTiling (kernel_tiling/kernel_tiling.h).
// aicore-sim's own tiling rules (CANN's algorithm is not public) are in docs/ascendc.md,
// "Matmul API": base 128 x 256 x 64 when it fits, double-buffered L1 and L0A/L0B, C split over the
// cores into 16-aligned parts. GetTiling returns -1 and says why on stderr when nothing fits or
// the request is outside what aicore-sim's Matmul supports.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>  // the samples' host code prints with std::cout after including only this

#include "ascendc/detail/cube_format.hpp"
#include "ascendc/detail/enums.hpp"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

class TCubeTiling {
 public:
#define AICORE_TCUBE_ACCESSORS(name) \
  void set_##name(int32_t v) {       \
    data_.name = v;                  \
  }                                  \
  int32_t get_##name() const {       \
    return data_.name;               \
  }
  AICORE_TCUBE_TILING_FIELDS(AICORE_TCUBE_ACCESSORS)
#undef AICORE_TCUBE_ACCESSORS
  size_t GetDataSize() const {
    return sizeof(data_);
  }
  // Writes the kernel's TCubeTiling bytes (at most `capacity` of them) to pData.
  void SaveToBuffer(void* pData, size_t capacity) const {
    std::memcpy(pData, &data_, capacity < sizeof(data_) ? capacity : sizeof(data_));
  }
  const AscendC::tiling::TCubeTiling& data() const {
    return data_;
  }
  AscendC::tiling::TCubeTiling& data() {
    return data_;
  }

 private:
  AscendC::tiling::TCubeTiling data_;
};

}  // namespace optiling

namespace matmul_tiling {

using AscendC::CubeFormat;
using AscendC::TPosition;

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_BF16 = 27,
  DT_BFLOAT16 = 27,
  DT_INT4 = 29,
};

// SetTraverse: FIRSTM walks C's base blocks along M first (iterateOrder ORDER_M), FIRSTN and NOSET
// along N first (ORDER_N, aicore-sim's default).
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

// The settings both tilings share.
class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  // The problem (multi-core: the whole C; one core: that core's part) and the matrices' own sizes.
  int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t SetBias(bool isBiasIn = false);
  int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
  // baseM, baseN, baseK (-1: aicore-sim chooses).
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  // The bytes of L1, L0C, UB and the bias table the Matmul may use (-1: all of the core's).
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  // 0 on success; -1 (and why, on stderr) when the tiling cannot be made.
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling);

 protected:
  struct Matrix {
    TPosition pos = TPosition::GM;
    CubeFormat format = CubeFormat::ND;
    DataType type = DataType::DT_FLOAT16;
    bool trans = false, set = false;
  };
  virtual bool multi_core() const = 0;
  int64_t compute(AscendC::tiling::TCubeTiling& out);

  platform_ascendc::PlatformAscendC platform_;
  Matrix a_, b_, c_, bias_;
  int32_t m_ = -1, n_ = -1, k_ = -1;
  int32_t org_m_ = -1, org_n_ = -1, org_ka_ = -1, org_kb_ = -1;
  bool is_bias_ = false;
  int32_t base_m_ = -1, base_n_ = -1, base_k_ = -1;
  int32_t l1_limit_ = -1, l0c_limit_ = -1;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  int32_t dim_ = -1;  // MultiCoreMatmulTiling::SetDim
  int32_t single_m_ = -1, single_n_ = -1, single_k_ = -1;
  int32_t used_m_ = 1, used_n_ = 1;  // the split the last GetTiling chose
};

// One core's tiling: SetShape is that core's part.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;

 protected:
  bool multi_core() const override { return false; }
};

// C split over SetDim cores: singleCoreM x singleCoreN parts (usedCoreNum of them).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int32_t SetDim(int32_t dim);
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  // The cores the last GetTiling used and its split of them along M and N.
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);

 protected:
  bool multi_core() const override { return true; }
};

}  // namespace matmul_tiling
