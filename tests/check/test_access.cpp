// isa::exact_accesses against a byte-by-byte enumeration written straight from the layout
// formulas (element by element, no fractal blocks, no coalescing), on random fields.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "aicore/isa/access.hpp"
#include "aicore/isa/check.hpp"

#include "../support/load3d_reference.hpp"

using namespace aicore;
using isa::Space;

namespace {

// (space, tensor, write) -> every byte offset.
using Bytes = std::map<std::tuple<Space, uint32_t, bool>, std::set<uint64_t>>;

struct Brute {
  Bytes bytes;
  void add(Space s, uint32_t t, bool w, uint64_t b, uint64_t n = 1) {
    for (uint64_t i = 0; i < n; ++i) bytes[{s, t, w}].insert(b + i);
  }

  void operator()(const isa::DataCopy& o) {
    for (uint64_t i = 0; i < o.blockCount; ++i) {
      add(Space::GM, o.src.tensor, false, o.src.offset + i * (o.blockLen + o.srcGap) * 32, o.blockLen * 32u);
      add(Space::L1, 0, true, o.dst.offset + i * (o.blockLen + o.dstGap) * 32, o.blockLen * 32u);
    }
  }
  void operator()(const isa::DataCopyNd2Nz& o) {
    // Element counts in bits, then bytes (int4: half a byte an element, counts even).
    const uint64_t bits = isa::bits_of(o.dtype), row = o.dValue * bits / 8;
    for (uint64_t d = 0; d < o.ndNum; ++d)
      for (uint64_t r = 0; r < o.nValue; ++r)
        for (uint64_t x = 0; x < isa::ceil_div(row, 32) * 32; ++x) {
          const uint64_t c = x / 32;
          add(Space::L1, 0, true,
              o.dst.offset + d * o.dstNzMatrixStride * bits / 8 + r * o.dstNzNStride * 32 +
                  c * o.dstNzC0Stride * 32 + x % 32);
          if (x < row)
            add(Space::GM, o.src.tensor, false,
                o.src.offset + (d * o.srcNdMatrixStride + r * o.srcDValue) * bits / 8 + x);
        }
  }
  void operator()(const isa::LoadData& o) {
    for (uint64_t i = 0; i < o.repeatTimes; ++i) {
      add(Space::L1, 0, false, o.src.offset + (o.startIndex + i * o.srcStride) * 512, 512);
      add(o.dst.space, 0, true, o.dst.offset + i * (o.dstGap + 1) * 512, 512);
    }
  }
  void operator()(const isa::LoadDataWithSparse& o) {
    for (uint64_t i = 0; i < o.repeatTimes; ++i) {
      add(Space::L1, 0, false, o.src.offset + (o.startIndex + i) * 512, 512);
      add(Space::L1, 0, false, o.idx.offset + (o.startIndex + i) * 128, 128);
      add(Space::L0B, 0, true, o.dst.offset + i * 512, 512);
      add(Space::SparseIndex, 0, true, (o.dst.offset + i * 512) / 4, 128);
    }
  }
  void operator()(const isa::LoadData3DV2& o) {  // the C0 groups of each element read, each element written
    if (!o.l1H || !o.l1W || !o.channelSize || !o.kExtension || !o.mExtension) return;
    const uint64_t es = isa::byte_size(o.dtype);
    for (const ref3d::Element& e : ref3d::im2col(o)) {
      if (!e.pad) add(Space::L1, 0, false, o.src.offset + static_cast<uint64_t>(e.src) / 32 * 32, 32);
      add(o.dst.space, 0, true, o.dst.offset + e.dst, es);
    }
  }
  // Each repeat reads its whole square (1 or 2 fractals, as the dtype) and writes as many whole
  // fractals, the second (dstFracGap + 1) fractals after the first.
  void operator()(const isa::LoadDataWithTranspose& o) {
    const uint64_t n = isa::byte_size(o.dtype) == 2 ? 1 : 2;
    for (uint64_t i = 0; i < o.repeatTimes; ++i) {
      add(Space::L1, 0, false, o.src.offset + (o.startIndex + i * o.srcStride) * n * 512, n * 512);
      for (uint64_t f = 0; f < n; ++f)
        add(o.dst.space, 0, true, o.dst.offset + (i * (o.dstGap + 1) + f * (o.dstFracGap + 1)) * 512, 512);
    }
  }
  void operator()(const isa::DataCopyL1ToBT& o) {
    const uint64_t per = o.convControl ? 32 : 64;  // L1 bytes per 64 bytes of the table
    for (uint64_t i = 0; i < o.blockCount; ++i) {
      add(Space::L1, 0, false, o.src.offset + i * (o.blockLen * per + o.srcGap * 32u), o.blockLen * per);
      add(Space::BiasTable, 0, true, o.dst.offset + i * (o.blockLen + o.dstGap) * 64u, o.blockLen * 64u);
    }
  }
  void c_matrix(const isa::MmadCommon& o) {
    const uint64_t m1 = isa::ceil_div(o.m, 16), n1 = isa::ceil_div(o.n, 16);
    add(Space::L0C, 0, true, o.dst.offset, m1 * n1 * 1024);
    const bool from_zero = o.cmatrixInitVal && !o.isBias;
    if (!from_zero && o.cmatrixSource) add(Space::BiasTable, 0, false, o.biasAddr, o.n * 4u);
    if (from_zero || o.cmatrixSource) return;  // C starts from zero or from the bias: no L0C read
    for (uint64_t m = 0; m < o.m; ++m)
      for (uint64_t n = 0; n < o.n; ++n)
        add(Space::L0C, 0, false,
            o.dst.offset + ((n / 16) * m1 + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4, 4);
  }
  void operator()(const isa::Mmad& o) {
    if (!o.m || !o.n || !o.k) return;
    // Element k of a fractal row at bit k * bits (int4: two a byte, the byte read whole).
    const uint64_t bits = isa::bits_of(o.dtype), es = bits < 8 ? 1 : bits / 8, k0 = 256 / bits,
                   k1 = isa::ceil_div(o.k, k0);
    const uint64_t n1 = isa::ceil_div(o.n, 16);
    for (uint64_t m = 0; m < o.m; ++m)
      for (uint64_t k = 0; k < o.k; ++k)
        add(Space::L0A, 0, false,
            o.fm.offset + ((m / 16) * k1 + k / k0) * 512 + (m % 16) * 32 + (k % k0) * bits / 8, es);
    for (uint64_t k = 0; k < o.k; ++k)
      for (uint64_t n = 0; n < o.n; ++n)
        add(Space::L0B, 0, false,
            o.filter.offset + ((k / k0) * n1 + n / 16) * 512 + (n % 16) * 32 + (k % k0) * bits / 8, es);
    c_matrix(o);
  }
  void operator()(const isa::MmadWithSparse& o) {
    if (!o.m || !o.n || !o.k) return;
    const uint64_t k1 = isa::ceil_div(o.k, 32), n1 = isa::ceil_div(o.n, 16);
    for (uint64_t m = 0; m < o.m; ++m)
      for (uint64_t k = 0; k < o.k; ++k)
        add(Space::L0A, 0, false, o.fm.offset + ((m / 16) * k1 + k / 32) * 512 + (m % 16) * 32 + k % 32);
    for (uint64_t kd = 0; kd < o.k / 2u; ++kd)
      for (uint64_t n = 0; n < o.n; ++n) {
        const uint64_t frac = (kd / 32) * n1 + n / 16;
        add(Space::L0B, 0, false, o.filter.offset + frac * 512 + (n % 16) * 32 + kd % 32);
        add(Space::SparseIndex, 0, false, o.filter.offset / 4 + frac * 128 + (n % 16) * 8 + (kd % 32) / 4);
      }
    c_matrix(o);
  }
  void operator()(const isa::Fixpipe& o) {
    for (uint64_t nd = 0; nd < o.ndNum; ++nd)
      for (uint64_t j = 0; j < o.mSize; ++j)
        for (uint64_t n = 0; n < o.nSize; ++n) {  // one cell per column, partial last block too
          add(Space::L0C, 0, false,
              o.src.offset + nd * o.srcNdStride * 1024 + ((n / 16) * o.srcStride + j) * 64 + (n % 16) * 4, 4);
          if (o.nz)  // column block n / 16 at dstStride x 32 bytes, row j of 16 cells
            add(Space::GM, o.dst.tensor, true,
                o.dst.offset + (n / 16) * o.dstStride * 32 + j * 64 + (n % 16) * 4, 4);
          else
            add(Space::GM, o.dst.tensor, true, o.dst.offset + (nd * o.dstNdStride + j * o.dstStride + n) * 4,
                4);
        }
  }
  void operator()(const isa::SetFlag&) {}
  void operator()(const isa::WaitFlag&) {}
  void operator()(const isa::PipeBarrier&) {}
  void operator()(const isa::SyncAll&) {}
  void operator()(const isa::SetAtomicAdd&) {}
  void operator()(const isa::SetAtomicNone&) {}
};

// Checks exact_accesses(op) against the brute force and its own contract.
void compare(const isa::Op& op) {
  INFO(isa::mnemonic(op));
  Brute brute;
  std::visit(brute, op);
  isa::AccessList acc;
  isa::exact_accesses(op, acc);
  Bytes got;
  bool seen_write = false;
  for (const isa::OperandAccess& o : acc) {
    CAPTURE(o.operand);
    CHECK(o.exact);
    CHECK_FALSE(o.ranges.empty());
    if (o.write) seen_write = true;
    CHECK((o.write || !seen_write));  // reads before writes
    for (size_t i = 0; i < o.ranges.size(); ++i) {
      CHECK(o.ranges[i].begin < o.ranges[i].end);
      if (i) CHECK(o.ranges[i - 1].end < o.ranges[i].begin);  // sorted, disjoint, not touching
      for (uint64_t b = o.ranges[i].begin; b < o.ranges[i].end; ++b)
        got[{o.space, o.tensor, o.write}].insert(b);
    }
  }
  CHECK(got == brute.bytes);
  // Every exact range lies in an extent of the hull footprint the model uses for bounds.
  for (const isa::OperandAccess& o : acc)
    for (const isa::ByteRange& r : o.ranges) {
      bool inside = false;
      for (const isa::Extent& e : isa::footprint(op))
        inside = inside || (e.space == o.space && e.tensor == o.tensor && e.write == o.write &&
                            r.begin >= e.begin && r.end <= e.end);
      CHECK(inside);
    }
  // The hull-only GM source (checker's fast path) has the same hull.
  isa::AccessList hull;
  isa::exact_accesses(op, hull, false);
  REQUIRE(hull.size() == acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    if (hull[i].exact) continue;
    CHECK(hull[i].ranges.size() == 1);
    CHECK(hull[i].ranges[0].begin == acc[i].ranges.front().begin);
    CHECK(hull[i].ranges[0].end == acc[i].ranges.back().end);
  }
}

isa::Addr at(Space s, uint64_t off, uint32_t tensor = 0) {
  return isa::Addr{s, tensor, off};
}

}  // namespace

TEST_CASE("exact accesses: DataCopy blocks and gaps", "[check][access]") {
  std::mt19937 rng(1);
  for (int i = 0; i < 200; ++i) {
    isa::DataCopy o;
    o.src = at(Space::GM, rng() % 100, 1 + rng() % 2);
    o.dst = at(Space::L1, rng() % 8 * 32);
    o.blockCount = static_cast<uint16_t>(rng() % 5);
    o.blockLen = static_cast<uint16_t>(rng() % 4);
    o.srcGap = static_cast<uint16_t>(rng() % 3);
    o.dstGap = static_cast<uint16_t>(rng() % 3);
    compare(o);
  }
}

TEST_CASE("exact accesses: DataCopyNd2Nz rows, blocks and padded last block", "[check][access]") {
  std::mt19937 rng(2);
  for (int i = 0; i < 300; ++i) {
    isa::DataCopyNd2Nz o;
    o.dtype = rng() % 2 ? isa::DType::Int8 : isa::DType::Half;
    o.src = at(Space::GM, rng() % 64);
    o.dst = at(Space::L1, rng() % 4 * 32);
    o.ndNum = static_cast<uint16_t>(1 + rng() % 3);
    o.nValue = static_cast<uint16_t>(rng() % 20);
    o.dValue = static_cast<uint16_t>(1 + rng() % 70);
    o.srcDValue = static_cast<uint16_t>(o.dValue + rng() % 3 * (rng() % 2 ? 1 : 8));
    o.srcNdMatrixStride = static_cast<uint16_t>(rng() % 3 * 500);
    o.dstNzC0Stride = static_cast<uint16_t>(rng() % 3 ? o.nValue + rng() % 3 : rng() % 5);
    o.dstNzNStride = static_cast<uint16_t>(rng() % 4 ? 1 : rng() % 3);
    o.dstNzMatrixStride = static_cast<uint16_t>(rng() % 3 * 2048);
    compare(o);
  }
}

TEST_CASE("exact accesses: int4 DataCopyNd2Nz (even counts, two elements a byte) and int4 Mmad",
          "[check][access][int4]") {
  std::mt19937 rng(44);
  const auto even = [&](uint32_t n) { return static_cast<uint16_t>(2 * (rng() % n)); };
  for (int i = 0; i < 200; ++i) {
    isa::DataCopyNd2Nz o;
    o.dtype = isa::DType::Int4;
    o.src = at(Space::GM, rng() % 64);
    o.dst = at(Space::L1, rng() % 4 * 32);
    o.ndNum = static_cast<uint16_t>(1 + rng() % 3);
    o.nValue = static_cast<uint16_t>(rng() % 20);
    o.dValue = static_cast<uint16_t>(2 + even(70));
    o.srcDValue = static_cast<uint16_t>(o.dValue + even(9));
    o.srcNdMatrixStride = static_cast<uint16_t>(rng() % 3 * 1000);
    o.dstNzC0Stride = static_cast<uint16_t>(rng() % 3 ? o.nValue + rng() % 3 : rng() % 5);
    o.dstNzNStride = static_cast<uint16_t>(rng() % 4 ? 1 : rng() % 3);
    o.dstNzMatrixStride = static_cast<uint16_t>(rng() % 3 * 4096);
    compare(o);
    isa::Mmad m;
    m.dtype = isa::DType::Int4;
    m.dst = at(Space::L0C, rng() % 4 * 64);
    m.fm = at(Space::L0A, rng() % 3 * 512);
    m.filter = at(Space::L0B, rng() % 3 * 512);
    m.m = static_cast<uint16_t>(rng() % 50);
    m.n = static_cast<uint16_t>(rng() % 50);
    m.k = static_cast<uint16_t>(rng() % 150);  // odd k too: the last byte's low nibble only
    m.cmatrixInitVal = rng() % 2;
    compare(m);
  }
}

TEST_CASE("exact accesses: LoadData strides, gaps, re-reads and LoadDataWithSparse", "[check][access]") {
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    isa::LoadData o;
    o.dst = at(rng() % 2 ? Space::L0A : Space::L0B, rng() % 4 * 512);
    o.src = at(Space::L1, rng() % 4 * 32);
    o.startIndex = static_cast<uint16_t>(rng() % 5);
    o.repeatTimes = static_cast<uint8_t>(rng() % 9);
    o.srcStride = static_cast<uint16_t>(rng() % 4);  // 0: the same fractal again
    o.dstGap = static_cast<uint16_t>(rng() % 3);
    compare(o);
    isa::LoadDataWithSparse s;
    s.dst = at(Space::L0B, rng() % 4 * 512);
    s.src = at(Space::L1, rng() % 4 * 32);
    s.idx = at(Space::L1, 0x10000 + rng() % 4 * 32);
    s.startIndex = static_cast<uint16_t>(rng() % 5);
    s.repeatTimes = static_cast<uint8_t>(rng() % 9);
    compare(s);
  }
}

