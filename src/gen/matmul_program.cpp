// Instruction stream of the best-practice matmul kernel (matmul.hpp): one step per (output block,
// K step), its tiles moving GM -> L1 slot -> L0A/L0B slot -> one Mmad accumulating into the
// block's L0C slot, and one Fixpipe per block. Slots alternate so MTE2, MTE1, M and FIX overlap.
#include <algorithm>

#include "aicore/gen/matmul.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::gen {

namespace {

using isa::ceil_div;
using isa::Pipe;
using isa::Space;

isa::Addr on(Space s, uint64_t off) {
  return isa::Addr{s, 0, off};
}
isa::Addr gm(uint32_t tensor, uint64_t off) {
  return isa::Addr{Space::GM, tensor, off};
}
uint16_t u16(uint64_t v) {
  return static_cast<uint16_t>(v);  // ranges proven by make_matmul_plan
}

constexpr uint32_t kA = 0, kB = 1, kC = 2;  // GM tensor ids, in declaration order

struct Step {
  uint32_t m0, n0, k0, mr, nr, kr;  // origin and extent of the block / K step
  bool first_k, last_k;
  uint64_t l1, l0, c;  // slot numbers
  uint64_t block;
};

class Builder {
 public:
  explicit Builder(const MatmulPlan& p) : p_(p), s_(p.shape) {}

  std::vector<Emitted> run() {
    note_ = "pre-set the 'slot free' flags: every slot starts free";
    for (uint64_t id = 0; id < p_.opt.l1_buffers; ++id) set(Pipe::MTE1, Pipe::MTE2, id);
    for (uint64_t id = 0; id < p_.opt.l0_buffers; ++id) set(Pipe::M, Pipe::MTE1, id);
    if (!p_.opt.unit_flag)
      for (uint64_t id = 0; id < p_.l0c_buffers; ++id) set(Pipe::FIX, Pipe::M, id);
    uint64_t t = 0;
    for (uint64_t b = 0; b < p_.emitted_blocks(); ++b)
      for (uint32_t kt = 0; kt < p_.k_steps; ++kt, ++t) step(make_step(b, kt, t));
    note_ = "drain the 'slot free' flags: nothing stays set at the end";
    for (uint64_t id = 0; id < p_.opt.l1_buffers; ++id) wait(Pipe::MTE1, Pipe::MTE2, id);
    for (uint64_t id = 0; id < p_.opt.l0_buffers; ++id) wait(Pipe::M, Pipe::MTE1, id);
    if (!p_.opt.unit_flag)
      for (uint64_t id = 0; id < p_.l0c_buffers; ++id) wait(Pipe::FIX, Pipe::M, id);
    return std::move(out_);
  }

 private:
  Step make_step(uint64_t block, uint32_t kt, uint64_t t) const {
    const auto& o = p_.opt;
    Step st;
    st.m0 = p_.m_begin + static_cast<uint32_t>(block / p_.n_blocks) * o.base_m;
    st.n0 = p_.n_begin + static_cast<uint32_t>(block % p_.n_blocks) * o.base_n;
    st.k0 = kt * o.base_k;
    st.mr = std::min(o.base_m, p_.m_end - st.m0);
    st.nr = std::min(o.base_n, p_.n_end - st.n0);
    st.kr = std::min(o.base_k, s_.K - st.k0);
    st.first_k = kt == 0;
    st.last_k = kt + 1 == p_.k_steps;
    st.l1 = t % o.l1_buffers;
    st.l0 = t % o.l0_buffers;
    st.c = block % p_.l0c_buffers;
    st.block = block;
    return st;
  }

  void op(isa::Op o) {
    out_.push_back({std::move(o), std::move(note_)});
    note_.clear();
  }
  void set(Pipe s, Pipe d, uint64_t id) { op(isa::SetFlag{{s, d}, static_cast<uint8_t>(id)}); }
  void wait(Pipe s, Pipe d, uint64_t id) { op(isa::WaitFlag{{s, d}, static_cast<uint8_t>(id)}); }

  void step(const Step& st) {
    copy_in(st);
    load(st);
    compute(st);
    if (st.last_k) write_out(st);
  }

