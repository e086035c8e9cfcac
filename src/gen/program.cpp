// Instruction stream of a generated GEMM: one "step" per (output tile, k-chunk), each step
// moving its own A and B chunk GM -> L1 -> L0A/L0B and running one Mmad into the tile's
// L0C slot. Steps alternate between ping/pong slots so MTE2, MTE1, M and FIX overlap.
#include <algorithm>

#include "aicore/gen/gemm.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::gen {

namespace {

using isa::Addr;
using isa::ceil_div;
using isa::Pipe;
using isa::Space;

Addr on(Space s, uint64_t off) {
  return Addr{s, 0, off};
}
Addr gm(uint32_t tensor, uint64_t off) {
  return Addr{Space::GM, tensor, off};
}
// (m/16)*(n/16) at and below which accumulating Mmads need PipeBarrier<PIPE_M> (the race
// checker's check.mmad_interlock_fractals default; docs/checking.md).
constexpr uint32_t kMmadInterlockFractals = 10;

uint16_t u16(uint64_t v) {
  return static_cast<uint16_t>(v);
}  // ranges proven by make_plan

struct Emitter {
  std::vector<Emitted> out;
  std::string note;  // attached to the next op
  void op(isa::Op o) {
    out.push_back({std::move(o), std::move(note)});
    note.clear();
  }
  void set(Pipe s, Pipe d, uint64_t id) { op(isa::SetFlag{{s, d}, static_cast<uint8_t>(id)}); }
  void wait(Pipe s, Pipe d, uint64_t id) { op(isa::WaitFlag{{s, d}, static_cast<uint8_t>(id)}); }
};

struct Step {
  uint32_t m0, n0, k0, mr, nr, kc;  // origin and actual extent of this tile / chunk
  bool first_k, last_k;
  uint64_t slot, cslot, tile;
};

class Builder {
 public:
  explicit Builder(const Plan& p) : p_(p), s_(p.shape), ci_(gm_index_c(p)) {}

  std::vector<Emitted> run() {
    if (p_.double_buffered) {
      e_.note = "pre-set the 'slot free' flags of both ping/pong slots";
      if (!p_.l1_full)
        for (uint64_t id = 0; id < 2; ++id) e_.set(Pipe::MTE1, Pipe::MTE2, id);
      for (uint64_t id = 0; id < 2; ++id) e_.set(Pipe::M, Pipe::MTE1, id);
    }
    if (p_.l1_full) copy_whole();
    if (p_.l0c_double)
      for (uint64_t id = 0; id < 2; ++id) e_.set(Pipe::FIX, Pipe::M, id);
    uint64_t t = 0, tile = 0;
    for (uint32_t mt = 0; mt < p_.m_tiles; ++mt)
      for (uint32_t nt = 0; nt < p_.n_tiles; ++nt, ++tile)
        for (uint32_t kt = 0; kt < p_.k_chunks; ++kt, ++t) {
          Step st;
          st.m0 = mt * p_.tm;
          st.n0 = nt * p_.tn;
          st.k0 = kt * p_.tk;
          st.mr = std::min(p_.tm, s_.M - st.m0);
          st.nr = std::min(p_.tn, s_.N - st.n0);
          st.kc = std::min(p_.tk, s_.K - st.k0);
          st.first_k = kt == 0;
          st.last_k = kt + 1 == p_.k_chunks;
          st.slot = t % 2;
          st.cslot = tile % 2;
          st.tile = tile;
          step(st);
        }
    if (p_.double_buffered) {
      e_.note = "drain the 'slot free' flags: nothing stays set at the end";
      if (!p_.l1_full)
        for (uint64_t id = 0; id < 2; ++id) e_.wait(Pipe::MTE1, Pipe::MTE2, id);
      for (uint64_t id = 0; id < 2; ++id) e_.wait(Pipe::M, Pipe::MTE1, id);
    }
    if (p_.l0c_double)
      for (uint64_t id = 0; id < 2; ++id) e_.wait(Pipe::FIX, Pipe::M, id);
    return std::move(e_.out);
  }

