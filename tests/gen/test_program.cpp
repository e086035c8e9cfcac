// Generated programs computed without the timing model: program order and random pipe
// interleavings through sem::execute must reproduce the independent golden bit for bit.
#include <catch2/catch.hpp>

#include "aicore/gen/case.hpp"
#include "aicore/gen/random.hpp"
#include "machine.hpp"

using namespace aicore;
using gentest::Machine;

namespace {

gen::GemmCase make(uint32_t M, uint32_t K, uint32_t N, bool sparse, uint64_t seed, gen::TileRequest t = {}) {
  const gen::Plan plan = gen::make_plan({M, K, N, sparse}, t);
  gen::Rng rng(seed);
  auto a = gen::random_i8(rng, uint64_t{M} * K);
  auto b = sparse ? gen::random_sparse_b(rng, K, N, 0.75) : gen::random_i8(rng, uint64_t{K} * N);
  return gen::build_case(plan, std::move(a), std::move(b));
}

std::vector<int32_t> result(const gen::GemmCase& c, const Machine& m) {
  return gentest::as_i32(m.gm[gen::gm_index_c(c.plan)]);
}

void check_case(const gen::GemmCase& c, int interleavings) {
  INFO(c.plan.describe());
  const auto ops = gentest::ops_of(c.program);
  REQUIRE(gentest::check_flags_in_order(ops).empty());
  Machine in_order(c.gm, 1);
  gentest::run_in_order(ops, in_order);
  REQUIRE(result(c, in_order) == c.golden);
  for (int s = 0; s < interleavings; ++s) {
    INFO("interleaving seed " << s);
    Machine m(c.gm, 100 + s);
    REQUIRE(gentest::run_interleaved(ops, m, s) == "");
    REQUIRE(result(c, m) == c.golden);
  }
}

}  // namespace

TEST_CASE("single-tile sparse cases match the golden", "[gen][exec]") {
  for (auto [M, K, N] :
       {std::array<uint32_t, 3>{16, 64, 16}, {128, 64, 128}, {20, 68, 30}, {1, 4, 1}, {48, 256, 80}}) {
    const auto c = make(M, K, N, true, M * 7 + K);
    REQUIRE(c.plan.steps() == 1);
    check_case(c, 4);
  }
}

TEST_CASE("single-tile dense cases match the golden", "[gen][exec]") {
  for (auto [M, K, N] : {std::array<uint32_t, 3>{16, 32, 16}, {64, 128, 48}, {20, 68, 30}, {33, 7, 17}}) {
    const auto c = make(M, K, N, false, M + K * 3);
    REQUIRE(c.plan.steps() == 1);
    check_case(c, 4);
  }
}

TEST_CASE("the seed case has the spec's structure", "[gen]") {
  const auto c = make(16, 64, 16, true, 1);
  const auto ops = gentest::ops_of(c.program);
  // DataCopyNd2Nz, DataCopy b, DataCopy idx, Set/Wait MTE2_MTE1, LoadData, LoadDataWithSparse,
  // Set/Wait MTE1_M, MmadWithSparse, Set/Wait M_FIX, Fixpipe.
  REQUIRE(ops.size() == 13);
  CHECK(std::holds_alternative<isa::DataCopyNd2Nz>(ops[0]));
  CHECK(std::get<isa::LoadData>(ops[5]).repeatTimes == 2);
  CHECK(std::get<isa::LoadDataWithSparse>(ops[6]).repeatTimes == 1);
  const auto& mm = std::get<isa::MmadWithSparse>(ops[9]);
  CHECK((mm.m == 16 && mm.n == 16 && mm.k == 64 && mm.cmatrixInitVal));
  const auto& fx = std::get<isa::Fixpipe>(ops[12]);
  CHECK((fx.nSize == 16 && fx.mSize == 16 && fx.srcStride == 16 && fx.dstStride == 16));
}

TEST_CASE("tiled sparse 256x512x256 is double-buffered and exact under interleavings", "[gen][exec][tiled]") {
  const auto c = make(256, 512, 256, true, 42);
  REQUIRE(c.plan.steps() == 8);
  REQUIRE(c.plan.double_buffered);
  check_case(c, 6);
}

TEST_CASE("tiled cases with partial edge tiles and chunks", "[gen][exec][tiled]") {
  check_case(make(200, 452, 90, true, 5, {64, 48, 128}), 6);  // K chunks 128,128,128,68
  check_case(make(100, 300, 70, false, 6, {32, 32, 96}), 6);  // K chunks 96,96,96,12
  check_case(make(40, 128, 40, true, 7, {16, 16, 64}), 8);    // many tiles: L0C ping-pong reused
}

