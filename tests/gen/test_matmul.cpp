// The best-practice fp16/bf16 matmul kernel (gen/matmul.hpp): plans, the flag protocol, results
// against the independent golden in program order and in random pipe interleavings (a missing
// flag shows up as a wrong result: on-chip buffers start as garbage), and the command line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "aicore/common/error.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/gen/matmul.hpp"
#include "machine.hpp"

using namespace aicore;
using gen::BLayout;

namespace {

// C as fp32 unless asked: the tests compare with the fp32 golden.
gen::MatmulPlan plan(uint32_t m, uint32_t k, uint32_t n, isa::DType t, BLayout b, gen::MatmulOptions o = {},
                     isa::DType c = isa::DType::Float) {
  gen::MatmulShape s;
  s.M = m, s.K = k, s.N = n, s.dtype = t, s.c_dtype = c, s.b_layout = b;
  return gen::make_matmul_plan(s, o);
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<float> c_of(const gentest::Machine& m) {
  std::vector<float> c(m.gm[2].size() / 4);
  std::memcpy(c.data(), m.gm[2].data(), m.gm[2].size());
  return c;
}

gentest::Machine machine(const gen::MatmulPlan& p, const gen::MatmulData& d, uint64_t seed) {
  return gentest::Machine({bytes_of(d.a), bytes_of(d.b), std::vector<uint8_t>(gen::matmul_bytes_c(p), 0)},
                          seed);
}

std::string err_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

uint64_t count_mmads(const std::vector<gen::Emitted>& prog) {
  uint64_t n = 0;
  for (const auto& e : prog) n += std::holds_alternative<isa::Mmad>(e.op);
  return n;
}

}  // namespace

TEST_CASE("matmul: fp16/bf16 element conversions round to nearest even", "[gen][matmul]") {
  CHECK(gen::float_to_half(1.0f) == 0x3c00);
  CHECK(gen::float_to_half(-2.0f) == 0xc000);
  CHECK(gen::float_to_half(0.1f) == 0x2e66);
  CHECK(gen::float_to_half(65504.0f) == 0x7bff);
  CHECK(gen::float_to_half(std::ldexp(1.0f, -24)) == 0x0001);         // smallest subnormal
  CHECK(gen::float_to_half(std::ldexp(1.0f, -14)) == 0x0400);         // smallest normal
  CHECK(gen::float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);  // a tie goes to even
  CHECK(gen::half_to_float(0x3555) == Approx(0.333251953125).epsilon(0));
  CHECK(gen::half_to_float(0x8001) == -std::ldexp(1.0f, -24));
  CHECK(gen::float_to_bf16(1.0f) == 0x3f80);
  CHECK(gen::float_to_bf16(-0.875f) == 0xbf60);
  CHECK(gen::bf16_to_float(0x3f80) == 1.0f);
  for (uint32_t h = 0; h < 0x7c00; ++h)  // every finite half survives the round trip
    REQUIRE(gen::float_to_half(gen::half_to_float(static_cast<uint16_t>(h))) == h);
}

TEST_CASE("matmul: plans check the shape, the base block and the buffers", "[gen][matmul]") {
  const auto p = plan(512, 256, 768, isa::DType::Half, BLayout::NT);
  CHECK(p.m_blocks == 4);
  CHECK(p.n_blocks == 3);
  CHECK(p.k_steps == 4);
  CHECK(p.l0c_buffers == 1);  // a 128 x 256 fp32 block fills L0C
  CHECK(plan(256, 64, 256, isa::DType::BF16, BLayout::ND, {64, 128, 64}).l0c_buffers == 2);
  CHECK(err_of([] { plan(100, 64, 64, isa::DType::Half, BLayout::NT); }) ==
        "gen: error: --m must be a positive multiple of 16 for the half/bf16 kernel (got 100)");
  CHECK(err_of([] {
          plan(256, 64, 256, isa::DType::Half, BLayout::NT, {256, 256, 64});
        }) == "gen: error: base 256x256x64: the C block needs 256 KiB of L0C, 128 KiB available");
  CHECK(err_of([] {
          plan(256, 256, 256, isa::DType::Half, BLayout::NT, {128, 256, 128});
        }) ==
        "gen: error: base 128x256x128: the B tile needs 64 KiB of L0B per buffer, 32 KiB available with 2 "
        "buffer(s)");
  CHECK(err_of([] {
          plan(64, 64, 64, isa::DType::Half, BLayout::NT, {64, 64, 24});
        }) == "gen: error: --base k must be a multiple of 16 in 16..4080 (got 24)");
  CHECK(err_of([] { plan(64, 64, 64, isa::DType::Int8, BLayout::NT); }) ==
        "gen: error: --dtype must be half or bf16");
}

TEST_CASE("matmul: the program's flags pair up in program order, --blocks cuts whole blocks",
          "[gen][matmul]") {
  for (const uint32_t l1 : {1u, 2u})
    for (const uint32_t l0 : {1u, 2u}) {
      CAPTURE(l1, l0);
      for (const bool uf : {true, false}) {
        CAPTURE(uf);
        gen::MatmulOptions o{128, 256, 64, l1, l0};
        o.unit_flag = uf;
        const auto p = plan(256, 128, 512, isa::DType::Half, BLayout::NT, o);
        CHECK(gentest::check_flags_in_order(gentest::ops_of(gen::emit_matmul(p))).empty());
      }
    }
  gen::MatmulOptions o;
  o.blocks = 3;
  const auto p = plan(512, 256, 768, isa::DType::Half, BLayout::NT, o);
  CHECK(p.emitted_blocks() == 3);
  CHECK(count_mmads(gen::emit_matmul(p)) == 3 * 4);
  CHECK(gentest::check_flags_in_order(gentest::ops_of(gen::emit_matmul(p))).empty());
}

TEST_CASE("matmul: load3d_a loads A with one LoadData3DV2 per K step instead of LoadData 2D",
          "[gen][matmul]") {
  gen::MatmulOptions o{128, 256, 64};
  const auto two_d = gen::emit_matmul(plan(256, 256, 512, isa::DType::Half, BLayout::NT, o));
  o.load3d_a = true;
  const auto p = plan(256, 256, 512, isa::DType::Half, BLayout::NT, o);
  const auto l3 = gen::emit_matmul(p);
  CHECK(gentest::check_flags_in_order(gentest::ops_of(l3)).empty());
  const auto count = [](const std::vector<gen::Emitted>& prog, auto pred) {
    uint64_t n = 0;
    for (const auto& e : prog) n += pred(e.op);
    return n;
  };
  const auto is_l3 = [](const isa::Op& op) { return std::holds_alternative<isa::LoadData3DV2>(op); };
  const auto is_l0a_2d = [](const isa::Op& op) {
    const auto* l = std::get_if<isa::LoadData>(&op);
    return l && l->dst.space == isa::Space::L0A;
  };
  // 2 x 1 blocks of 8 K steps: base 128 x 64 is 8 row-blocks x 4 column blocks, 4 LoadData 2D a step.
  CHECK(count(two_d, is_l0a_2d) == 2 * 8 * 4);
  CHECK(count(two_d, is_l3) == 0);
  CHECK(count(l3, is_l3) == 2 * 8);
  CHECK(count(l3, is_l0a_2d) == 0);
  CHECK(l3.size() == two_d.size() - 2 * 8 * 3);
  CHECK_THAT(p.describe(), Catch::EndsWith(", A by Load3Dv2"));
  for (const auto& e : l3)
    if (const auto* l = std::get_if<isa::LoadData3DV2>(&e.op)) {
      CHECK((l->l1H == 1 && l->l1W == 128 && l->channelSize == 64 && l->kExtension == 64 &&
             l->mExtension == 128));
      CHECK_NOTHROW(isa::check_fields(e.op));
    }
}

TEST_CASE("matmul: exact data is bit-exact in program order and in random pipe interleavings",
          "[gen][matmul]") {
  struct Case {
    uint32_t m, k, n;
    isa::DType t;
    BLayout b;
    gen::MatmulOptions o;
  };
  const std::vector<Case> cases = {
      {128, 128, 256, isa::DType::Half, BLayout::NT, {64, 128, 64}},
      {160, 96, 192, isa::DType::BF16, BLayout::ND, {64, 128, 64}},  // edge blocks in M, N and K
      {128, 128, 128, isa::DType::Half, BLayout::ND, {64, 64, 32, 1, 2}},
      {96, 64, 128, isa::DType::BF16, BLayout::NT, {32, 64, 32, 2, 1}},
      {256, 64, 256, isa::DType::Half, BLayout::NT, {128, 256, 64}},  // the measured base block
  };
  // Every case with unitFlag (the default) and with M_FIX / FIX_M flags, and A by LoadData 2D (the
  // default) and by one LoadData3DV2 per K step.
  std::vector<Case> both = cases;
  for (Case c : cases) {
    c.o.unit_flag = false;
    both.push_back(c);
  }
  for (Case c : std::vector<Case>(both)) {
    c.o.load3d_a = true;
    both.push_back(c);
  }
  for (const Case& c : both) {
    const auto p = plan(c.m, c.k, c.n, c.t, c.b, c.o);
    CAPTURE(p.describe());
    const gen::MatmulData d = gen::matmul_data(p, 7, true);
    const auto ops = gentest::ops_of(gen::emit_matmul(p));
    gentest::Machine in_order = machine(p, d, 1);
    gentest::run_in_order(ops, in_order);
    CHECK(c_of(in_order) == d.golden);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      gentest::Machine m = machine(p, d, seed + 10);
      REQUIRE(gentest::run_interleaved(ops, m, seed).empty());
      CHECK(c_of(m) == d.golden);
    }
  }
}

