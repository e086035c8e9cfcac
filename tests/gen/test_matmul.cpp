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
#include "aicore/trace/writer.hpp"
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
  // And C's base blocks along M first (iterateOrder ORDER_M) for the cases of several blocks.
  for (Case c : cases) {
    c.o.order_m = true;
    both.push_back(c);
    c.o.unit_flag = false;
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

TEST_CASE("matmul: order_m walks C's base blocks along M first", "[gen][matmul]") {
  // 160 x 192 in 64 x 128 blocks: 3 x 2 blocks. Along N first (the default) the Fixpipes write
  // blocks (0,0) (0,1) (1,0) (1,1) (2,0) (2,1); along M first (0,0) (1,0) (2,0) (0,1) (1,1) (2,1).
  // Hand-computed byte offsets in C (fp32, 192 columns): row r, column c at (r * 192 + c) * 4.
  const auto offsets = [](bool order_m) {
    gen::MatmulOptions o{64, 128, 64};
    o.order_m = order_m;
    std::vector<uint64_t> out;
    for (const auto& e : gen::emit_matmul(plan(160, 96, 192, isa::DType::Half, BLayout::NT, o)))
      if (const auto* f = std::get_if<isa::Fixpipe>(&e.op)) out.push_back(f->dst.offset);
    return out;
  };
  const auto at = [](uint64_t r, uint64_t c) { return (r * 192 + c) * 4; };
  CHECK(offsets(false) ==
        std::vector<uint64_t>{at(0, 0), at(0, 128), at(64, 0), at(64, 128), at(128, 0), at(128, 128)});
  CHECK(offsets(true) ==
        std::vector<uint64_t>{at(0, 0), at(64, 0), at(128, 0), at(0, 128), at(64, 128), at(128, 128)});
}

TEST_CASE("matmul: window_plan is core_plan's part given by its place, checked", "[gen][matmul][cores]") {
  gen::MatmulShape s;
  s.M = 400;
  s.K = 64;
  s.N = 432;
  const gen::MatmulPlan whole = gen::make_matmul_plan(s, gen::MatmulOptions{});
  // 400 / 4 = 100 -> 112 rows a part (the fourth 64); 432 / 2 = 216 -> 224 columns (the second 208).
  for (uint32_t c : {0u, 5u, 7u}) {
    const gen::MatmulPlan want = gen::core_plan(whole, 4, 2, c);
    const gen::MatmulPlan got = gen::window_plan(whole, want.m_begin, want.m_end - want.m_begin, want.n_begin,
                                                 want.n_end - want.n_begin);
    CHECK(got.m_blocks == want.m_blocks);
    CHECK(got.n_blocks == want.n_blocks);
    CHECK(got.l0c_buffers == want.l0c_buffers);
    // The same program but for the core numbers (which emit_matmul does not use).
    const auto a = gen::emit_matmul(got), b = gen::emit_matmul(want);
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
      CHECK(trace::format_instruction(a[i].op, {"a", "b", "c"}) ==
            trace::format_instruction(b[i].op, {"a", "b", "c"}));
  }
  // The last part: rows 336+64, columns 224+208, hand-computed: 1 x 1 blocks of 64 x 208, one L0C slot.
  const gen::MatmulPlan last = gen::window_plan(whole, 336, 64, 224, 208);
  CHECK(last.m_blocks == 1);
  CHECK(last.n_blocks == 1);
  CHECK(last.l0c_buffers == 1);
  // A part may end off the 16 grid (its last fractal padded), not with a bias; it starts on it.
  const gen::MatmulPlan odd = gen::window_plan(whole, 0, 24, 0, 171);
  CHECK(odd.m_blocks == 1);
  CHECK(odd.n_blocks == 1);
  gen::MatmulOptions with_bias;
  with_bias.bias = true;
  CHECK_THROWS_WITH(
      gen::window_plan(gen::make_matmul_plan(s, with_bias), 0, 24, 0, 16),
      Catch::Contains("rows (0+24) must start at and span positive multiples of 16 (with a bias)"));
  CHECK_THROWS_WITH(gen::window_plan(whole, 0, 16, 8, 16), Catch::Contains("columns (8+16) must start at"));
  CHECK_THROWS_WITH(gen::window_plan(whole, 384, 32, 0, 16), Catch::Contains("rows 384+32 run past C's 400"));
  CHECK_THROWS_WITH(gen::window_plan(whole, 0, 0, 0, 16), Catch::Contains("rows (0+0)"));
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
  r = run(with({"--iterate-order", "k"}));
  CHECK(r.first == 2);
  CHECK(first_line(r.second) ==
        "gen: error: --iterate-order must be n (C's base blocks along N first, ORDER_N) or m (along M first, "
        "ORDER_M), not 'k'");
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

namespace {

struct Copies {
  uint64_t a = 0, b = 0;
  std::vector<uint32_t> a_cols;  // dValue of every A copy, in order
};
Copies copies_of(const std::vector<gen::Emitted>& prog) {
  Copies c;
  for (const auto& e : prog)
    if (const auto* d = std::get_if<isa::DataCopyNd2Nz>(&e.op)) {
      if (d->src.tensor == 0) {
        ++c.a;
        c.a_cols.push_back(d->dValue);
      } else {
        ++c.b;
      }
    }
  return c;
}

gen::MatmulOptions packets(uint32_t step_ka, uint32_t depth_a1, uint32_t step_kb, uint32_t depth_b1,
                           gen::MatmulOptions o = {}) {
  o.step_ka = step_ka, o.depth_a1 = depth_a1, o.step_kb = step_kb, o.depth_b1 = depth_b1;
  return o;
}

}  // namespace

TEST_CASE("matmul: big packets copy step_ka / step_kb base-K blocks at a time", "[gen][matmul][mdl]") {
  // 256 x 480 x 512, base 128x256x64: 2 x 2 blocks of 8 K steps (the last 32 deep). A in packets
  // of 4 K steps (256 and 224 columns), B of 2: per block 2 A copies and 4 B copies.
  const auto p = plan(256, 480, 512, isa::DType::Half, BLayout::NT, packets(4, 8, 2, 4));
  CHECK(p.packets_a == 2);
  CHECK(p.packets_b == 2);
  CHECK_FALSE(p.shared_ring);
  const auto prog = gen::emit_matmul(p);
  const Copies c = copies_of(prog);
  CHECK(c.a == 4 * 2);
  CHECK(c.b == 4 * 4);
  CHECK(c.a_cols == std::vector<uint32_t>{256, 224, 256, 224, 256, 224, 256, 224});
  CHECK(count_mmads(prog) == 4 * 8);
  CHECK(gentest::check_flags_in_order(gentest::ops_of(prog)).empty());
  // Equal steps and depths share one ring (A and B in one slot, one flag), as the NORM kernel.
  const auto q = plan(256, 480, 512, isa::DType::Half, BLayout::NT, packets(2, 4, 2, 4));
  CHECK(q.shared_ring);
  CHECK(copies_of(gen::emit_matmul(q)).a == 4 * 4);
  // The default is one base block per copy: the plan of old.
  const auto d = plan(256, 480, 512, isa::DType::Half, BLayout::NT);
  CHECK(d.shared_ring);
  CHECK(d.l1_slot == 256 * 1024);
  CHECK(copies_of(gen::emit_matmul(d)).a == 4 * 8);
}

TEST_CASE("matmul: big packets are bit-exact in program order and in random pipe interleavings",
          "[gen][matmul][mdl]") {
  struct Case {
    uint32_t m, k, n;
    BLayout b;
    gen::MatmulOptions o;
  };
  gen::MatmulOptions small{64, 128, 32};
  gen::MatmulOptions no_uf = small;
  no_uf.unit_flag = false;
  gen::MatmulOptions one_l0 = small;
  one_l0.l0_buffers = 1;
  const std::vector<Case> cases = {
      {128, 224, 256, BLayout::NT, packets(4, 8, 2, 4, small)},   // K tail inside the last packet
      {128, 224, 256, BLayout::ND, packets(4, 8, 2, 4, no_uf)},   // B packets of K rows
      {96, 160, 128, BLayout::ND, packets(3, 3, 2, 6, small)},    // one A slot, three B slots
      {96, 160, 128, BLayout::NT, packets(1, 1, 1, 3, no_uf)},    // rings of one and three
      {128, 192, 256, BLayout::NT, packets(2, 8, 3, 3, one_l0)},  // four A slots, one B slot
      {128, 256, 128, BLayout::NT, packets(2, 4, 2, 4, small)},   // a shared ring of packets
  };
  for (const Case& c : cases) {
    const auto p = plan(c.m, c.k, c.n, isa::DType::Half, c.b, c.o);
    CAPTURE(p.describe());
    const gen::MatmulData d = gen::matmul_data(p, 5, true);
    const auto ops = gentest::ops_of(gen::emit_matmul(p));
    CHECK(gentest::check_flags_in_order(ops).empty());
    gentest::Machine in_order = machine(p, d, 1);
    gentest::run_in_order(ops, in_order);
    CHECK(c_of(in_order) == d.golden);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      gentest::Machine m = machine(p, d, seed + 20);
      REQUIRE(gentest::run_interleaved(ops, m, seed).empty());
      CHECK(c_of(m) == d.golden);
    }
  }
}

TEST_CASE("matmul: packet and ring errors name the options and the limits", "[gen][matmul][mdl]") {
  CHECK(err_of([] { plan(128, 512, 256, isa::DType::Half, BLayout::NT, packets(4, 6, 1, 0)); }) ==
        "gen: error: --depth-a1 6 must be 1 to 4 times --step-ka 4 (L1 holds whole packets: depth / step of "
        "them)");
  CHECK(err_of([] { plan(128, 1024, 256, isa::DType::Half, BLayout::NT, packets(16, 32, 1, 0)); }) ==
        "gen: error: L1 holds 512 KiB: 2 A packet(s) of 256 KiB (base 128 x 16 x 64) and 2 B packet(s) of 32 "
        "KiB need 576 KiB; lower --depth-a1/--depth-b1 or --step-ka/--step-kb");
  CHECK(err_of([] {
          plan(64, 512, 64, isa::DType::Half, BLayout::NT, packets(1, 4, 2, 8, {64, 64, 64}));
        }) ==
        "gen: error: --depth-a1 / --step-ka and --depth-b1 / --step-kb make 4 + 4 L1 packets, each with its "
        "own "
        "flag id: at most 6 ids (0-5) are free");
}

TEST_CASE("matmul: a packet step or an L2 round count of 0 is refused", "[gen][matmul][mdl]") {
  CHECK(err_of([] { plan(128, 512, 256, isa::DType::Half, BLayout::NT, packets(0, 0, 1, 0)); }) ==
        "gen: error: --step-ka must be in 1..255");
  gen::MatmulOptions o;
  o.l2_rounds = 0;
  CHECK(err_of([&] { plan(128, 512, 256, isa::DType::Half, BLayout::NT, o); }) ==
        "gen: error: --l2-rounds must be at least 1");
}

TEST_CASE("matmul: L2 rounds cut C's rows, each round split over the cores like the whole",
          "[gen][matmul][cores]") {
  gen::MatmulShape s;
  s.M = 8192;
  s.K = 64;
  s.N = 8192;
  gen::MatmulOptions o;
  o.l2_rounds = 3;
  const gen::MatmulPlan whole = gen::make_matmul_plan(s, o);
  // 8192 / 3 = 2730.7 -> rounds of 2736 rows (16-aligned), the last 2720; each round cut in 4 parts
  // of 684 -> 688 rows, the last part of the last round 2720 - 3 x 688 = 656.
  const auto r5 = gen::core_rounds(whole, 4, 6, 5), r23 = gen::core_rounds(whole, 4, 6, 23);
  REQUIRE(r5.size() == 3);
  CHECK(r5[0].m_begin == 0);
  CHECK(r5[0].m_end == 688);
  CHECK(r5[1].m_begin == 2736);
  CHECK(r5[2].m_begin == 5472);
  CHECK(r5[2].round == 2);
  CHECK(r5[0].n_begin == 5 * 1376);
  CHECK(r23[2].m_begin == 5472 + 3 * 688);
  CHECK(r23[2].m_end == 8192);
  // Every element of a smaller C belongs to exactly one core in exactly one round.
  s.M = 160;
  s.N = 64;
  o.l2_rounds = 2;
  const gen::MatmulPlan small = gen::make_matmul_plan(s, o);
  std::vector<int> owner(160 * 64, 0);
  for (uint32_t c = 0; c < 4; ++c)
    for (const auto& p : gen::core_rounds(small, 2, 2, c))
      for (uint32_t i = p.m_begin; i < p.m_end; ++i)
        for (uint32_t j = p.n_begin; j < p.n_end; ++j) ++owner[i * 64 + j];
  CHECK(std::count(owner.begin(), owner.end(), 1) == 160 * 64);
  // One program per core: the rounds in order, bit-exact against the whole product.
  gen::MatmulShape t;
  t.M = 96, t.K = 64, t.N = 64, t.c_dtype = isa::DType::Float;
  gen::MatmulOptions to{32, 32, 32};
  to.l2_rounds = 2;
  const gen::MatmulPlan p = gen::make_matmul_plan(t, to);
  const gen::MatmulData d = gen::matmul_data(p, 3, true);
  gentest::Machine m = machine(p, d, 4);
  for (uint32_t c = 0; c < 2; ++c) {
    const auto ops = gentest::ops_of(gen::emit_matmul(gen::core_rounds(p, 1, 2, c)));
    CHECK(gentest::check_flags_in_order(ops).empty());
    gentest::run_in_order(ops, m);
  }
  CHECK(c_of(m) == d.golden);
  CHECK_THROWS_WITH(gen::core_rounds(gen::make_matmul_plan(t,
                                                           [] {
                                                             gen::MatmulOptions x{32, 32, 32};
                                                             x.l2_rounds = 7;
                                                             return x;
                                                           }()),
                                     1, 1, 0),
                    Catch::Contains("--l2-rounds 7 leaves rounds without rows: M = 96 in rounds of 16 rows"));
}

TEST_CASE("matmul: a bias is bit-exact (C = bias + A x B) in program order and random interleavings",
          "[gen][matmul][bias]") {
  struct Case {
    uint32_t m, k, n;
    BLayout b;
    gen::MatmulOptions o;
  };
  std::vector<Case> cases = {
      {64, 64, 64, BLayout::NT, {64, 64, 64}},      // one block, one K step
      {128, 64, 256, BLayout::NT, {64, 128, 64}},   // 2 x 2 blocks of one K step each
      {160, 96, 192, BLayout::ND, {64, 128, 64}},   // edge blocks, 2 K steps
      {128, 256, 256, BLayout::ND, {64, 128, 64}},  // 4 K steps
      {128, 128, 128, BLayout::NT, {64, 64, 32, 1, 2}},
      {128, 64, 512, BLayout::NT, {128, 256, 64}},  // base n 256: the whole table
      {128, 128, 256, BLayout::NT, {64, 128, 32, 2, 1}},
  };
  for (Case c : std::vector<Case>(cases)) {
    c.o.unit_flag = false;
    c.o.load3d_a = true;
    cases.push_back(c);
    c.o.order_m = true;
    c.o.step_ka = c.o.step_kb = 2;
    cases.push_back(c);
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    Case c = cases[i];
    c.o.bias = true;
    c.o.bias_dtype = i % 3 == 2 ? isa::DType::Half : isa::DType::Float;
    const auto p = plan(c.m, c.k, c.n, isa::DType::Half, c.b, c.o);
    CAPTURE(p.describe());
    const gen::MatmulData d = gen::matmul_data(p, 11, true);
    REQUIRE(d.bias.size() == gen::matmul_bytes_bias(p));
    // The golden independently: the plain sum plus the bias as the GM tensor holds it.
    gen::MatmulOptions nb = c.o;
    nb.bias = false;
    const auto q = plan(c.m, c.k, c.n, isa::DType::Half, c.b, nb);
    const gen::MatmulData plain = gen::matmul_data(q, 11, true);
    REQUIRE(plain.a == d.a);
    for (uint32_t m = 0; m < c.m; ++m)
      for (uint32_t n = 0; n < c.n; ++n) {
        float bias;
        if (c.o.bias_dtype == isa::DType::Half) {
          uint16_t h;
          std::memcpy(&h, &d.bias[n * 2], 2);
          bias = gen::half_to_float(h);
        } else {
          std::memcpy(&bias, &d.bias[n * 4], 4);
        }
        REQUIRE(d.golden[m * c.n + n] == plain.golden[m * c.n + n] + bias);
      }
    const auto prog = gen::emit_matmul(p);
    const auto ops = gentest::ops_of(prog);
    CHECK(gentest::check_flags_in_order(ops).empty());
    uint64_t to_bt = 0;
    for (const auto& e : prog) to_bt += std::holds_alternative<isa::DataCopyL1ToBT>(e.op);
    CHECK(to_bt == p.blocks());
    const auto images = [&] {
      return std::vector<std::vector<uint8_t>>{bytes_of(d.a), bytes_of(d.b),
                                               std::vector<uint8_t>(gen::matmul_bytes_c(p), 0), d.bias};
    };
    gentest::Machine in_order(images(), 1);
    gentest::run_in_order(ops, in_order);
    CHECK(c_of(in_order) == d.golden);
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      gentest::Machine m(images(), seed + 10);
      REQUIRE(gentest::run_interleaved(ops, m, seed).empty());
      CHECK(c_of(m) == d.golden);
    }
  }
}

