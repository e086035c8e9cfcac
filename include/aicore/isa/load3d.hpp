// The geometry of LoadData3DV2 (Load3Dv2, docs/semantics.md "LoadData3DV2"), shared by the field
// checks, the semantics and the checker's exact footprint so that the three agree.
//
// The feature map in L1 is NC1HWC0 with N = 1: element (c, h, w) at byte
// ((c / C0 * l1H + h) * l1W + w) * 32 + (c % C0) * size, C0 = 32 / size. Its im2col matrix has
// Ho * Wo rows (row m: output position oh = m / Wo, ow = m % Wo) and C1 * Hk * Wk * C0 columns
// (column k: c1, kh, kw, c0 with k = ((c1 * Hk + kh) * Wk + kw) * C0 + c0); element (m, k) is the
// map at h = oh * strideH - padTop + kh * dilationFilterH, w = ow * strideW - padLeft +
// kw * dilationFilterW, channel c1 * C0 + c0, or padValue outside the map.
#pragma once
#include <cstdint>

#include "aicore/isa/instructions.hpp"

namespace aicore::isa {

struct Load3DShape {
  bool noop = false;  // a zero size (the docs: the instruction does nothing)
  uint32_t size = 0;  // element bytes
  uint32_t c0 = 0, c1 = 0;
  uint32_t hk = 0, wk = 0;      // filter, with filterSizeH/W
  uint32_t ho = 0, wo = 0;      // output positions along H and W
  uint64_t rows = 0, cols = 0;  // the im2col matrix: Ho * Wo by C1 * Hk * Wk * C0
  uint64_t map_bytes = 0;       // the feature map in L1: C1 * l1H * l1W * 32
  uint64_t m1 = 0, k1 = 0;      // destination fractals along the window's rows and columns
  uint64_t dst_bytes = 0;       // m1 * k1 whole fractals (transposed into L0A: the transposed window's)
};

// Call on an op whose fields passed check_fields() for the rules that keep ho/wo positive.
Load3DShape load3d_shape(const LoadData3DV2& op);

// The byte offset from src of the 32-byte C0 group that im2col element (m, k) belongs to (k a
// multiple of C0), or -1 when it falls in the padding.
int64_t load3d_source_group(const LoadData3DV2& op, const Load3DShape& s, uint64_t m, uint64_t k);

// The byte offset from dst where window element (i, j) (row mStartPt + i, column kStartPt + j) lands:
// L0A zZ (fractal (i / 16, j / C0) row-major, row i % 16); L0A with enTranspose (b16, b32) the zZ
// of the transposed window (fractal (j / 16, i / C0), row j % 16); L0B (b16) the window's zZ
// fractals each transposed.
uint64_t load3d_dest(const LoadData3DV2& op, const Load3DShape& s, uint64_t i, uint64_t j);

}  // namespace aicore::isa
