#include "aicore/isa/load3d.hpp"

#include "aicore/isa/check.hpp"

namespace aicore::isa {

namespace {
// Output positions along one axis; 0 when the dilated filter does not fit the padded map.
uint32_t outputs(uint32_t in, uint32_t pad_a, uint32_t pad_b, uint32_t filter, uint32_t dilation,
                 uint32_t stride) {
  const uint64_t span = uint64_t{dilation} * (filter - 1) + 1;
  const uint64_t padded = uint64_t{in} + pad_a + pad_b;
  if (padded < span || stride == 0) return 0;
  return static_cast<uint32_t>((padded - span) / stride + 1);
}
}  // namespace

Load3DShape load3d_shape(const LoadData3DV2& op) {
  Load3DShape s;
  // int4: C0 = 64 elements in a 32-byte group, moved whole (only into L0A as it is, where a group is
  // one fractal row); `size` counts it as a byte so that a group's offset within a row stays 0.
  s.size = op.dtype == DType::Int4 ? 1 : byte_size(op.dtype);
  s.c0 = k0_of(op.dtype);
  s.hk = op.filterH + (op.filterSizeH ? 256u : 0u);
  s.wk = op.filterW + (op.filterSizeW ? 256u : 0u);
  s.noop = op.l1H == 0 || op.l1W == 0 || op.channelSize == 0 || op.kExtension == 0 || op.mExtension == 0 ||
           s.hk == 0 || s.wk == 0;
  if (s.noop) return s;
  s.c1 = static_cast<uint32_t>(ceil_div(op.channelSize, s.c0));
  s.ho = outputs(op.l1H, op.padTop, op.padBottom, s.hk, op.dilationFilterH, op.strideH);
  s.wo = outputs(op.l1W, op.padLeft, op.padRight, s.wk, op.dilationFilterW, op.strideW);
  s.rows = uint64_t{s.ho} * s.wo;
  s.cols = uint64_t{s.c1} * s.hk * s.wk * s.c0;
  s.map_bytes = uint64_t{s.c1} * op.l1H * op.l1W * 32;
  s.m1 = ceil_div(op.mExtension, 16);
  s.k1 = ceil_div(op.kExtension, s.c0);
  // L0A with enTranspose holds the transposed window: kExtension rows of 16-row fractals, each
  // ceil(mExtension / C0) fractals across (b16: the same count as the window's own).
  // L0B holds the window as B in Zn: ceil(mExtension / C0) fractal rows of K, ceil(kExtension / 16)
  // of N.
  const bool transposed_a = op.enTranspose && op.dst.space == Space::L0A;
  s.dst_bytes = (transposed_a                 ? ceil_div(op.kExtension, 16) * ceil_div(op.mExtension, s.c0)
                 : op.dst.space == Space::L0B ? ceil_div(op.mExtension, s.c0) * ceil_div(op.kExtension, 16)
                                              : s.m1 * s.k1) *
                kFractalBytes;
  return s;
}

int64_t load3d_source_group(const LoadData3DV2& op, const Load3DShape& s, uint64_t m, uint64_t k) {
  const uint64_t oh = m / s.wo, ow = m % s.wo;
  const uint64_t g = k / s.c0;  // (c1 * Hk + kh) * Wk + kw
  const uint64_t kw = g % s.wk, kh = (g / s.wk) % s.hk, c1 = g / (uint64_t{s.wk} * s.hk);
  const int64_t h = static_cast<int64_t>(oh * op.strideH + kh * op.dilationFilterH) - op.padTop;
  const int64_t w = static_cast<int64_t>(ow * op.strideW + kw * op.dilationFilterW) - op.padLeft;
  if (h < 0 || w < 0 || h >= op.l1H || w >= op.l1W) return -1;
  return ((static_cast<int64_t>(c1) * op.l1H + h) * op.l1W + w) * 32;
}

uint64_t load3d_dest(const LoadData3DV2& op, const Load3DShape& s, uint64_t i, uint64_t j) {
  if (op.dst.space == Space::L0B)  // Zn: fractal (i / C0, j / 16), row j % 16 (N), element i % C0 (K)
    return ((i / s.c0) * ceil_div(op.kExtension, 16) + j / 16) * kFractalBytes + (j % 16) * 32 +
           (i % s.c0) * s.size;
  if (op.enTranspose)  // the transposed window (kExtension x mExtension) in zZ, 16 x C0 fractals
    return ((j / 16) * ceil_div(op.mExtension, s.c0) + i / s.c0) * kFractalBytes + (j % 16) * 32 +
           (i % s.c0) * s.size;
  return ((i / 16) * s.k1 + j / s.c0) * kFractalBytes + (i % 16) * 32 + (j % s.c0) * s.size;
}

}  // namespace aicore::isa
