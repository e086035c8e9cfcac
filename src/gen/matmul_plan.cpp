// Validation and buffer layout of the best-practice matmul kernel (matmul.hpp).
#include <algorithm>
#include <string>

#include "aicore/common/error.hpp"
#include "aicore/gen/matmul.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::gen {

namespace {

using isa::ceil_div;

[[noreturn]] void bad(const std::string& msg) {
  throw InputError(SourceLoc{"gen"}, msg);
}

std::string kib(uint64_t b) {
  return std::to_string(ceil_div(b, 1024)) + " KiB";
}

void check_shape(const MatmulShape& s) {
  if (s.dtype != isa::DType::Half && s.dtype != isa::DType::BF16) bad("--dtype must be half or bf16");
  if (s.c_dtype != isa::DType::Half && s.c_dtype != isa::DType::BF16 && s.c_dtype != isa::DType::Float)
    bad("--c-dtype must be half, bf16 or float");
  const auto m16 = [](const char* what, uint32_t v) {
    if (v == 0 || v % 16)
      bad(std::string(what) + " must be a positive multiple of 16 for the half/bf16 kernel (got " +
          std::to_string(v) + ")");
  };
  m16("--m", s.M);
  m16("--k", s.K);
  m16("--n", s.N);
  // DataCopyNd2Nz srcDValue is the row length of A (K) and of B (K for nt, N for nd): 16 bits.
  if (s.K > 65535) bad("K is limited to 65535 (DataCopyNd2Nz srcDValue is 16 bits)");
  if (s.b_layout == BLayout::ND && s.N > 65535)
    bad("N is limited to 65535 with --b-layout nd (DataCopyNd2Nz srcDValue is 16 bits)");
}

// L1 left for the A and B rings: all of it, less the bias region with a bias.
uint64_t l1_rings(const MatmulOptions& o) {
  return kL1Bytes - (o.bias ? kBiasTableBytes : 0);
}

void check_bias(const MatmulShape& s, const MatmulOptions& o) {
  if (!o.bias) return;
  if (o.bias_dtype != isa::DType::Float && o.bias_dtype != isa::DType::Half)
    bad("--bias must be float or half");
  const uint64_t bn = std::min(o.base_n, s.N);
  if (bn * 4 > kBiasTableBytes)
    bad("base n " + std::to_string(bn) + " with a bias: the block's " + std::to_string(bn) +
        " float bias cells need " + std::to_string(bn * 4) + " bytes of the bias table, which holds " +
        std::to_string(kBiasTableBytes) + " (base n <= " + std::to_string(kBiasTableBytes / 4) + ")");
}

void check_base(const MatmulShape& s, const MatmulOptions& o) {
  const auto m16 = [](const char* what, uint32_t v) {
    if (v == 0 || v % 16 || v > 4080)
      bad(std::string("--base ") + what + " must be a multiple of 16 in 16..4080 (got " + std::to_string(v) +
          ")");
  };
  m16("m", o.base_m);
  m16("n", o.base_n);
  m16("k", o.base_k);
  if (o.l1_buffers < 1 || o.l1_buffers > 2) bad("--l1-buffers must be 1 or 2");
  if (o.l0_buffers < 1 || o.l0_buffers > 2) bad("--l0-buffers must be 1 or 2");
  const uint64_t bm = std::min(o.base_m, s.M), bn = std::min(o.base_n, s.N), bk = std::min(o.base_k, s.K);
  const uint64_t a = bm * bk * 2, b = bk * bn * 2, c = bm * bn * 4;
  const std::string base =
      std::to_string(o.base_m) + "x" + std::to_string(o.base_n) + "x" + std::to_string(o.base_k);
  if (a * o.l0_buffers > kL0ABytes)
    bad("base " + base + ": the A tile needs " + kib(a) + " of L0A per buffer, " +
        kib(kL0ABytes / o.l0_buffers) + " available with " + std::to_string(o.l0_buffers) + " buffer(s)");
  if (b * o.l0_buffers > kL0BBytes)
    bad("base " + base + ": the B tile needs " + kib(b) + " of L0B per buffer, " +
        kib(kL0BBytes / o.l0_buffers) + " available with " + std::to_string(o.l0_buffers) + " buffer(s)");
  if (c > kL0CBytes)
    bad("base " + base + ": the C block needs " + kib(c) + " of L0C, " + kib(kL0CBytes) + " available");
  if (o.step_ka == 1 && o.step_kb == 1 && o.depth_a1 == 0 && o.depth_b1 == 0 &&
      (a + b) * o.l1_buffers > l1_rings(o))
    bad("base " + base + ": the A and B tiles need " + kib(a + b) + " of L1 per buffer, " +
        kib(l1_rings(o) / o.l1_buffers) + " available" + (o.bias ? " (1 KiB of L1 holds the bias)" : ""));
}

// The L1 rings of the big packets (matmul.hpp MatmulPlan): slots per ring, shared or not, and
// where each slot is. User-written flags may use ids 0-5 (6 and 7 are the library's).
void set_rings(MatmulPlan& p) {
  const MatmulShape& s = p.shape;
  const MatmulOptions& o = p.opt;
  const auto ring = [&](const char* step_name, uint32_t step, const char* depth_name, uint32_t depth) {
    if (step < 1 || step > 255) bad(std::string("--") + step_name + " must be in 1..255");
    if (depth == 0) return o.l1_buffers;
    if (depth % step || depth / step > 4)
      bad(std::string("--") + depth_name + " " + std::to_string(depth) + " must be 1 to 4 times --" +
          step_name + " " + std::to_string(step) + " (L1 holds whole packets: depth / step of them)");
    return depth / step;
  };
  p.packets_a = ring("step-ka", o.step_ka, "depth-a1", o.depth_a1);
  p.packets_b = ring("step-kb", o.step_kb, "depth-b1", o.depth_b1);
  p.shared_ring = o.step_ka == o.step_kb && p.packets_a == p.packets_b;
  const uint64_t bm = std::min(o.base_m, s.M), bn = std::min(o.base_n, s.N);
  const uint64_t a = bm * std::min<uint64_t>(uint64_t{o.step_ka} * o.base_k, s.K) * 2;
  const uint64_t b = bn * std::min<uint64_t>(uint64_t{o.step_kb} * o.base_k, s.K) * 2;
  const uint64_t need = p.shared_ring ? (a + b) * p.packets_a : a * p.packets_a + b * p.packets_b;
  const uint64_t l1 = l1_rings(o);
  if (need > l1)
    bad("L1 holds " + kib(l1) + (o.bias ? " besides the bias" : "") + ": " + std::to_string(p.packets_a) +
        " A packet(s) of " + kib(a) + " (base " + std::to_string(o.base_m) + " x " +
        std::to_string(o.step_ka) + " x " + std::to_string(o.base_k) + ") and " +
        std::to_string(p.packets_b) + " B packet(s) of " + kib(b) + " need " + kib(need) +
        "; lower --depth-a1/--depth-b1 or --step-ka/--step-kb");
  // A bias takes the MTE1_MTE2 id after the rings'.
  const uint32_t free_ids = o.bias ? 5 : 6;
  if (!p.shared_ring && p.packets_a + p.packets_b > free_ids)
    bad("--depth-a1 / --step-ka and --depth-b1 / --step-kb make " + std::to_string(p.packets_a) + " + " +
        std::to_string(p.packets_b) + " L1 packets, each with its own flag id: at most " +
        std::to_string(free_ids) + " ids (0-5" + (o.bias ? ", less the bias's" : "") + ") are free");
  if (p.shared_ring && o.step_ka == 1) {  // the NORM kernel's layout: two halves of L1
    p.l1_slot = l1 / 2;
    p.l1_b = a;
  } else if (p.shared_ring) {
    p.l1_slot = o.bias ? l1 / p.packets_a / 512 * 512 : l1 / p.packets_a;  // (slots 512-aligned)
    p.l1_b = a;
  } else {
    p.l1_slot = a;
    p.l1_b = a * p.packets_a;
    p.l1_b_slot = b;
  }
}

// Blocks and L0C buffering of the plan's window of C.
void set_window(MatmulPlan& p) {
  const uint32_t rows = p.m_end - p.m_begin, cols = p.n_end - p.n_begin;
  p.m_blocks = static_cast<uint32_t>(ceil_div(rows, p.opt.base_m));
  p.n_blocks = static_cast<uint32_t>(ceil_div(cols, p.opt.base_n));
  const uint64_t bm = std::min(p.opt.base_m, rows), bn = std::min(p.opt.base_n, cols);
  p.l0c_buffers = bm * bn * 4 * 2 <= kL0CBytes && p.blocks() > 1 ? 2 : 1;
}

uint32_t part_size(uint32_t whole, uint32_t parts) {
  return static_cast<uint32_t>(ceil_div(ceil_div(whole, parts), 16) * 16);
}

// Core `core`'s part of C's rows [row0, row0 + rows) split split_m x split_n.
MatmulPlan part_plan(const MatmulPlan& whole, uint32_t row0, uint32_t rows, uint32_t split_m,
                     uint32_t split_n, uint32_t core) {
  if (split_m == 0 || split_n == 0) bad("--split MxN needs positive M and N");
  const uint32_t pm = part_size(rows, split_m), pn = part_size(whole.shape.N, split_n);
  const uint32_t i = core / split_n, j = core % split_n;
  if (uint64_t{pm} * (split_m - 1) >= rows || uint64_t{pn} * (split_n - 1) >= whole.shape.N)
    bad("--split " + std::to_string(split_m) + "x" + std::to_string(split_n) +
        " leaves cores without work: " + std::to_string(rows) + " x " + std::to_string(whole.shape.N) +
        (rows < whole.shape.M ? " (one L2 round)" : "") + " cut in parts of " + std::to_string(pm) + " x " +
        std::to_string(pn) + " (16-row/column multiples) fills fewer than " + std::to_string(split_m) +
        " x " + std::to_string(split_n) + " parts; choose a smaller split" +
        (rows < whole.shape.M ? " or fewer --l2-rounds" : ""));
  MatmulPlan p = whole;
  p.m_begin = row0 + i * pm;
  p.m_end = std::min(row0 + rows, p.m_begin + pm);
  p.n_begin = j * pn;
  p.n_end = std::min(whole.shape.N, p.n_begin + pn);
  p.core = core;
  p.cores = split_m * split_n;
  set_window(p);
  return p;
}

}  // namespace

