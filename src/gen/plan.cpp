// Tile selection and the capacity / field-range checks that make every emitted op legal.
#include <algorithm>
#include <string>

#include "aicore/common/error.hpp"
#include "aicore/gen/gemm.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::gen {

namespace {

using isa::ceil_div;

[[noreturn]] void bad(const std::string& msg) {
  throw InputError(SourceLoc{"gen"}, msg);
}

uint64_t round_up(uint64_t v, uint64_t to) {
  return ceil_div(v, to) * to;
}
// K elements of B per fractal row: B' packs 32 dense = 64 original K; dense B 32.
uint32_t k_unit(bool sparse) {
  return sparse ? 64 : 32;
}

struct TileBytes {
  uint64_t a, b, idx, c;
};
TileBytes tile_bytes(const GemmShape& s, uint32_t tm, uint32_t tn, uint32_t tk) {
  const uint64_t tm16 = round_up(tm, 16), tn1 = ceil_div(tn, 16), kb1 = ceil_div(tk, k_unit(s.sparse));
  return {tm16 * round_up(tk, 32), kb1 * tn1 * 512, s.sparse ? kb1 * tn1 * 128 : 0, tm16 * tn1 * 16 * 4};
}

// Empty when the tile fits buffers of these sizes and every instruction field; else why not.
std::string misfit(const GemmShape& s, uint32_t tm, uint32_t tn, uint32_t tk, uint64_t l0ab, uint64_t l0c,
                   uint64_t l1) {
  const TileBytes t = tile_bytes(s, tm, tn, tk);
  const auto kib = [](uint64_t b) { return std::to_string(ceil_div(b, 1024)) + " KiB"; };
  if (tm > 4095 || tn > 4095 || tk > 4095) return "Mmad m, n, k are limited to 4095";
  if (t.a > l0ab) return "A tile needs " + kib(t.a) + " of L0A, " + kib(l0ab) + " available";
  if (t.b > l0ab) return "B tile needs " + kib(t.b) + " of L0B, " + kib(l0ab) + " available";
  if (t.c > l0c) return "C tile needs " + kib(t.c) + " of L0C, " + kib(l0c) + " available";
  if (round_up(t.a, 512) + round_up(t.b, 512) + t.idx > l1)
    return "tile needs more than " + kib(l1) + " of L1";
  return "";
}

uint32_t clip(uint32_t want, uint32_t full) {
  return std::min(want, full);
}

}  // namespace

std::string Plan::describe() const {
  std::string s = std::to_string(shape.M) + "x" + std::to_string(shape.K) + "x" + std::to_string(shape.N) +
                  (shape.sparse ? " sparse 4:2" : " dense") + ", ";
  if (steps() == 1) return s + "single tile";
  if (l1_full) s += "A and B whole in L1, ";
  return s + "tiles (m x k x n) " + std::to_string(tm) + "x" + std::to_string(tk) + "x" + std::to_string(tn) +
         " (" + std::to_string(m_tiles) + " x " + std::to_string(n_tiles) + " output tiles, " +
         std::to_string(k_chunks) + " k-chunks, " + std::to_string(steps()) + " steps, double-buffered)";
}