TEST_CASE("gen --l1-full: A and B copied once, every tile loaded from L1, exact under interleavings",
          "[gen][exec][tiled]") {
  for (const bool sparse : {true, false}) {
    gen::TileRequest t{128, 128, 256, true};
    const auto c = make(256, 512, 256, sparse, 42, t);
    REQUIRE(c.plan.l1_full);
    uint64_t copies = 0;
    for (const auto& e : c.program)
      copies +=
          std::holds_alternative<isa::DataCopy>(e.op) || std::holds_alternative<isa::DataCopyNd2Nz>(e.op);
    CHECK(copies == (sparse ? 3u : 2u));  // A, B (and the indexes), once
    check_case(c, 6);
  }
  check_case(make(200, 452, 90, true, 5, {64, 48, 128, true}), 6);  // edge tiles and chunks
  check_case(make(100, 300, 70, false, 6, {32, 32, 96, true}), 6);
  // Too big for L1: an error naming the space.
  CHECK_THROWS_WITH(make(512, 1024, 512, true, 1, {128, 128, 256, true}),
                    "gen: error: --l1-full: A, B and the indexes need 832 KiB of L1, 512 KiB available");
}

TEST_CASE("tiled dense 256x512x256 matches the golden", "[gen][exec][tiled]") {
  check_case(make(256, 512, 256, false, 42), 4);
}

TEST_CASE("tiled sparse 512x1024x512 (the shipped size) is exact", "[gen][exec][tiled][big]") {
  const auto c = make(512, 1024, 512, true, 2024);
  REQUIRE(c.plan.steps() == 64);
  check_case(c, 3);
}

TEST_CASE("the interleaving check catches every missing flag kind", "[gen][sync]") {
  const auto c = make(48, 128, 32, true, 11, {16, 16, 64});  // 3 x 2 tiles, 2 chunks: every slot reused
  const auto ops = gentest::ops_of(c.program);
  const std::pair<isa::Pipe, isa::Pipe> kinds[] = {
      {isa::Pipe::MTE2, isa::Pipe::MTE1}, {isa::Pipe::MTE1, isa::Pipe::MTE2}, {isa::Pipe::MTE1, isa::Pipe::M},
      {isa::Pipe::M, isa::Pipe::MTE1},    {isa::Pipe::M, isa::Pipe::FIX},     {isa::Pipe::FIX, isa::Pipe::M}};
  for (auto [src, dst] : kinds) {
    INFO("without " << isa::to_string(src) << "_" << isa::to_string(dst));
    std::vector<isa::Op> cut;
    for (const auto& op : ops) {
      const auto* s = std::get_if<isa::SetFlag>(&op);
      const auto* w = std::get_if<isa::WaitFlag>(&op);
      const isa::EventPair e = s ? s->event : w ? w->event : isa::EventPair{};
      if ((s || w) && e.src == src && e.dst == dst) continue;
      cut.push_back(op);
    }
    REQUIRE(cut.size() < ops.size());
    bool caught = false;
    for (uint64_t seed = 0; seed < 64 && !caught; ++seed) {
      Machine m(c.gm, seed);
      caught = !gentest::run_interleaved(cut, m, seed).empty() || result(c, m) != c.golden;
    }
    CHECK(caught);
  }
}

TEST_CASE("flag model rejects double SetFlag and leftovers", "[gen][sync]") {
  using isa::Pipe;
  const isa::EventPair e{Pipe::MTE2, Pipe::MTE1};
  CHECK_FALSE(gentest::check_flags_in_order({isa::SetFlag{e, 0}, isa::SetFlag{e, 0}}).empty());
  CHECK_FALSE(gentest::check_flags_in_order({isa::SetFlag{e, 1}}).empty());
  CHECK_FALSE(gentest::check_flags_in_order({isa::WaitFlag{e, 1}}).empty());
  CHECK(gentest::check_flags_in_order({isa::SetFlag{e, 1}, isa::WaitFlag{e, 1}}).empty());
  Machine m({}, 0);
  CHECK_THAT(gentest::run_interleaved({isa::WaitFlag{e, 3}}, m, 0), Catch::Matchers::StartsWith("deadlock"));
}

TEST_CASE("every emitted op is within hardware field limits", "[gen]") {
  const auto c = make(512, 1024, 512, true, 1);
  for (const auto& e : c.program) {
    if (const auto* l = std::get_if<isa::LoadData>(&e.op))
      CHECK((l->repeatTimes >= 1 && l->repeatTimes <= 255));
    if (const auto* l = std::get_if<isa::LoadDataWithSparse>(&e.op)) CHECK(l->repeatTimes >= 1);
    if (const auto* mm = std::get_if<isa::MmadWithSparse>(&e.op))
      CHECK((mm->m <= 4095 && mm->n <= 4095 && mm->k <= 4095));
    if (const auto* s = std::get_if<isa::SetFlag>(&e.op)) CHECK(s->id < 8);
  }
}