TEST_CASE("exact accesses: LoadDataWithTranspose squares and the fractals of each repeat",
          "[check][access]") {
  std::mt19937 rng(21);
  const isa::DType types[] = {isa::DType::Int8, isa::DType::Half, isa::DType::BF16, isa::DType::Float,
                              isa::DType::Int32};
  for (int i = 0; i < 300; ++i) {
    isa::LoadDataWithTranspose o;
    o.dtype = types[rng() % 5];
    o.src = at(Space::L1, rng() % 4 * 32);
    o.dst = at(rng() % 2 ? Space::L0A : Space::L0B, rng() % 3 * 512);
    o.startIndex = static_cast<uint16_t>(rng() % 3);
    o.repeatTimes = static_cast<uint8_t>(rng() % 5);
    o.srcStride = static_cast<uint16_t>(rng() % 3);
    o.dstGap = static_cast<uint16_t>(rng() % 3);
    o.dstFracGap = static_cast<uint16_t>(rng() % 3);
    compare(o);
  }
}

TEST_CASE("exact accesses: DataCopyL1ToBT blocks, gaps and the half-size source of convControl",
          "[check][access]") {
  std::mt19937 rng(33);
  for (int i = 0; i < 300; ++i) {
    isa::DataCopyL1ToBT o;
    o.src = at(Space::L1, rng() % 4 * 32);
    o.dst = at(Space::BiasTable, rng() % 3 * 64);
    o.blockCount = static_cast<uint16_t>(rng() % 4);
    o.blockLen = static_cast<uint16_t>(rng() % 3);
    o.srcGap = static_cast<uint16_t>(rng() % 3);
    o.dstGap = static_cast<uint16_t>(rng() % 2);
    o.convControl = rng() % 2;
    compare(o);
  }
}

