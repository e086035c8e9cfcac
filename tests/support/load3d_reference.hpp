// A naive Load3Dv2 (LoadData3DV2) written apart from src/isa/load3d.cpp: the convolution's
// im2col built loop by loop (output positions, then channel blocks, filter rows, filter columns,
// channels within the block), each element located in the NC1HWC0 map and in the destination
// layout (docs/semantics.md, "LoadData3DV2"). For tests only.
#pragma once
#include <cstdint>
#include <vector>

#include "aicore/isa/instructions.hpp"
#include "aicore/isa/types.hpp"

namespace ref3d {

struct Element {
  uint32_t c = 0, h = 0, w = 0;  // the map element it copies (when !pad)
  bool pad = false;
  int64_t src = -1;  // its byte offset from src (-1: padding)
  uint64_t dst = 0;  // where it lands, bytes from dst
};

// Output positions along one axis: the filter's first tap walks from -pad_a in steps of `stride`
// while its last tap stays inside the padded axis.
inline uint32_t positions(uint32_t in, uint32_t pad_a, uint32_t pad_b, uint32_t taps, uint32_t dilation,
                          uint32_t stride) {
  uint32_t n = 0;
  for (int64_t first = 0; first + int64_t{dilation} * (taps - 1) < int64_t{in} + pad_a + pad_b;
       first += stride)
    ++n;
  return n;
}

// Every element the window writes, in window order (row-major over mExtension x kExtension).
inline std::vector<Element> im2col(const aicore::isa::LoadData3DV2& o) {
  using aicore::isa::Space;
  const uint32_t es = aicore::isa::byte_size(o.dtype), c0 = 32 / es;
  const uint32_t hk = o.filterH + (o.filterSizeH ? 256 : 0), wk = o.filterW + (o.filterSizeW ? 256 : 0);
  const uint32_t ho = positions(o.l1H, o.padTop, o.padBottom, hk, o.dilationFilterH, o.strideH);
  const uint32_t wo = positions(o.l1W, o.padLeft, o.padRight, wk, o.dilationFilterW, o.strideW);
  const uint32_t c1n = (o.channelSize + c0 - 1) / c0;
  // The whole matrix, row by row.
  std::vector<std::vector<Element>> matrix;
  for (uint32_t oh = 0; oh < ho; ++oh)
    for (uint32_t ow = 0; ow < wo; ++ow) {
      std::vector<Element> row;
      for (uint32_t c1 = 0; c1 < c1n; ++c1)
        for (uint32_t kh = 0; kh < hk; ++kh)
          for (uint32_t kw = 0; kw < wk; ++kw)
            for (uint32_t cc = 0; cc < c0; ++cc) {
              Element e;
              const int64_t h = int64_t{oh} * o.strideH - o.padTop + int64_t{kh} * o.dilationFilterH;
              const int64_t w = int64_t{ow} * o.strideW - o.padLeft + int64_t{kw} * o.dilationFilterW;
              e.pad = h < 0 || w < 0 || h >= o.l1H || w >= o.l1W;
              if (!e.pad) {
                e.c = c1 * c0 + cc;
                e.h = static_cast<uint32_t>(h);
                e.w = static_cast<uint32_t>(w);
                // NC1HWC0: [c1][h][w][c0]
                e.src = ((int64_t{c1} * o.l1H + h) * o.l1W + w) * c0 * es + int64_t{cc} * es;
              }
              row.push_back(e);
            }
      matrix.push_back(row);
    }
  // The window, placed.
  const uint64_t mf = (o.mExtension + 15) / 16;  // fractals down the window
  const uint64_t kf = (o.kExtension + c0 - 1) / c0;
  std::vector<Element> out;
  for (uint64_t i = 0; i < o.mExtension; ++i)
    for (uint64_t j = 0; j < o.kExtension; ++j) {
      Element e = matrix.at(o.mStartPt + i).at(o.kStartPt + j);
      uint64_t element;  // element index in the destination
      if (o.dst.space == Space::L0B) {
        // B (K = window rows, N = window columns) in Zn: fractal (k / 16, n / 16), rows n, columns k.
        element = ((i / 16) * kf + j / 16) * 256 + (j % 16) * 16 + i % 16;
      } else if (o.enTranspose) {
        // The transposed window (kExtension rows, mExtension columns) in zZ.
        element = ((j / 16) * mf + i / 16) * 256 + (j % 16) * 16 + i % 16;
      } else {
        // zZ: 16 x C0 fractals, row-major by fractal and inside each.
        element = ((i / 16) * kf + j / c0) * (16 * c0) + (i % 16) * c0 + j % c0;
      }
      e.dst = element * es;
      out.push_back(e);
    }
  return out;
}

}  // namespace ref3d
