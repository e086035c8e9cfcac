// The Matmul API's host tiling without a kernel (tiling/tiling_api.h): the platform's answers for
// the default configuration (atlas-a2: 24 cores, 512 KiB L1, 64 KiB L0A/L0B, 128 KiB L0C), the
// one-core and multi-core tilings' fields (hand-computed from the rules of docs/ascendc.md), the
// bytes SaveToBuffer writes, and the requests GetTiling refuses.
#include <catch2/catch.hpp>

#include <cstring>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using AscendC::TPosition;
using matmul_tiling::DataType;

namespace {

template <class Tiling>
void half_types(Tiling& t, DataType c = DataType::DT_FLOAT, bool b_trans = false) {
  t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, b_trans);
  t.SetCType(TPosition::GM, CubeFormat::ND, c);
}

}  // namespace

TEST_CASE("Matmul tiling: the platform answers from the launch configuration", "[units][matmul_api]") {
  const platform_ascendc::PlatformAscendC& p = *platform_ascendc::PlatformAscendCManager::GetInstance();
  CHECK(p.GetCoreNumAic() == 24);
  CHECK(p.GetCoreNum() == 24);
  uint64_t size = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, size);
  CHECK(size == 512 * 1024);
  p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, size);
  CHECK(size == 64 * 1024);
  p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, size);
  CHECK(size == 128 * 1024);
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, size);
  CHECK(size == 0);
}

TEST_CASE("Matmul tiling: one core, the kernel's struct, SaveToBuffer's bytes", "[units][matmul_api]") {
  matmul_tiling::MatmulApiTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  half_types(t);
  t.SetShape(512, 1024, 256);
  t.SetOrgShape(512, 1024, 256);
  t.SetBufferSpace(-1, -1, -1);
  AscendC::tiling::TCubeTiling k;
  REQUIRE(t.GetTiling(k) == 0);
  CHECK(k.usedCoreNum == 1);
  CHECK(k.M == 512);
  CHECK(k.N == 1024);
  CHECK(k.Ka == 256);
  CHECK(k.Kb == 256);
  CHECK(k.singleCoreM == 512);
  CHECK(k.singleCoreN == 1024);
  CHECK(k.singleCoreK == 256);
  CHECK(k.baseM == 128);
  CHECK(k.baseN == 256);
  CHECK(k.baseK == 64);
  CHECK(k.depthA1 == 2);
  CHECK(k.depthB1 == 2);
  CHECK(k.stepKa == 1);
  CHECK(k.stepKb == 1);
  CHECK(k.stepM == 1);
  CHECK(k.stepN == 1);
  CHECK(k.dbL0A == 2);
  CHECK(k.dbL0B == 2);
  CHECK(k.dbL0C == 1);  // two 128 x 256 fp32 blocks are 256 KiB: one fits L0C
  CHECK(k.iterateOrder == 1);
  CHECK(k.isBias == 0);
  CHECK(k.shareL1Size == (128 * 64 * 2 + 64 * 256 * 2) * 2);
  CHECK(k.shareL0CSize == 128 * 256 * 4);
  // The host's struct: the same fields, and SaveToBuffer writes the kernel's struct.
  optiling::TCubeTiling h;
  REQUIRE(t.GetTiling(h) == 0);
  CHECK(h.get_baseN() == 256);
  CHECK(h.GetDataSize() == sizeof(AscendC::tiling::TCubeTiling));
  std::vector<uint8_t> buf(h.GetDataSize(), 0xee);
  h.SaveToBuffer(buf.data(), buf.size());
  CHECK(std::memcmp(buf.data(), &k, sizeof k) == 0);
  TCubeTiling copy;
  std::memcpy(&copy, buf.data(), sizeof copy);
  CHECK(copy.singleCoreN == 1024);
  // SetTraverse(FIRSTM): C's base blocks along M first.
  t.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM);
  REQUIRE(t.GetTiling(k) == 0);
  CHECK(k.iterateOrder == 0);
  t.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
  REQUIRE(t.GetTiling(k) == 0);
  CHECK(k.iterateOrder == 1);
}