TEST_CASE("exact accesses: LoadData3DV2 reads the map's C0 groups of the window, skips padding",
          "[check][access]") {
  std::mt19937 rng(9);
  int ran = 0;
  for (int i = 0; i < 400; ++i) {
    isa::LoadData3DV2 o;
    const int kind =
        static_cast<int>(rng() % 4);  // 0 int8 L0A, 1 half L0A, 2 half L0A transposed, 3 half L0B
    o.dtype = kind == 0 ? isa::DType::Int8 : (rng() % 2 ? isa::DType::Half : isa::DType::Float);
    if (kind >= 2) o.dtype = isa::DType::BF16;
    o.dst = at(kind == 3 ? Space::L0B : Space::L0A, rng() % 3 * 512);
    o.enTranspose = kind == 2;
    o.src = at(Space::L1, rng() % 4 * 32);
    const uint32_t c0 = 32 / isa::byte_size(o.dtype);
    o.l1H = static_cast<uint16_t>(1 + rng() % 5);
    o.l1W = static_cast<uint16_t>(1 + rng() % 9);
    o.channelSize = static_cast<uint16_t>(c0 * (1 + rng() % 2));
    o.filterH = static_cast<uint8_t>(1 + rng() % 3);
    o.filterW = static_cast<uint8_t>(1 + rng() % 3);
    o.strideH = static_cast<uint8_t>(1 + rng() % 2);
    o.strideW = static_cast<uint8_t>(1 + rng() % 3);
    o.dilationFilterH = static_cast<uint8_t>(1 + rng() % 2);
    o.dilationFilterW = static_cast<uint8_t>(1 + rng() % 2);
    o.padLeft = static_cast<uint8_t>(rng() % 2);
    o.padRight = static_cast<uint8_t>(rng() % 2);
    o.padTop = static_cast<uint8_t>(rng() % 3);
    o.padBottom = static_cast<uint8_t>(rng() % 2);
    const auto rows =
        ref3d::positions(o.l1H, o.padTop, o.padBottom, o.filterH, o.dilationFilterH, o.strideH) *
        ref3d::positions(o.l1W, o.padLeft, o.padRight, o.filterW, o.dilationFilterW, o.strideW);
    const uint32_t cols = o.channelSize * o.filterH * o.filterW;
    if (rows == 0) continue;
    o.mStartPt = static_cast<uint16_t>(rng() % rows);
    o.mExtension = static_cast<uint16_t>(rows - o.mStartPt);  // to the last row: any count
    if (o.mExtension > 16 && rng() % 2) o.mExtension = 16;
    o.kStartPt = static_cast<uint16_t>(rng() % (cols / c0) * c0);
    o.kExtension = static_cast<uint16_t>((1 + rng() % ((cols - o.kStartPt) / c0)) * c0);
    REQUIRE_NOTHROW(isa::check_fields(o));
    compare(o);
    ++ran;
  }
  CHECK(ran > 300);
}

