// The Matmul API's host tiling (tiling/tiling_api.h) and the platform it asks
// (tiling/platform/platform_ascendc.h). The rules are aicore-sim's own (docs/ascendc.md, "Matmul
// API"); every tiling it returns is one the generator's schedule accepts (make_matmul_plan).
#include "tiling/tiling_api.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/frontend/launch_options.hpp"
#include "aicore/gen/matmul.hpp"

namespace platform_ascendc {

namespace {

// The configuration the launches will run with ($AICORE_SIM_ARGS' --config and --set). Read on its
// own, not through launch_options(): the host tiling runs before aclInit, which makes the program
// an `.asc` one and so changes launch_options()' defaults (the output folder), not the configuration.
const aicore::config::Config& launch_config() {
  static const aicore::config::Config c = [] {
    const char* text = std::getenv(aicore::session::kLaunchArgsVariable);
    auto parsed = aicore::frontend::parse_launch_options(text ? text : "", std::cerr);
    if (!parsed) {
      std::cerr << "aicore-sim: error: bad launch options in $" << aicore::session::kLaunchArgsVariable
                << "\n";
      std::exit(2);
    }
    return parsed->config;
  }();
  return c;
}

}  // namespace

PlatformAscendC::PlatformAscendC() {
  const aicore::config::Config& c = launch_config();
  cores_ = c.chip.cores;
  l1_ = c.buffers.l1_bytes;
  l0a_ = c.buffers.l0a_bytes;
  l0b_ = c.buffers.l0b_bytes;
  l0c_ = c.buffers.l0c_bytes;
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  switch (memType) {
    case CoreMemType::L0_A:
      size = l0a_;
      return;
    case CoreMemType::L0_B:
      size = l0b_;
      return;
    case CoreMemType::L0_C:
      size = l0c_;
      return;
    case CoreMemType::L1:
      size = l1_;
      return;
    default:
      size = 0;
  }
}

PlatformAscendC* PlatformAscendCManager::GetInstance() {
  static PlatformAscendC p;
  return &p;
}
PlatformAscendC* PlatformAscendCManager::GetInstance(const char*) {
  return GetInstance();
}

}  // namespace platform_ascendc

namespace matmul_tiling {

namespace {

using platform_ascendc::CoreMemType;

int64_t refuse(const std::string& why) {
  std::cerr << "aicore-sim: MatmulApi Tiling: GetTiling fails: " << why << std::endl;
  return -1;
}

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}
int64_t part_size(int64_t whole, int64_t parts) {
  return ceil_div(ceil_div(whole, parts), 16) * 16;
}
std::string s(int64_t v) {
  return std::to_string(v);
}

struct Base {
  int64_t m, n, k;
};

// The base blocks tried in order when SetFixSplit leaves them to aicore-sim: the best-practice
// kernel's 128 x 256 x 64 first.
const Base kBases[] = {{128, 256, 64}, {128, 128, 64}, {64, 128, 64}, {64, 64, 64},
                       {32, 64, 64},   {32, 32, 32},   {16, 32, 32},  {16, 16, 16}};

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase()
    : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}
MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) : platform_(p) {
  c_.type = DataType::DT_FLOAT;
}

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  a_ = {pos, type, dataType, isTrans, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  b_ = {pos, type, dataType, isTrans, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  c_ = {pos, type, dataType, false, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  bias_ = {pos, type, dataType, false, true};
  return 0;
}
int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  m_ = m, n_ = n, k_ = k;
  return 0;
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  org_m_ = orgMIn, org_n_ = orgNIn, org_ka_ = orgKaIn, org_kb_ = orgKbIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
  is_bias_ = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  base_m_ = baseMIn, base_n_ = baseNIn, base_k_ = baseKIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t, int32_t) {
  l1_limit_ = l1Size, l0c_limit_ = l0CSize;
  return 0;
}

int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& tiling) {
  return compute(tiling.data());
}
int64_t MatmulApiTilingBase::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  return compute(tiling);
}