TEST_CASE("matmul: fp16 and bf16 C are the fp32 golden rounded once, bit for bit", "[gen][matmul]") {
  for (const auto t : {isa::DType::Half, isa::DType::BF16}) {
    const auto p = plan(160, 96, 192, t, BLayout::NT, {64, 128, 64}, t);
    CAPTURE(p.describe());
    const gen::MatmulData d = gen::matmul_data(p, 9, true);
    const std::vector<uint8_t> golden = gen::matmul_golden_bytes(p, d);
    CHECK(golden.size() == gen::matmul_bytes_c(p));
    CHECK(golden.size() == d.golden.size() * 2);
    const auto ops = gentest::ops_of(gen::emit_matmul(p));
    gentest::Machine in_order = machine(p, d, 2);
    gentest::run_in_order(ops, in_order);
    CHECK(in_order.gm[2] == golden);
    gentest::Machine m = machine(p, d, 3);
    REQUIRE(gentest::run_interleaved(ops, m, 4).empty());
    CHECK(m.gm[2] == golden);
  }
}

TEST_CASE("matmul: random data matches the golden within the documented tolerance", "[gen][matmul]") {
  for (const auto t : {isa::DType::Half, isa::DType::BF16})
    for (const auto ct : {isa::DType::Float, t}) {  // C in fp32, or in the input type
      const auto p = plan(128, 256, 128, t, BLayout::ND, {64, 64, 64}, ct);
      const gen::MatmulData d = gen::matmul_data(p, 3, false);
      const std::vector<float> tol = gen::matmul_tolerance(p, d);
      gentest::Machine m = machine(p, d, 5);
      gentest::run_in_order(gentest::ops_of(gen::emit_matmul(p)), m);
      std::vector<float> c = ct == isa::DType::Float ? c_of(m) : std::vector<float>(d.golden.size());
      for (size_t i = 0; ct != isa::DType::Float && i < c.size(); ++i) {
        uint16_t h;
        std::memcpy(&h, m.gm[2].data() + i * 2, 2);
        c[i] = ct == isa::DType::Half ? gen::half_to_float(h) : gen::bf16_to_float(h);
      }
      size_t worse = 0, inexact = 0;
      for (size_t i = 0; i < c.size(); ++i) {
        worse += std::fabs(static_cast<double>(c[i]) - d.golden[i]) > tol[i];
        inexact += c[i] != d.golden[i];
      }
      CHECK(worse == 0);
      CHECK(inexact > 0);  // the random values do exercise rounding
    }
}