 private:
  uint32_t k_unit() const { return s_.sparse ? 64 : 32; }

  // l1_full: A (one ND2NZ copy of every row, contiguous in GM when it spans K), B and the
  // indexes (one copy each) into L1 once; MTE1 waits for them before its first load.
  void copy_whole() {
    e_.note = "A, B" + std::string(s_.sparse ? " and the indexes" : "") + " whole into L1, once";
    isa::DataCopyNd2Nz a;
    a.dst = on(Space::L1, p_.l1_a);
    a.src = gm(0, 0);
    a.nValue = u16(s_.M);
    a.dValue = u16(s_.K);
    a.srcDValue = u16(s_.K);
    a.dstNzC0Stride = u16(ceil_div(s_.M, 16) * 16);
    e_.op(a);
    const uint64_t frac = ceil_div(s_.K, k_unit()) * ceil_div(s_.N, 16);
    copy_fractals(1, p_.l1_b, 0, 1, frac * 16, 0);
    if (s_.sparse) copy_fractals(2, p_.l1_idx, 0, 1, frac * 4, 0);
    e_.set(Pipe::MTE2, Pipe::MTE1, 0);
  }

  void step(const Step& st) {
    if (p_.l1_full) return step_from_l1(st);
    const bool db = p_.double_buffered;
    const uint64_t l1 = st.slot * (db ? p_.l1_slot : 0);
    const uint64_t l0a = st.slot * (db ? p_.l0a_slot : 0), l0b = st.slot * (db ? p_.l0b_slot : 0);
    const uint64_t l0c = st.cslot * (p_.l0c_double ? p_.l0c_slot : 0);
    const uint64_t mr1 = ceil_div(st.mr, 16), kc1 = ceil_div(st.kc, 32);
    const uint64_t n1 = ceil_div(s_.N, 16), tn1 = ceil_div(st.nr, 16);
    const uint64_t kb0 = st.k0 / k_unit(), kbn = ceil_div(st.kc, k_unit());

    // MTE2: GM -> L1 slot.
    e_.note = "tile " + std::to_string(st.tile) + " rows " + std::to_string(st.m0) + "+" +
              std::to_string(st.mr) + " cols " + std::to_string(st.n0) + "+" + std::to_string(st.nr) +
              ", k " + std::to_string(st.k0) + "+" + std::to_string(st.kc) + " (L1/L0 slot " +
              std::to_string(st.slot) + ", L0C slot " + std::to_string(st.cslot) + ")";
    if (db) e_.wait(Pipe::MTE1, Pipe::MTE2, st.slot);
    isa::DataCopyNd2Nz a;
    a.dst = on(Space::L1, l1 + p_.l1_a);
    a.src = gm(0, uint64_t{st.m0} * s_.K + st.k0);
    a.nValue = u16(st.mr);
    a.dValue = u16(st.kc);
    a.srcDValue = u16(s_.K);
    a.dstNzC0Stride = u16(mr1 * 16);
    e_.op(a);
    copy_fractals(1, l1 + p_.l1_b, (kb0 * n1 + st.n0 / 16) * 512, kbn, tn1 * 16, (n1 - tn1) * 16);
    if (s_.sparse)
      copy_fractals(2, l1 + p_.l1_idx, (kb0 * n1 + st.n0 / 16) * 128, kbn, tn1 * 4, (n1 - tn1) * 4);
    e_.set(Pipe::MTE2, Pipe::MTE1, st.slot);

    // MTE1: L1 -> L0A (NZ -> Zz, one LoadData per 16-row block) and L0B.
    e_.wait(Pipe::MTE2, Pipe::MTE1, st.slot);
    if (db) e_.wait(Pipe::M, Pipe::MTE1, st.slot);
    for (uint64_t m1 = 0; m1 < mr1; ++m1) {
      isa::LoadData ld;
      ld.dst = on(Space::L0A, l0a + m1 * kc1 * 512);
      ld.src = on(Space::L1, l1 + p_.l1_a);
      ld.startIndex = u16(m1);
      ld.repeatTimes = static_cast<uint8_t>(kc1);
      ld.srcStride = u16(mr1);
      e_.op(ld);
    }
    const uint64_t frac = kbn * tn1;
    for (uint64_t off = 0; off < frac; off += 255) {  // repeatTimes is 8 bits
      const auto rep = static_cast<uint8_t>(std::min<uint64_t>(255, frac - off));
      if (s_.sparse) {
        isa::LoadDataWithSparse ld;
        ld.dst = on(Space::L0B, l0b + off * 512);
        ld.src = on(Space::L1, l1 + p_.l1_b);
        ld.idx = on(Space::L1, l1 + p_.l1_idx);
        ld.startIndex = u16(off);
        ld.repeatTimes = rep;
        e_.op(ld);
      } else {
        isa::LoadData ld;
        ld.dst = on(Space::L0B, l0b + off * 512);
        ld.src = on(Space::L1, l1 + p_.l1_b);
        ld.startIndex = u16(off);
        ld.repeatTimes = rep;
        ld.srcStride = 1;
        e_.op(ld);
      }
    }
    if (db) e_.set(Pipe::MTE1, Pipe::MTE2, st.slot);
    e_.set(Pipe::MTE1, Pipe::M, st.slot);
    compute(st, l0a, l0b, l0c);
  }