MatmulPlan core_plan(const MatmulPlan& whole, uint32_t split_m, uint32_t split_n, uint32_t core) {
  return part_plan(whole, 0, whole.shape.M, split_m, split_n, core);
}

MatmulPlan window_plan(const MatmulPlan& whole, uint32_t m_begin, uint32_t rows, uint32_t n_begin,
                       uint32_t cols) {
  // A part may end anywhere (its last fractal's other rows and columns are padding), not with a
  // bias (whose copies move whole blocks of the part's columns).
  const bool any_size = !whole.opt.bias;
  const auto check = [&](const char* what, uint32_t begin, uint32_t size, uint32_t limit) {
    if (size == 0 || (size % 16 && !any_size) || begin % 16)
      bad(std::string("the part's ") + what + " (" + std::to_string(begin) + "+" + std::to_string(size) +
          (any_size ? ") must start at a multiple of 16 and be non-empty"
                    : ") must start at and span positive multiples of 16 (with a bias)"));
    if (uint64_t{begin} + size > limit)
      bad(std::string("the part's ") + what + " " + std::to_string(begin) + "+" + std::to_string(size) +
          " run past C's " + std::to_string(limit));
  };
  check("rows", m_begin, rows, whole.shape.M);
  check("columns", n_begin, cols, whole.shape.N);
  MatmulPlan p = whole;
  p.m_begin = m_begin;
  p.m_end = m_begin + rows;
  p.n_begin = n_begin;
  p.n_end = n_begin + cols;
  set_window(p);
  return p;
}