TEST_CASE("matmul: core_plan cuts C into 16-aligned parts, the last row/column of parts shorter",
          "[gen][matmul][cores]") {
  gen::MatmulShape s;
  s.M = 8192;
  s.K = 64;
  s.N = 8192;
  const gen::MatmulPlan whole = gen::make_matmul_plan(s, gen::MatmulOptions{});
  // 8192 / 4 = 2048 rows a part; 8192 / 6 = 1365.3 -> 1376 columns (16-aligned), the sixth 1312.
  const gen::MatmulPlan c0 = gen::core_plan(whole, 4, 6, 0), c5 = gen::core_plan(whole, 4, 6, 5),
                        c23 = gen::core_plan(whole, 4, 6, 23), c7 = gen::core_plan(whole, 4, 6, 7);
  CHECK(c0.m_begin == 0);
  CHECK(c0.m_end == 2048);
  CHECK(c0.n_begin == 0);
  CHECK(c0.n_end == 1376);
  CHECK(c5.n_begin == 5 * 1376);
  CHECK(c5.n_end == 8192);
  CHECK(c7.m_begin == 2048);
  CHECK(c7.n_begin == 1376);
  CHECK(c23.m_begin == 6144);
  CHECK(c23.m_end == 8192);
  CHECK(c0.m_blocks == 16);
  CHECK(c0.n_blocks == 6);  // 1376 = 5 x 256 + 96
  CHECK(c5.n_blocks == 6);  // 1312 = 5 x 256 + 32
  // Every C element belongs to exactly one core.
  s.M = 80;
  s.N = 48;
  const gen::MatmulPlan small = gen::make_matmul_plan(s, gen::MatmulOptions{});
  std::vector<int> owner(80 * 48, 0);
  for (uint32_t c = 0; c < 6; ++c) {
    const gen::MatmulPlan p = gen::core_plan(small, 3, 2, c);
    for (uint32_t i = p.m_begin; i < p.m_end; ++i)
      for (uint32_t j = p.n_begin; j < p.n_end; ++j) ++owner[i * 48 + j];
  }
  CHECK(std::count(owner.begin(), owner.end(), 1) == 80 * 48);
  CHECK_THROWS_WITH(
      gen::core_plan(small, 6, 1, 0),
      Catch::Contains("--split 6x1 leaves cores without work: 80 x 48 cut in parts of 16 x 48"));
}