TEST_CASE("matmul: bias errors name the limit", "[gen][matmul][bias]") {
  gen::MatmulOptions o{64, 512, 32};
  o.l0_buffers = 1;
  o.bias = true;
  CHECK(err_of([&] { plan(64, 64, 512, isa::DType::Half, BLayout::NT, o); }) ==
        "gen: error: base n 512 with a bias: the block's 512 float bias cells need 2048 bytes of the bias "
        "table, "
        "which holds 1024 (base n <= 256)");
  o.bias = false;
  CHECK(err_of([&] { plan(64, 64, 512, isa::DType::Half, BLayout::NT, o); }).empty());
  o = gen::MatmulOptions{64, 64, 32};
  o.bias = true;
  o.bias_dtype = isa::DType::BF16;
  CHECK(err_of([&] { plan(64, 64, 64, isa::DType::Half, BLayout::NT, o); }) ==
        "gen: error: --bias must be float or half");
  // Separate A and B rings: the bias takes one of the six free MTE1_MTE2 ids.
  o = gen::MatmulOptions{64, 64, 32};
  o.step_ka = 1, o.step_kb = 2, o.depth_a1 = 3, o.depth_b1 = 6;  // 3 + 3 packets
  CHECK(err_of([&] { plan(64, 256, 64, isa::DType::Half, BLayout::NT, o); }).empty());
  o.bias = true;
  CHECK(err_of([&] {
          plan(64, 256, 64, isa::DType::Half, BLayout::NT, o);
        }).find("at most 5 ids (0-5, less the bias's) are free") != std::string::npos);
}