TEST_CASE("Matmul tiling: SetFixSplit, SetSingleShape, GetCoreNum", "[units][matmul_api]") {
  matmul_tiling::MultiCoreMatmulTiling t;
  half_types(t, DataType::DT_FLOAT16, true);
  t.SetDim(8);
  t.SetShape(1024, 512, 128);
  t.SetOrgShape(1024, 512, 128);
  t.SetFixSplit(64, 128, 32);
  optiling::TCubeTiling h;
  REQUIRE(t.GetTiling(h) == 0);
  // Splits of 8 for 1024 x 512 in base blocks of 64 x 128: 1x8 -> parts 1024 x 64, 16 x 1 blocks;
  // 2x4 -> 512 x 128, 8 x 1; 4x2 -> 256 x 256, 4 x 2; 8x1 -> 128 x 512, 2 x 4. Fewest blocks (8):
  // 2x4, 4x2, 8x1; squarest (|4 - 2| = 2): 4x2 and 8x1; fewer rows of parts: 4x2.
  int32_t dim = 0, m_dim = 0, n_dim = 0;
  t.GetCoreNum(dim, m_dim, n_dim);
  CHECK(dim == 8);
  CHECK(m_dim == 4);
  CHECK(n_dim == 2);
  CHECK(h.get_singleCoreM() == 256);
  CHECK(h.get_singleCoreN() == 256);
  CHECK(h.get_baseM() == 64);
  CHECK(h.get_baseN() == 128);
  CHECK(h.get_baseK() == 32);
  CHECK(h.get_dbL0C() == 2);
  int32_t sm = 0, sn = 0, sk = 0;
  t.GetSingleShape(sm, sn, sk);
  CHECK(sm == 256);
  CHECK(sn == 256);
  CHECK(sk == 128);

  matmul_tiling::MultiCoreMatmulTiling s;
  half_types(s);
  s.SetDim(24);
  s.SetShape(1024, 512, 128);
  s.SetSingleShape(256, 512, -1);
  REQUIRE(s.GetTiling(h) == 0);
  CHECK(h.get_usedCoreNum() == 4);
  CHECK(h.get_singleCoreM() == 256);
  CHECK(h.get_singleCoreN() == 512);
  // More parts than cores (a kernel that runs C in rounds): usedCoreNum is the parts.
  s.SetDim(2);
  REQUIRE(s.GetTiling(h) == 0);
  CHECK(h.get_usedCoreNum() == 4);
}

TEST_CASE("Matmul tiling: what GetTiling refuses returns -1", "[units][matmul_api]") {
  const auto refused = [](auto&& set) {
    matmul_tiling::MultiCoreMatmulTiling t;
    half_types(t);
    t.SetDim(1);
    t.SetShape(256, 256, 256);
    set(t);
    optiling::TCubeTiling h;
    return t.GetTiling(h) == -1;
  };
  using T = matmul_tiling::MultiCoreMatmulTiling;
  CHECK(!refused([](T& t) { t.SetBias(true); }));
  CHECK(refused([](T& t) {  // the bias table takes float or half
    t.SetBias(true);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16);
  }));
  CHECK(!refused([](T& t) { t.SetFixSplit(64, 512, 32); }));
  CHECK(refused([](T& t) {  // 512 float cells > the 1 KiB bias table
    t.SetBias(true);
    t.SetFixSplit(64, 512, 32);
  }));
  CHECK(refused([](T& t) { t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8); }));
  CHECK(refused([](T& t) { t.SetAType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT16); }));
  CHECK(refused([](T& t) { t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true); }));
  CHECK(refused([](T& t) { t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32); }));
  CHECK(refused([](T& t) { t.SetShape(250, 256, 256); }));      // not a multiple of 16
  CHECK(refused([](T& t) { t.SetOrgShape(256, 256, 512); }));   // K split
  CHECK(refused([](T& t) { t.SetDim(25); }));                   // above the 24 cores
  CHECK(refused([](T& t) { t.SetFixSplit(256, 256, 64); }));    // 256 x 256 fp32 > L0C
  CHECK(refused([](T& t) { t.SetShape(-1, 256, 256); }));       // no shape
  CHECK(!refused([](T& t) { t.SetFixSplit(128, 128, 128); }));  // fits
}

TEST_CASE("Matmul tiling: SetBias(true) sets isBias and counts the bias's L1", "[units][matmul_api]") {
  matmul_tiling::MatmulApiTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  half_types(t);
  t.SetShape(512, 1024, 256);
  t.SetOrgShape(512, 1024, 256);
  t.SetBias(true);
  t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  AscendC::tiling::TCubeTiling k;
  REQUIRE(t.GetTiling(k) == 0);
  CHECK(k.isBias == 1);
  CHECK(k.baseN == 256);  // 256 float cells: the whole 1 KiB table
  CHECK(k.shareL1Size == (128 * 64 * 2 + 64 * 256 * 2) * 2 + 1024);
  t.SetBias(false);
  REQUIRE(t.GetTiling(k) == 0);
  CHECK(k.isBias == 0);
}