int64_t MatmulApiTilingBase::compute(AscendC::tiling::TCubeTiling& out) {
  // What aicore-sim's Matmul supports.
  const auto input = [](const Matrix& x) {
    return x.pos == TPosition::GM && x.format == CubeFormat::ND &&
           (x.type == DataType::DT_FLOAT16 || x.type == DataType::DT_BF16);
  };
  if (!input(a_) || !input(b_) || a_.type != b_.type)
    return refuse(
        "A and B must be in GM (TPosition::GM), CubeFormat::ND, both DT_FLOAT16 or both DT_BF16 (the types, "
        "formats and positions aicore-sim's Matmul supports)");
  if (a_.trans) return refuse("a transposed A is not supported yet by aicore-sim's Matmul");
  if (c_.pos != TPosition::GM || c_.format != CubeFormat::ND ||
      (c_.type != DataType::DT_FLOAT && c_.type != DataType::DT_FLOAT16 && c_.type != DataType::DT_BF16))
    return refuse("C must be in GM, CubeFormat::ND, DT_FLOAT, DT_FLOAT16 or DT_BF16");
  // A bias (SetBias(true)): a GM vector of float, or half (converted into the bias table); without
  // SetBiasType, float is assumed (only its L1 region, the same 1 KiB for both, depends on it here).
  if (is_bias_ && bias_.set &&
      (bias_.pos != TPosition::GM || bias_.format != CubeFormat::ND ||
       (bias_.type != DataType::DT_FLOAT && bias_.type != DataType::DT_FLOAT16)))
    return refuse("the bias must be in GM, CubeFormat::ND, DT_FLOAT or DT_FLOAT16 (SetBiasType)");
  const uint64_t bias_l1 = is_bias_ ? aicore::gen::kBiasTableBytes : 0;
  if (m_ <= 0 || n_ <= 0 || k_ <= 0)
    return refuse("SetShape(M, N, K) must come first, with positive sizes (got " + s(m_) + ", " + s(n_) +
                  ", " + s(k_) + ")");
  const int64_t org_m = org_m_ > 0 ? org_m_ : m_, org_n = org_n_ > 0 ? org_n_ : n_,
                org_ka = org_ka_ > 0 ? org_ka_ : k_, org_kb = org_kb_ > 0 ? org_kb_ : k_;
  if (org_ka != org_kb) return refuse("Ka = " + s(org_ka) + " and Kb = " + s(org_kb) + " differ");
  if (k_ != org_ka)
    return refuse("K = " + s(k_) + " is not the matrices' K = " + s(org_ka) +
                  ": splitting K is not supported yet by aicore-sim's Matmul");
  if (m_ > org_m || n_ > org_n) return refuse("SetShape is larger than SetOrgShape");
  for (const auto& [what, v] :
       {std::pair<const char*, int64_t>{"M", m_}, {"N", n_}, {"K", k_}, {"orgM", org_m}, {"orgN", org_n}})
    if (v % 16)
      return refuse(std::string(what) + " = " + s(v) +
                    " is not a multiple of 16: aicore-sim's Matmul (the gen schedule) needs M, N and K in "
                    "multiples of 16");

  // The split of C over the cores.
  int64_t dim = 1;
  if (multi_core()) {
    dim = dim_ > 0 ? dim_ : platform_.GetCoreNumAic();
    if (dim > static_cast<int64_t>(platform_.GetCoreNumAic()))
      return refuse("SetDim(" + s(dim) + ") is more than the SoC's " + s(platform_.GetCoreNumAic()) +
                    " cores (chip.cores)");
  }
  const Base want{base_m_ > 0 ? base_m_ : 128, base_n_ > 0 ? base_n_ : 256, base_k_ > 0 ? base_k_ : 64};
  int64_t split_m = 1, split_n = 1, pm = m_, pn = n_;
  if (multi_core() && (single_m_ > 0 || single_n_ > 0)) {
    const int64_t sm = single_m_ > 0 ? single_m_ : m_, sn = single_n_ > 0 ? single_n_ : n_;
    // Parts of any size (the last fractal's rows and columns past them are padding); with a bias
    // its copies move whole 32- and 64-byte blocks of the part's columns.
    if (is_bias_ && sn % 16) return refuse("SetSingleShape's N must be a multiple of 16 with a bias");
    if (single_k_ > 0 && single_k_ != k_)
      return refuse("SetSingleShape's K = " + s(single_k_) + " is not K: splitting K is not supported yet");
    split_m = ceil_div(m_, sm);
    split_n = ceil_div(n_, sn);
    pm = std::min<int64_t>(sm, m_);
    pn = std::min<int64_t>(sn, n_);
    // More parts than cores is the kernel's business (Huawei's best-practice Matmul runs C's rows in
    // two rounds on 24 cores with 48 parts): usedCoreNum is the parts, as the docs relate them.
  } else if (multi_core()) {
    // The most cores with a split whose parts are all non-empty; among those splits, the fewest base
    // blocks per core, then the part closest to square in base blocks, then fewer rows of parts.
    bool found = false;
    for (int64_t d = dim; d >= 1 && !found; --d) {
      int64_t best_blocks = 0, best_skew = 0;
      for (int64_t sm = 1; sm <= d; ++sm) {
        if (d % sm) continue;
        const int64_t sn = d / sm, pm = part_size(m_, sm), pn = part_size(n_, sn);
        if (pm * (sm - 1) >= m_ || pn * (sn - 1) >= n_) continue;
        const int64_t bm = ceil_div(pm, want.m), bn = ceil_div(pn, want.n);
        const int64_t blocks = bm * bn, skew = std::max(bm, bn) - std::min(bm, bn);
        if (!found || blocks < best_blocks || (blocks == best_blocks && skew < best_skew)) {
          found = true;
          best_blocks = blocks;
          best_skew = skew;
          split_m = sm;
          split_n = sn;
        }
      }
    }
    pm = part_size(m_, split_m);
    pn = part_size(n_, split_n);
  }
  used_m_ = static_cast<int32_t>(split_m);
  used_n_ = static_cast<int32_t>(split_n);

  // The base block: SetFixSplit's, or the first of kBases (each clipped to the part) that fits.
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0;
  platform_.GetCoreMemSize(CoreMemType::L1, l1);
  platform_.GetCoreMemSize(CoreMemType::L0_A, l0a);
  platform_.GetCoreMemSize(CoreMemType::L0_B, l0b);
  platform_.GetCoreMemSize(CoreMemType::L0_C, l0c);
  if (l1_limit_ > 0) l1 = std::min<uint64_t>(l1, static_cast<uint64_t>(l1_limit_));
  if (l0c_limit_ > 0) l0c = std::min<uint64_t>(l0c, static_cast<uint64_t>(l0c_limit_));
  const auto fits = [&](const Base& b, std::string* why) {
    const uint64_t a = static_cast<uint64_t>(b.m * b.k * 2), bb = static_cast<uint64_t>(b.k * b.n * 2),
                   c = static_cast<uint64_t>(b.m * b.n * 4);
    const std::string name = s(b.m) + " x " + s(b.n) + " x " + s(b.k);
    if (a > l0a || bb > l0b) {
      if (why)
        *why = "base " + name + ": the A and B tiles need " + s(a) + " and " + s(bb) +
               " bytes of L0A / L0B (" + s(l0a) + " / " + s(l0b) + ")";
      return false;
    }
    if (c > l0c) {
      if (why)
        *why = "base " + name + ": the C block needs " + s(c) + " bytes of L0C, " + s(l0c) + " available";
      return false;
    }
    if (is_bias_ && static_cast<uint64_t>(b.n) * 4 > aicore::gen::kBiasTableBytes) {
      if (why)
        *why = "base " + name + ": with a bias, baseN float cells need " + s(b.n * 4) +
               " bytes of the bias table, which holds " + s(aicore::gen::kBiasTableBytes) + " (baseN <= 256)";
      return false;
    }
    if ((a + bb) * 2 + bias_l1 > l1) {
      if (why)
        *why = "base " + name + ": two A and B tiles (depthA1 = depthB1 = 2) need " + s((a + bb) * 2) +
               " bytes of L1" + (is_bias_ ? " and the bias " + s(bias_l1) : std::string()) + ", " + s(l1) +
               " available";
      return false;
    }
    return true;
  };
  Base base{0, 0, 0};
  const bool fixed = base_m_ > 0 || base_n_ > 0 || base_k_ > 0;
  if (fixed) {
    base = {std::min(want.m, pm), std::min(want.n, pn), std::min<int64_t>(want.k, k_)};
    if (base_m_ > 0) base.m = base_m_;
    if (base_n_ > 0) base.n = base_n_;
    if (base_k_ > 0) base.k = base_k_;
    std::string why;
    if (!fits(base, &why)) return refuse(why + " (SetFixSplit)");
  } else {
    for (const Base& b : kBases) {
      const Base clipped{std::min(b.m, pm), std::min(b.n, pn), std::min(b.k, static_cast<int64_t>(k_))};
      if (fits(clipped, nullptr)) {
        base = clipped;
        break;
      }
    }
    if (!base.m) {
      std::string why;
      fits({16, 16, 16}, &why);
      return refuse("no base block fits the buffers: " + why);
    }
  }
  const uint64_t a_tile = static_cast<uint64_t>(base.m * base.k * 2),
                 b_tile = static_cast<uint64_t>(base.k * base.n * 2);
  const int32_t db_l0 = a_tile * 2 <= l0a && b_tile * 2 <= l0b ? 2 : 1;
  const int64_t blocks = ceil_div(pm, base.m) * ceil_div(pn, base.n);
  const int32_t db_l0c = static_cast<uint64_t>(base.m * base.n * 4 * 2) <= l0c && blocks > 1 ? 2 : 1;

  // The schedule must accept it: the same plan the kernel's IterateAll makes for the largest part.
  try {
    aicore::gen::MatmulShape shape;
    shape.M = static_cast<uint32_t>(org_m);
    shape.K = static_cast<uint32_t>(k_);
    shape.N = static_cast<uint32_t>(org_n);
    shape.dtype = a_.type == DataType::DT_BF16 ? aicore::isa::DType::BF16 : aicore::isa::DType::Half;
    shape.b_layout = b_.trans ? aicore::gen::BLayout::NT : aicore::gen::BLayout::ND;
    aicore::gen::MatmulOptions o;
    o.base_m = static_cast<uint32_t>(base.m);
    o.base_n = static_cast<uint32_t>(base.n);
    o.base_k = static_cast<uint32_t>(base.k);
    o.l0_buffers = static_cast<uint32_t>(db_l0);
    o.depth_a1 = o.depth_b1 = 2;
    o.bias = is_bias_;
    o.bias_dtype = bias_.set && bias_.type == DataType::DT_FLOAT16 ? aicore::isa::DType::Half
                                                                   : aicore::isa::DType::Float;
    aicore::gen::make_matmul_plan(shape, o);
  } catch (const aicore::InputError& e) {
    return refuse(e.message());
  }

  out = AscendC::tiling::TCubeTiling{};
  out.usedCoreNum = static_cast<int32_t>(split_m * split_n);
  out.M = static_cast<int32_t>(org_m);
  out.N = static_cast<int32_t>(org_n);
  out.Ka = static_cast<int32_t>(org_ka);
  out.Kb = static_cast<int32_t>(org_kb);
  out.singleCoreM = static_cast<int32_t>(pm);
  out.singleCoreN = static_cast<int32_t>(pn);
  out.singleCoreK = k_;
  out.baseM = static_cast<int32_t>(base.m);
  out.baseN = static_cast<int32_t>(base.n);
  out.baseK = static_cast<int32_t>(base.k);
  out.depthA1 = out.depthB1 = 2;
  out.stepM = out.stepN = 1;
  out.stepKa = out.stepKb = 1;
  out.isBias = is_bias_ ? 1 : 0;
  out.iterateOrder = traverse_ == MatrixTraverse::FIRSTM ? 0 : 1;  // ORDER_M : ORDER_N
  out.shareL1Size = static_cast<int32_t>((a_tile + b_tile) * 2 + bias_l1);
  out.shareL0CSize = static_cast<int32_t>(base.m * base.n * 4 * db_l0c);
  out.batchM = out.batchN = out.singleBatchM = out.singleBatchN = 1;
  out.dbL0A = out.dbL0B = db_l0;
  out.dbL0C = db_l0c;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  dim_ = dim;
  return dim > 0 ? 0 : -1;
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  single_m_ = singleMIn, single_n_ = singleNIn, single_k_ = singleKIn;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = single_m_ > 0 ? single_m_ : static_cast<int32_t>(part_size(m_, used_m_));
  shapeN = single_n_ > 0 ? single_n_ : static_cast<int32_t>(part_size(n_, used_n_));
  shapeK = k_;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  dim = used_m_ * used_n_;
  mDim = used_m_;
  nDim = used_n_;
  return 0;
}

}  // namespace matmul_tiling