  // l1_full: the tile's fractals straight from the whole A (NZ: fractal (k, m) at k * M1 + m) and
  // the whole B (Zn: fractal (k, n) at k * N1 + n, indexes alike), one load per fractal row.
  void step_from_l1(const Step& st) {
    const bool db = p_.double_buffered;
    const uint64_t l0a = st.slot * (db ? p_.l0a_slot : 0), l0b = st.slot * (db ? p_.l0b_slot : 0);
    const uint64_t l0c = st.cslot * (p_.l0c_double ? p_.l0c_slot : 0);
    const uint64_t m1n = ceil_div(s_.M, 16), mr1 = ceil_div(st.mr, 16), kc1 = ceil_div(st.kc, 32);
    const uint64_t n1 = ceil_div(s_.N, 16), tn1 = ceil_div(st.nr, 16);
    const uint64_t kb0 = st.k0 / k_unit(), kbn = ceil_div(st.kc, k_unit());
    e_.note = "tile " + std::to_string(st.tile) + " rows " + std::to_string(st.m0) + "+" +
              std::to_string(st.mr) + " cols " + std::to_string(st.n0) + "+" + std::to_string(st.nr) +
              ", k " + std::to_string(st.k0) + "+" + std::to_string(st.kc) + " (from L1; L0 slot " +
              std::to_string(st.slot) + ", L0C slot " + std::to_string(st.cslot) + ")";
    if (st.tile == 0 && st.first_k) e_.wait(Pipe::MTE2, Pipe::MTE1, 0);
    if (db) e_.wait(Pipe::M, Pipe::MTE1, st.slot);
    for (uint64_t m1 = 0; m1 < mr1; ++m1) {
      isa::LoadData ld;
      ld.dst = on(Space::L0A, l0a + m1 * kc1 * 512);
      ld.src = on(Space::L1, p_.l1_a);
      ld.startIndex = u16((st.k0 / 32) * m1n + st.m0 / 16 + m1);
      ld.repeatTimes = static_cast<uint8_t>(kc1);
      ld.srcStride = u16(m1n);
      e_.op(ld);
    }
    for (uint64_t k = 0; k < kbn; ++k) {
      const uint64_t first = (kb0 + k) * n1 + st.n0 / 16;
      if (s_.sparse) {
        isa::LoadDataWithSparse ld;
        ld.dst = on(Space::L0B, l0b + k * tn1 * 512);
        ld.src = on(Space::L1, p_.l1_b);
        ld.idx = on(Space::L1, p_.l1_idx);
        ld.startIndex = u16(first);
        ld.repeatTimes = static_cast<uint8_t>(tn1);
        e_.op(ld);
      } else {
        isa::LoadData ld;
        ld.dst = on(Space::L0B, l0b + k * tn1 * 512);
        ld.src = on(Space::L1, p_.l1_b);
        ld.startIndex = u16(first);
        ld.repeatTimes = static_cast<uint8_t>(tn1);
        ld.srcStride = 1;
        e_.op(ld);
      }
    }
    e_.set(Pipe::MTE1, Pipe::M, st.slot);
    compute(st, l0a, l0b, l0c);
  }

