// Undefined bytes through copies: a LoadData (LoadData3DV2, LoadDataWithSparse, DataCopyL1ToBT) moving bytes
// nothing wrote (fractal padding, say) is harmless; the destination bytes stay undefined, so only a read that
// uses them (the Cube, a Fixpipe) is reported, naming the copy.
#include <algorithm>

#include "aicore/isa/check.hpp"
#include "aicore/isa/load3d.hpp"
#include "core.hpp"

namespace aicore::check {

namespace {

void push_merged(std::vector<isa::ByteRange>& v, uint64_t lo, uint64_t hi) {
  if (!v.empty() && v.back().end == lo)
    v.back().end = hi;
  else
    v.push_back(isa::ByteRange{lo, hi});
}

void coalesce(std::vector<isa::ByteRange>& v) {
  std::sort(v.begin(), v.end(), [](isa::ByteRange a, isa::ByteRange b) { return a.begin < b.begin; });
  size_t w = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i].begin <= v[w].end)
      v[w].end = std::max(v[w].end, v[i].end);
    else
      v[++w] = v[i];
  }
  if (!v.empty()) v.resize(w + 1);
}

// The undefined bytes of `src` inside [from, from + n), moved to start at `to`.
void shift_into(const std::vector<isa::ByteRange>& src, uint64_t from, uint64_t n, uint64_t to,
                std::vector<isa::ByteRange>& out) {
  auto it = std::upper_bound(src.begin(), src.end(), from,
                             [](uint64_t v, const isa::ByteRange& r) { return v < r.end; });
  for (; it != src.end() && it->begin < from + n; ++it) {
    const uint64_t lo = std::max(it->begin, from), hi = std::min(it->end, from + n);
    out.push_back(isa::ByteRange{to + (lo - from), to + (hi - from)});
  }
}

// The same for one b16 fractal that LoadData transposes (element (r, c) goes to (c, r)).
void transpose_into(const std::vector<isa::ByteRange>& src, uint64_t from, uint64_t to,
                    std::vector<isa::ByteRange>& out) {
  std::vector<isa::ByteRange> part;
  shift_into(src, from, isa::kFractalBytes, 0, part);
  if (part.empty()) return;
  bool moved[isa::kFractalBytes] = {};
  for (const isa::ByteRange& r : part)
    for (uint64_t b = r.begin; b < r.end; ++b) {
      const uint64_t e = b / 2, row = e / 16, col = e % 16;
      moved[(col * 16 + row) * 2 + b % 2] = true;
    }
  for (uint64_t b = 0; b < isa::kFractalBytes; ++b)
    if (moved[b]) push_merged(out, to + b, to + b + 1);
}

}  // namespace