std::vector<MatmulPlan> core_rounds(const MatmulPlan& whole, uint32_t split_m, uint32_t split_n,
                                    uint32_t core) {
  const uint32_t rounds = whole.opt.l2_rounds;
  if (rounds <= 1) return {split_m * split_n > 1 ? core_plan(whole, split_m, split_n, core) : whole};
  const uint32_t per = part_size(whole.shape.M, rounds);
  if (uint64_t{per} * (rounds - 1) >= whole.shape.M)
    bad("--l2-rounds " + std::to_string(rounds) +
        " leaves rounds without rows: M = " + std::to_string(whole.shape.M) + " in rounds of " +
        std::to_string(per) + " rows (16-row multiples); choose fewer rounds");
  std::vector<MatmulPlan> out;
  for (uint32_t r = 0; r < rounds; ++r) {
    const uint32_t row0 = r * per;
    out.push_back(part_plan(whole, row0, std::min(per, whole.shape.M - row0), split_m, split_n, core));
    out.back().round = r;
  }
  return out;
}

std::string MatmulPlan::describe() const {
  std::string s = std::to_string(shape.M) + "x" + std::to_string(shape.K) + "x" + std::to_string(shape.N) +
                  " " + isa::to_string(shape.dtype) + ", B " + (shape.b_layout == BLayout::NT ? "nt" : "nd") +
                  ", base (m x n x k) " + std::to_string(opt.base_m) + "x" + std::to_string(opt.base_n) +
                  "x" + std::to_string(opt.base_k) + ": " + std::to_string(m_blocks) + " x " +
                  std::to_string(n_blocks) + " blocks of " + std::to_string(k_steps) + " K steps, L1 x" +
                  std::to_string(opt.l1_buffers) + ", L0A/L0B x" + std::to_string(opt.l0_buffers) +
                  ", L0C x" + std::to_string(l0c_buffers) + ", C " + isa::to_string(shape.c_dtype) +
                  (opt.unit_flag ? ", unitFlag" : ", M_FIX/FIX_M flags");
  if (opt.tmpl == MatmulTemplate::Mdl) s += ", MDL";
  if (opt.step_ka > 1 || opt.step_kb > 1 || !shared_ring)
    s += ", L1 packets: A " + std::to_string(packets_a) + " x " + std::to_string(opt.step_ka) +
         " base-K, B " + std::to_string(packets_b) + " x " + std::to_string(opt.step_kb);
  if (opt.l2_rounds > 1)
    s += ", L2 round " + std::to_string(round + 1) + " of " + std::to_string(opt.l2_rounds);
  if (opt.load3d_a) s += ", A by Load3Dv2";
  if (opt.order_m) s += ", blocks along M first";
  if (opt.bias) s += std::string(", ") + isa::to_string(opt.bias_dtype) + " bias";
  if (cores > 1)
    s += "; core " + std::to_string(core) + " of " + std::to_string(cores) + ": C rows " +
         std::to_string(m_begin) + "+" + std::to_string(m_end - m_begin) + ", cols " +
         std::to_string(n_begin) + "+" + std::to_string(n_end - n_begin);
  if (emitted_blocks() < blocks()) s += "; only the first " + std::to_string(emitted_blocks()) + " blocks";
  return s;
}