  // MTE2: the A tile (mr x kr) and the B tile (kr x nr, or nr x kr for nt) GM (ND) -> L1 (NZ).
  void copy_in(const Step& st) {
    const uint64_t l1 = st.l1 * p_.l1_slot;
    note_ = "block " + std::to_string(st.block) + " (rows " + std::to_string(st.m0) + "+" +
            std::to_string(st.mr) + ", cols " + std::to_string(st.n0) + "+" + std::to_string(st.nr) +
            "), k " + std::to_string(st.k0) + "+" + std::to_string(st.kr) + ": L1 slot " +
            std::to_string(st.l1) + ", L0 slot " + std::to_string(st.l0) + ", L0C slot " +
            std::to_string(st.c);
    wait(Pipe::MTE1, Pipe::MTE2, st.l1);
    op(nd2nz(l1, kA, (uint64_t{st.m0} * s_.K + st.k0) * 2, st.mr, st.kr, s_.K));
    if (s_.b_layout == BLayout::NT)
      op(nd2nz(l1 + p_.l1_b, kB, (uint64_t{st.n0} * s_.K + st.k0) * 2, st.nr, st.kr, s_.K));
    else
      op(nd2nz(l1 + p_.l1_b, kB, (uint64_t{st.k0} * s_.N + st.n0) * 2, st.kr, st.nr, s_.N));
    set(Pipe::MTE2, Pipe::MTE1, st.l1);
  }

  isa::DataCopyNd2Nz nd2nz(uint64_t dst, uint32_t tensor, uint64_t src, uint32_t rows, uint32_t cols,
                           uint32_t row_elems) const {
    isa::DataCopyNd2Nz c;
    c.dst = on(Space::L1, dst);
    c.src = gm(tensor, src);
    c.dtype = s_.dtype;
    c.nValue = u16(rows);
    c.dValue = u16(cols);
    c.srcDValue = u16(row_elems);
    c.dstNzC0Stride = u16(rows);  // rows are multiples of 16: one 16-row fractal column per block
    return c;
  }

  isa::LoadData load_data(Space dst, uint64_t dst_off, uint64_t src_off, uint64_t start, uint64_t repeat,
                          uint64_t stride, uint64_t gap, bool transpose) const {
    isa::LoadData ld;
    ld.dst = on(dst, dst_off);
    ld.src = on(Space::L1, src_off);
    ld.dtype = s_.dtype;
    ld.startIndex = u16(start);
    ld.repeatTimes = static_cast<uint8_t>(repeat);
    ld.srcStride = u16(stride);
    ld.dstGap = u16(gap);
    ld.ifTranspose = transpose;
    return ld;
  }

  // MTE1: L1 NZ -> L0A Zz, and B -> L0B Zn.
  void load(const Step& st) {
    const uint64_t l1 = st.l1 * p_.l1_slot, l0a = st.l0 * p_.l0a_slot, l0b = st.l0 * p_.l0b_slot;
    const uint64_t m1 = st.mr / 16, k1 = st.kr / 16, n1 = st.nr / 16;
    wait(Pipe::MTE2, Pipe::MTE1, st.l1);
    wait(Pipe::M, Pipe::MTE1, st.l0);
    // A: L1 fractal (k, m) is at k * m1 + m, L0A wants (m, k) at m * k1 + k: one LoadData per
    // fractal column k (repeat m1, one destination fractal in every k1), or per fractal row m.
    if (p_.opt.load3d_a) {
      // Or one Load3Dv2: the A tile in NZ is an NC1HWC0 map of 1 x mr positions and kr channels;
      // a 1 x 1 filter reads it back as the mr x kr matrix, written zZ (docs/semantics.md).
      isa::LoadData3DV2 l3;
      l3.dst = on(Space::L0A, l0a);
      l3.src = on(Space::L1, l1);
      l3.dtype = s_.dtype;
      l3.l1H = 1;
      l3.l1W = u16(st.mr);
      l3.channelSize = u16(st.kr);
      l3.kExtension = u16(st.kr);
      l3.mExtension = u16(st.mr);
      op(l3);
    } else if (k1 <= m1) {
      for (uint64_t k = 0; k < k1; ++k)
        op(load_data(Space::L0A, l0a + k * 512, l1, k * m1, m1, 1, k1 - 1, false));
    } else {
      for (uint64_t m = 0; m < m1; ++m)
        op(load_data(Space::L0A, l0a + m * k1 * 512, l1, m, k1, m1, 0, false));
    }
    if (s_.b_layout == BLayout::NT) {
      // B^T in NZ is B in Zn fractal for fractal: one contiguous run, 255 fractals at most.
      const uint64_t frac = k1 * n1;
      for (uint64_t off = 0; off < frac; off += 255)
        op(load_data(Space::L0B, l0b + off * 512, l1 + p_.l1_b, off, std::min<uint64_t>(255, frac - off), 1,
                     0, false));
    } else {
      // B in NZ: fractal (n, k) at n * k1 + k holds rows k; Zn wants (k, n) at k * n1 + n with
      // rows n: every fractal transposed, one LoadData per fractal row k.
      for (uint64_t k = 0; k < k1; ++k)
        op(load_data(Space::L0B, l0b + k * n1 * 512, l1 + p_.l1_b, k, n1, k1, 0, true));
    }
    set(Pipe::MTE1, Pipe::MTE2, st.l1);
    set(Pipe::MTE1, Pipe::M, st.l0);
  }