  void compute(const Step& st, uint64_t l0a, uint64_t l0b, uint64_t l0c) {
    const bool db = p_.double_buffered;
    const uint64_t mr1 = ceil_div(st.mr, 16), tn1 = ceil_div(st.nr, 16);
    // M: accumulate this k-chunk into the tile's L0C slot.
    e_.wait(Pipe::MTE1, Pipe::M, st.slot);
    if (st.first_k && p_.l0c_double) e_.wait(Pipe::FIX, Pipe::M, st.cslot);
    // The Cube orders accumulating Mmads into the same L0C cells by itself only for large
    // tiles ((m/16)*(n/16) >= 10, Mmad docs); smaller ones need a barrier after the previous
    // k-chunk. At exactly 10 the sources disagree, so the barrier goes in there too.
    if (!st.first_k && (st.mr / 16) * (st.nr / 16) <= kMmadInterlockFractals) {
      e_.op(isa::PipeBarrier{Pipe::M, false});
    }
    isa::MmadCommon mm;
    mm.dst = on(Space::L0C, l0c);
    mm.fm = on(Space::L0A, l0a);
    mm.filter = on(Space::L0B, l0b);
    mm.m = u16(st.mr);
    mm.n = u16(st.nr);
    mm.k = u16(st.kc);
    mm.cmatrixInitVal = st.first_k;
    if (s_.sparse)
      e_.op(isa::MmadWithSparse{mm});
    else
      e_.op(isa::Mmad{mm, isa::DType::Int8});
    if (db) e_.set(Pipe::M, Pipe::MTE1, st.slot);
    if (!st.last_k) return;
    e_.set(Pipe::M, Pipe::FIX, st.cslot);

    // FIX: L0C slot -> C rows m0.., columns n0.. (whole 16-column blocks).
    e_.wait(Pipe::M, Pipe::FIX, st.cslot);
    isa::Fixpipe fx;
    fx.dst = gm(ci_, (uint64_t{st.m0} * p_.n16() + st.n0) * 4);
    fx.src = on(Space::L0C, l0c);
    fx.nSize = u16(tn1 * 16);
    fx.mSize = u16(st.mr);
    fx.srcStride = u16(mr1 * 16);
    fx.dstStride = p_.n16();
    e_.op(fx);
    if (p_.l0c_double) e_.set(Pipe::FIX, Pipe::M, st.cslot);
  }

  // Rows kb0.. of whole-matrix fractals -> one contiguous tile in L1 (blockLen/gaps in 32 B).
  void copy_fractals(uint32_t tensor, uint64_t dst, uint64_t src, uint64_t rows, uint64_t len, uint64_t gap) {
    isa::DataCopy c;
    c.dst = on(Space::L1, dst);
    c.src = gm(tensor, src);
    c.blockCount = u16(rows);
    c.blockLen = u16(len);
    c.srcGap = u16(gap);
    e_.op(c);
  }

  const Plan& p_;
  const GemmShape& s_;
  uint32_t ci_;
  Emitter e_;
};

}  // namespace

std::vector<Emitted> emit_program(const Plan& p) {
  return Builder(p).run();
}

}  // namespace aicore::gen