TEST_CASE("exact accesses: Mmad reads only rows < m, k < K, columns < n", "[check][access]") {
  std::mt19937 rng(4);
  const isa::DType types[] = {isa::DType::Int8, isa::DType::Half, isa::DType::BF16, isa::DType::Float};
  for (int i = 0; i < 400; ++i) {
    isa::Mmad o;
    o.dtype = types[rng() % 4];
    o.dst = at(Space::L0C, rng() % 4 * 64);
    o.fm = at(Space::L0A, rng() % 3 * 512);
    o.filter = at(Space::L0B, rng() % 3 * 512);
    o.m = static_cast<uint16_t>(rng() % 50);
    o.n = static_cast<uint16_t>(rng() % 50);
    o.k = static_cast<uint16_t>(rng() % 80);
    o.cmatrixInitVal = rng() % 2;
    o.isBias = rng() % 4 == 0;
    o.cmatrixSource = rng() % 3 == 0;
    o.biasAddr = o.cmatrixSource ? static_cast<uint32_t>(rng() % 4 * 64) : 0;
    compare(o);
    isa::MmadWithSparse s;
    s.dst = at(Space::L0C, rng() % 4 * 1024);
    s.fm = at(Space::L0A, rng() % 3 * 512);
    s.filter = at(Space::L0B, rng() % 3 * 512);
    s.m = static_cast<uint16_t>(rng() % 40);
    s.n = static_cast<uint16_t>(rng() % 40);
    s.k = static_cast<uint16_t>(rng() % 40 * 4);
    s.cmatrixInitVal = rng() % 2;
    s.cmatrixSource = rng() % 3 == 0;
    s.biasAddr = s.cmatrixSource ? static_cast<uint32_t>(rng() % 4 * 64) : 0;
    compare(s);
  }
}