// A load copies bytes nothing wrote (fractal padding in L1, say) without harm; only a later
// read that uses them (the Cube, a Fixpipe) is an error. So the copied bytes stay undefined.
void CoreChecker::propagate_undefined(const isa::Op& op) {
  bool any = false;
  for (size_t i = 0; i < acc_->size(); ++i) any = any || !undefined_[i].empty();
  if (!any) return;
  std::vector<isa::ByteRange> out;
  const auto mark = [&](isa::Space s) {
    coalesce(out);
    buffer(s).map.update(out, [](ShadowCell& c, uint64_t, uint64_t) { c.defined = false; });
    out.clear();
  };
  if (const auto* ld = std::get_if<isa::LoadData>(&op)) {
    for (uint64_t i = 0; i < ld->repeatTimes; ++i) {
      const uint64_t s = ld->src.offset + (uint64_t{ld->startIndex} + i * ld->srcStride) * isa::kFractalBytes;
      const uint64_t d = ld->dst.offset + i * (uint64_t{ld->dstGap} + 1) * isa::kFractalBytes;
      if (ld->ifTranspose)
        transpose_into(undefined_[0], s, d, out);
      else
        shift_into(undefined_[0], s, isa::kFractalBytes, d, out);
    }
    mark(ld->dst.space);
    return;
  }
  if (const auto* l3 = std::get_if<isa::LoadData3DV2>(&op)) {
    // Each window element from its map element: an element with an undefined byte lands
    // undefined (padding elements are defined: padValue).
    const isa::Load3DShape sh = isa::load3d_shape(*l3);
    const std::vector<isa::ByteRange>& u = undefined_[0];  // the src operand (read before dst)
    const auto undefined = [&](uint64_t lo, uint64_t hi) {
      auto it = std::upper_bound(u.begin(), u.end(), lo,
                                 [](uint64_t v, const isa::ByteRange& r) { return v < r.end; });
      return it != u.end() && it->begin < hi;
    };
    for (uint64_t i = 0; i < l3->mExtension; ++i)
      for (uint64_t j = 0; j < l3->kExtension; j += sh.c0) {
        const int64_t g = isa::load3d_source_group(*l3, sh, l3->mStartPt + i, l3->kStartPt + j);
        if (g < 0) continue;
        const uint64_t group = l3->src.offset + static_cast<uint64_t>(g);
        if (!undefined(group, group + 32)) continue;
        if (l3->dtype == isa::DType::Int4) {  // the group moves whole: byte b to byte b of its row
          const uint64_t d = l3->dst.offset + isa::load3d_dest(*l3, sh, i, j);
          for (uint64_t b = 0; b < 32; ++b)
            if (undefined(group + b, group + b + 1)) out.push_back(isa::ByteRange{d + b, d + b + 1});
          continue;
        }
        for (uint64_t e = 0; e < sh.c0; ++e)
          if (undefined(group + e * sh.size, group + (e + 1) * sh.size)) {
            const uint64_t d = l3->dst.offset + isa::load3d_dest(*l3, sh, i, j + e);
            out.push_back(isa::ByteRange{d, d + sh.size});
          }
      }
    mark(l3->dst.space);
    return;
  }
  if (const auto* lt = std::get_if<isa::LoadDataWithTranspose>(&op)) {
    // Each destination element from its element of the square: one with an undefined byte
    // lands undefined.
    const std::vector<isa::ByteRange>& u = undefined_[0];  // the src operand (read before dst)
    const auto undefined = [&](uint64_t lo, uint64_t hi) {
      auto it = std::upper_bound(u.begin(), u.end(), lo,
                                 [](uint64_t v, const isa::ByteRange& r) { return v < r.end; });
      return it != u.end() && it->begin < hi;
    };
    const uint64_t square = isa::transpose_square_bytes(lt->dtype), es = isa::byte_size(lt->dtype);
    const bool b4 = lt->dtype == isa::DType::Int4;  // nibbles: a destination byte from two of them
    const uint32_t fractals = isa::transpose_fractals(lt->dtype), cols = isa::k0_of(lt->dtype);
    for (uint64_t i = 0; i < lt->repeatTimes; ++i) {
      const uint64_t s = lt->src.offset + (uint64_t{lt->startIndex} + i * lt->srcStride) * square;
      if (!undefined(s, s + square)) continue;
      for (uint32_t f = 0; f < fractals; ++f) {
        const uint64_t d = isa::transpose_dst_fractal(*lt, i, f);
        for (uint32_t k = 0; k < 16; ++k)
          for (uint32_t j = 0; j < cols; ++j) {
            if (b4) {
              const uint64_t from = s + isa::transpose_source(lt->dtype, f, k, j) / 2;
              if (undefined(from, from + 1))
                out.push_back(isa::ByteRange{d + k * 32 + j / 2, d + k * 32 + j / 2 + 1});
              continue;
            }
            const uint64_t from = s + isa::transpose_source(lt->dtype, f, k, j);
            if (undefined(from, from + es))
              out.push_back(isa::ByteRange{d + k * 32 + j * es, d + k * 32 + (j + 1) * es});
          }
      }
    }
    mark(lt->dst.space);
    return;
  }
  if (const auto* bt = std::get_if<isa::DataCopyL1ToBT>(&op)) {
    // Block by block; with convControl each half lands as a 4-byte float, undefined if any of its
    // two bytes is (padding after a bias row in L1, say: harmless unless a Mmad reads that cell).
    const uint64_t src_len = isa::bt_src_block_bytes(*bt),
                   dst_len = uint64_t{bt->blockLen} * isa::kBiasBlockBytes;
    for (uint64_t i = 0; i < bt->blockCount; ++i) {
      const uint64_t s = bt->src.offset + i * (src_len + uint64_t{bt->srcGap} * 32);
      const uint64_t d = bt->dst.offset + i * (dst_len + uint64_t{bt->dstGap} * isa::kBiasBlockBytes);
      if (!bt->convControl) {
        shift_into(undefined_[0], s, src_len, d, out);
        continue;
      }
      std::vector<isa::ByteRange> part;
      shift_into(undefined_[0], s, src_len, 0, part);
      for (const isa::ByteRange& r : part)
        for (uint64_t e = r.begin / 2; e < (r.end + 1) / 2; ++e) push_merged(out, d + 4 * e, d + 4 * e + 4);
    }
    mark(isa::Space::BiasTable);
    return;
  }
  const auto& ls = std::get<isa::LoadDataWithSparse>(op);
  const uint64_t r = ls.repeatTimes;
  shift_into(undefined_[0], ls.src.offset + uint64_t{ls.startIndex} * isa::kFractalBytes,
             r * isa::kFractalBytes, ls.dst.offset, out);
  mark(isa::Space::L0B);
  shift_into(undefined_[1], ls.idx.offset + uint64_t{ls.startIndex} * isa::kIndexFractalBytes,
             r * isa::kIndexFractalBytes, ls.dst.offset / 4, out);
  mark(isa::Space::SparseIndex);
}

void CoreChecker::propagate_bias(const isa::MmadCommon& mm, const std::vector<isa::ByteRange>& undefined) {
  std::vector<isa::ByteRange> out;
  const uint64_t m1n = isa::ceil_div(mm.m, 16);
  for (const isa::ByteRange& r : undefined)
    for (uint64_t n = (r.begin - mm.biasAddr) / 4; n < (r.end - mm.biasAddr + 3) / 4 && n < mm.n; ++n)
      for (uint64_t m1 = 0; m1 < m1n; ++m1)
        for (uint64_t row = 0; row < 16; ++row) {
          const uint64_t at =
              mm.dst.offset + ((n / 16) * m1n + m1) * isa::kCFractalBytes + row * 64 + (n % 16) * 4;
          out.push_back(isa::ByteRange{at, at + 4});
        }
  coalesce(out);
  buffer(isa::Space::L0C).map.update(out, [](ShadowCell& c, uint64_t, uint64_t) { c.defined = false; });
}

}  // namespace aicore::check