TEST_CASE("matmul: gen --dtype errors name the option", "[gen][matmul][cli]") {
  auto run = [](const std::vector<std::string>& args) {
    std::ostringstream o, e;
    const int s = gen::gen_main(args, o, e, "aicore-sim");
    return std::make_pair(s, e.str());
  };
  auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  const std::vector<std::string> base = {"--dtype", "half", "--m", "64",    "--k",
                                         "64",      "--n",  "64",  "--out", "/tmp/x"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto r = run(with({"--base", "64x64"}));
  CHECK(r.first == 2);
  CHECK(first_line(r.second) ==
        "gen: error: --base must be MxNxK (base_m x base_n x base_k, e.g. 128x256x64), not '64x64'");
  r = run(with({"--blocks", "2"}));
  CHECK(r.first == 2);
  CHECK(first_line(r.second) ==
        "gen: error: --blocks N writes a partial kernel, which has no golden: give it with --timing-only");
  r = run(with({"--b-layout", "tn"}));
  CHECK(first_line(r.second) == "gen: error: --b-layout must be nd (K x N) or nt (N x K), not 'tn'");
  r = run(with({"--a-load", "3d"}));
  CHECK(r.first == 2);
  CHECK(first_line(r.second) ==
        "gen: error: --a-load must be 2d (LoadData 2D per fractal row or column) or load3d (one LoadData3DV2 "
        "per K step), not '3d'");
  r = run(with({"--timing-only", "--values", "random"}));
  CHECK(first_line(r.second) ==
        "gen: error: --values chooses the data: it has no meaning with --timing-only");
  r = run({"--dtype", "int8", "--m", "64", "--k", "64", "--n", "64", "--out", "/tmp/x"});
  CHECK(first_line(r.second) ==
        "gen: error: --dtype must be half or bf16 (int8 GEMMs: --dense or --sparse without --dtype), not "
        "'int8'");
  r = run(with({"--c-dtype", "int8"}));
  CHECK(first_line(r.second) ==
        "gen: error: --c-dtype must be half, bf16 or float (the type Fixpipe writes C in), not 'int8'");
  r = run(with({"--cores", "4"}));
  CHECK(first_line(r.second) == "gen: error: --cores 4 needs --split MxN (e.g. --split 4x6 for 24 cores)");
  r = run(with({"--cores", "4", "--split", "2x3"}));
  CHECK(first_line(r.second) ==
        "gen: error: --split 2x3 makes 6 parts for --cores 4: one part per core (M x N = cores)");
  r = run(with({"--cores", "4", "--split", "4"}));
  CHECK(first_line(r.second) ==
        "gen: error: --split must be MxN (parts of C along M and N, e.g. 4x6), not '4'");
  r = run(with({"--cores", "4", "--split", "0x4"}));
  CHECK(first_line(r.second) ==
        "gen: error: --split must be MxN (parts of C along M and N, e.g. 4x6), not '0x4'");
  r = run(with({"--cores", "8", "--split", "8x1"}));
  CHECK(first_line(r.second) ==
        "gen: error: --split 8x1 leaves cores without work: 64 x 64 cut in parts of 16 x 64 (16-row/column "
        "multiples) fills fewer than 8 x 1 parts; choose a smaller split");
  r = run(with({"--unit-flag", "yes"}));
  CHECK(
      first_line(r.second) ==
      "gen: error: --unit-flag must be on (hand L0C to Fixpipe by unitFlag, as the Matmul NORM template) or "
      "off (M_FIX / FIX_M flags), not 'yes'");
  r = run(with({"--l1-bufers", "1"}));
  CHECK(first_line(r.second) == "gen: error: unknown option --l1-bufers (did you mean --l1-buffers?)");
}
