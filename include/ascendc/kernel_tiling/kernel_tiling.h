// The Matmul API's tiling structure as the kernel sees it (docs/ascendc.md, "Matmul API"):
// AscendC::tiling::TCubeTiling, also named TCubeTiling at global scope, a plain struct of int32_t
// fields with the documented names. The host's optiling::TCubeTiling (tiling/tiling_api.h) has the
// same fields in the same order, so the bytes its SaveToBuffer writes are this struct; a kernel
// copies them from its tiling GM buffer (by struct copy or field by field).
#pragma once
#include <cstdint>

// The fields, in layout order: X(name) once each.
// clang-format off
#define AICORE_TCUBE_TILING_FIELDS(X) \
  X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) \
  X(baseM) X(baseN) X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) \
  X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) \
  X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) \
  X(dbL0C) X(reserved)
// clang-format on

namespace AscendC::tiling {

struct TCubeTiling {
#define AICORE_TCUBE_FIELD(name) int32_t name = 0;
  AICORE_TCUBE_TILING_FIELDS(AICORE_TCUBE_FIELD)
#undef AICORE_TCUBE_FIELD
};

}  // namespace AscendC::tiling

using TCubeTiling = AscendC::tiling::TCubeTiling;