  // M: this K step into the block's L0C slot.
  void compute(const Step& st) {
    wait(Pipe::MTE1, Pipe::M, st.l0);
    const bool uf = p_.opt.unit_flag;
    if (st.first_k && !uf) wait(Pipe::FIX, Pipe::M, st.c);
    // Small blocks ((m/16)*(n/16) <= 10, as in program.cpp) are not ordered by the Cube itself:
    // the accumulating Mmad waits for the previous K step's with a barrier (docs/checking.md).
    if (!st.first_k && (st.mr / 16) * (st.nr / 16) <= 10) op(isa::PipeBarrier{Pipe::M, false});
    isa::MmadCommon mm;
    mm.dst = on(Space::L0C, st.c * p_.l0c_slot);
    mm.fm = on(Space::L0A, st.l0 * p_.l0a_slot);
    mm.filter = on(Space::L0B, st.l0 * p_.l0b_slot);
    mm.m = u16(st.mr);
    mm.n = u16(st.nr);
    mm.k = u16(st.kr);
    mm.cmatrixInitVal = st.first_k;
    // unitFlag 2 on the accumulating steps, 3 on the last: it hands the block to Fixpipe.
    if (uf) mm.unitFlag = st.last_k ? isa::kUnitFlagFlip : isa::kUnitFlagKeep;
    op(isa::Mmad{mm, s_.dtype});
    set(Pipe::M, Pipe::MTE1, st.l0);
    if (st.last_k && !uf) set(Pipe::M, Pipe::FIX, st.c);
  }

  // FIX: the block's L0C slot -> C rows m0.., columns n0.., converted to C's type on the way.
  void write_out(const Step& st) {
    const bool uf = p_.opt.unit_flag;
    if (!uf) wait(Pipe::M, Pipe::FIX, st.c);
    isa::Fixpipe fx;
    fx.dst = gm(kC, (uint64_t{st.m0} * s_.N + st.n0) * isa::size_of(s_.c_dtype));
    fx.src = on(Space::L0C, st.c * p_.l0c_slot);
    fx.dtype = isa::DType::Float;
    if (s_.c_dtype == isa::DType::Half) fx.quantPre = isa::QuantMode::F322F16;
    if (s_.c_dtype == isa::DType::BF16) fx.quantPre = isa::QuantMode::F322BF16;
    fx.nSize = u16(st.nr);
    fx.mSize = u16(st.mr);
    fx.srcStride = u16(st.mr);
    fx.dstStride = s_.N;
    if (uf) fx.unitFlag = isa::kUnitFlagFlip;
    op(fx);
    if (!uf) set(Pipe::FIX, Pipe::M, st.c);
  }

  const MatmulPlan& p_;
  const MatmulShape& s_;
  std::vector<Emitted> out_;
  std::string note_;
};

}  // namespace

std::vector<Emitted> emit_matmul(const MatmulPlan& p) {
  return Builder(p).run();
}

}  // namespace aicore::gen