TEST_CASE("exact accesses: Fixpipe rows of column blocks, partial last block, ndNum", "[check][access]") {
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    isa::Fixpipe o;
    o.src = at(Space::L0C, rng() % 4 * 64);
    o.dst = at(Space::GM, rng() % 100, 2);
    o.nSize = static_cast<uint16_t>(i % 2 ? rng() % 5 * 16 : rng() % 70);  // tails: any column count
    o.mSize = static_cast<uint16_t>(rng() % 20);
    o.srcStride = static_cast<uint16_t>(o.mSize + rng() % 3);
    o.dstStride = o.nSize + rng() % 3 * 16;
    o.ndNum = static_cast<uint16_t>(1 + rng() % 3);
    o.srcNdStride = static_cast<uint16_t>(1 + rng() % 3);
    o.dstNdStride = static_cast<uint16_t>(1 + rng() % 5000);
    compare(o);
  }
}

TEST_CASE("exact accesses: Fixpipe NZ output, column blocks dstStride x 32 bytes apart", "[check][access]") {
  std::mt19937 rng(15);
  for (int i = 0; i < 200; ++i) {
    isa::Fixpipe o;
    o.nz = true;
    o.src = at(Space::L0C, rng() % 4 * 64);
    o.dst = at(Space::GM, rng() % 4 * 32, 2);
    o.nSize = static_cast<uint16_t>((1 + rng() % 4) * 16);
    o.mSize = static_cast<uint16_t>(rng() % 20);
    o.srcStride = static_cast<uint16_t>(o.mSize + rng() % 3);
    o.dstStride = o.mSize * 2 + rng() % 3;  // 32-byte units: 2 per 16 float cells; gaps too
    compare(o);
  }
}

TEST_CASE("exact accesses: no-ops and sync instructions touch nothing", "[check][access]") {
  isa::AccessList acc;
  for (const isa::Op& op : {isa::Op(isa::SetFlag{}), isa::Op(isa::WaitFlag{}), isa::Op(isa::PipeBarrier{}),
                            isa::Op(isa::LoadData{}), isa::Op(isa::Mmad{}), isa::Op(isa::DataCopy{})}) {
    isa::exact_accesses(op, acc);
    CHECK(acc.size() == 0);
  }
}