Plan make_plan(const GemmShape& s, const TileRequest& req) {
  if (s.M == 0 || s.K == 0 || s.N == 0) bad("--m, --k and --n must be positive");
  if (s.sparse && s.K % 4 != 0)
    bad("4:2 sparse needs K a multiple of 4 (got --k " + std::to_string(s.K) + ")");
  // Field ranges that depend on the whole problem: Nd2Nz srcDValue = K (u16); the B DataCopy
  // skips the other column blocks with srcGap = (N1 - tn1) * 16 (u16).
  if (s.K > 65535) bad("K is limited to 65535 (DataCopyNd2Nz srcDValue is 16 bits)");
  if (ceil_div(s.N, 16) * 16 > 65535) bad("N is limited to 65520 (the B DataCopy srcGap is 16 bits)");

  Plan p;
  p.shape = s;
  const uint32_t unit = k_unit(s.sparse);
  const uint32_t m16 = static_cast<uint32_t>(round_up(s.M, 16)),
                 n16 = static_cast<uint32_t>(round_up(s.N, 16));
  const uint32_t ku = static_cast<uint32_t>(round_up(s.K, unit));
  const bool requested = req.m || req.n || req.k;
  if (!requested && misfit(s, s.M, s.N, s.K, kL0ABytes, kL0CBytes, kL1Bytes).empty()) {
    p.tm = m16;
    p.tn = n16;
    p.tk = ku;
  } else {
    if (req.m % 16) bad("--tile-m must be a multiple of 16 (got " + std::to_string(req.m) + ")");
    if (req.n % 16) bad("--tile-n must be a multiple of 16 (got " + std::to_string(req.n) + ")");
    if (req.k % unit)
      bad("--tile-k must be a multiple of " + std::to_string(unit) +
          (s.sparse ? " for 4:2 sparse" : " for int8") + " (got " + std::to_string(req.k) + ")");
    p.tm = clip(req.m ? req.m : 128, m16);
    p.tn = clip(req.n ? req.n : 128, n16);
    p.tk = clip(req.k ? req.k : 256, ku);
  }
  p.m_tiles = static_cast<uint32_t>(ceil_div(s.M, p.tm));
  p.n_tiles = static_cast<uint32_t>(ceil_div(s.N, p.tn));
  p.k_chunks = static_cast<uint32_t>(ceil_div(s.K, p.tk));
  p.double_buffered = p.steps() > 1;
  p.l0c_double = uint64_t{p.m_tiles} * p.n_tiles > 1;
  const uint64_t bufs = p.double_buffered ? 2 : 1, cbufs = p.l0c_double ? 2 : 1;
  const std::string why = misfit(s, std::min(p.tm, s.M), std::min(p.tn, s.N), std::min(p.tk, s.K),
                                 kL0ABytes / bufs, kL0CBytes / cbufs, kL1Bytes / bufs);
  if (!why.empty())
    bad("tile (m x k x n) " + std::to_string(p.tm) + "x" + std::to_string(p.tk) + "x" + std::to_string(p.tn) +
        " does not fit" + (p.double_buffered ? " double-buffered" : "") + ": " + why +
        " (choose smaller --tile-m/--tile-n/--tile-k)");

  const TileBytes t = tile_bytes(s, p.tm, p.tn, p.tk);
  p.l1_full = req.l1_full;
  if (p.l1_full) {  // the whole operands, one after the other
    const TileBytes whole = tile_bytes(s, s.M, s.N, s.K);
    const uint64_t need = round_up(whole.a, 512) + round_up(whole.b, 512) + whole.idx;
    if (need > kL1Bytes)
      bad("--l1-full: A, B" + std::string(s.sparse ? " and the indexes" : "") + " need " +
          std::to_string(ceil_div(need, 1024)) + " KiB of L1, " + std::to_string(kL1Bytes / 1024) +
          " KiB available");
    if (ceil_div(s.M, 16) * ceil_div(s.K, 32) > 65535 ||
        ceil_div(s.K, k_unit(s.sparse)) * ceil_div(s.N, 16) > 65535)
      bad("--l1-full: A or B has more than 65535 fractals (LoadData startIndex is 16 bits)");
    p.l1_a = 0;
    p.l1_b = round_up(whole.a, 512);
    p.l1_idx = p.l1_b + round_up(whole.b, 512);
    p.l1_slot = 0;
    p.l0a_slot = kL0ABytes / 2;
    p.l0b_slot = kL0BBytes / 2;
    p.l0c_slot = kL0CBytes / 2;
    return p;
  }
  p.l1_a = 0;
  p.l1_b = round_up(t.a, 512);
  p.l1_idx = p.l1_b + round_up(t.b, 512);
  p.l1_slot = kL1Bytes / 2;
  p.l0a_slot = kL0ABytes / 2;
  p.l0b_slot = kL0BBytes / 2;
  p.l0c_slot = kL0CBytes / 2;
  return p;
}

uint32_t gm_index_c(const Plan& p) {
  return p.shape.sparse ? 3 : 2;
}

std::vector<std::string> gm_names(const Plan& p) {
  if (p.shape.sparse) return {"a", "b", "idx", "c"};
  return {"a", "b", "c"};
}

uint64_t gm_bytes_a(const Plan& p) {
  return uint64_t{p.shape.M} * p.shape.K;
}
uint64_t gm_bytes_b(const Plan& p) {
  return ceil_div(p.shape.K, k_unit(p.shape.sparse)) * ceil_div(p.shape.N, 16) * 512;
}
uint64_t gm_bytes_idx(const Plan& p) {
  return p.shape.sparse ? ceil_div(p.shape.K, 64) * ceil_div(p.shape.N, 16) * 128 : 0;
}
uint64_t gm_bytes_c(const Plan& p) {
  return uint64_t{p.shape.M} * p.n16() * 4;
}

}  // namespace aicore::gen