MatmulPlan make_matmul_plan(const MatmulShape& shape, const MatmulOptions& opt) {
  check_shape(shape);
  check_base(shape, opt);
  check_bias(shape, opt);
  if (opt.l2_rounds < 1) bad("--l2-rounds must be at least 1");
  MatmulPlan p;
  p.shape = shape;
  p.opt = opt;
  p.m_end = shape.M;
  p.n_end = shape.N;
  p.k_steps = static_cast<uint32_t>(ceil_div(shape.K, opt.base_k));
  set_window(p);
  set_rings(p);
  if (opt.bias) p.l1_bias = kL1Bytes - kBiasTableBytes;
  p.l0a_slot = kL0ABytes / 2;
  p.l0b_slot = kL0BBytes / 2;
  p.l0c_slot = kL0CBytes / 2;
  return p;
}

uint64_t matmul_bytes_a(const MatmulPlan& p) {
  return uint64_t{p.shape.M} * p.shape.K * 2;
}
uint64_t matmul_bytes_b(const MatmulPlan& p) {
  return uint64_t{p.shape.K} * p.shape.N * 2;
}
uint64_t matmul_bytes_bias(const MatmulPlan& p) {
  return p.opt.bias ? uint64_t{p.shape.N} * isa::byte_size(p.opt.bias_dtype) : 0;
}
uint64_t matmul_bytes_c(const MatmulPlan& p) {
  return uint64_t{p.shape.M} * p.shape.N * isa::byte_size(p.shape.c_dtype);
}

}  // namespace aicore::gen
