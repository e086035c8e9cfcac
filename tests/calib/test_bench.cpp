// What each measured row is simulated as (calib/bench.hpp): the microbenchmark of every kind, the
// metric formulas, and the kernel's runs and their extrapolation.
#include <catch2/catch.hpp>

#include <sstream>

#include "aicore/calib/bench.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/trace/reader.hpp"

using namespace aicore;

namespace {

calib::MicroRow row(const std::string& kind, const std::string& dst, uint64_t param, uint64_t count = 4,
                    const std::string& fields = "") {
  calib::MicroRow r;
  r.loc = {"d.csv", 7, 1};
  r.kind = kind;
  r.dst = dst;
  r.param = param;
  r.count = count;
  r.value = 1;
  r.unit = calib::find_kind(kind)->unit;
  r.fields = fields;
  return r;
}

size_t instructions_in(const std::string& trace) {
  std::istringstream in(trace);
  trace::Reader r(in, "t.trace", "");
  trace::Statement st;
  size_t n = 0;
  while (r.next(st)) n += st.kind == trace::Statement::Kind::Instr;
  return n;
}

}  // namespace

TEST_CASE("bench: every kind's instruction, and what one contributes to the metric", "[calib][bench]") {
  CHECK(calib::micro_of(row("loaddata", "A2", 3)).instruction ==
        "LoadData dst=L0A:0 src=L1:0 repeatTimes=3 srcStride=1");
  CHECK(calib::micro_of(row("loaddata", "B2", 3)).per_instruction == 3 * 512);
  const calib::Micro mm = calib::micro_of(row("mmad_half", "CO1", 64));
  CHECK(mm.instruction == "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 k=16 n=64 dtype=half");
  CHECK(mm.per_instruction == 2.0 * 32 * 16 * 64);
  CHECK(calib::micro_of(row("mmad_int8", "CO1", 16)).per_instruction == 2.0 * 32 * 32 * 16);
  CHECK(calib::micro_of(row("sparse", "CO1", 16)).per_instruction == 2.0 * 32 * 64 * 16);  // dense-equivalent
  const calib::Micro dc = calib::micro_of(row("datacopy_gm", "L1", 4));
  CHECK(dc.instruction == "DataCopy dst=L1:0 src=a blockLen=128");
  CHECK(dc.per_instruction == 4096);
  CHECK(dc.gm_bytes == 4096);
  CHECK_FALSE(dc.gm_is_c);
  const calib::Micro nd = calib::micro_of(row("datacopy_nd2nz", "L1", 100, 4, "srcDValue=8192"));
  CHECK(nd.instruction ==
        "DataCopyNd2Nz dst=L1:0 src=a nValue=64 dValue=100 srcDValue=8192 dstNzC0Stride=64");
  CHECK(nd.per_instruction == 64 * 128);  // rows padded to 32-byte blocks
  CHECK(nd.gm_bytes == 63 * 8192 + 100);
  const calib::Micro fx = calib::micro_of(row("fixpipe", "GM", 32));
  CHECK(fx.gm_is_c);
  CHECK(fx.per_instruction == 16 * 32 * 4);
  // Fields replace a key or add one.
  CHECK(calib::micro_of(row("mmad_half", "CO1", 64, 4, "m=16 cmatrixInitVal=0")).instruction ==
        "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 k=16 n=64 dtype=half cmatrixInitVal=0");
}

TEST_CASE("bench: a microbenchmark is COUNT copies with the row's own tensor name", "[calib][bench]") {
  const auto r = row("datacopy_gm", "L1", 2, 5);
  const std::string t = calib::micro_trace(r, calib::micro_of(r), "r3_");
  CHECK(t.find(".gm r3_a size=2048") != std::string::npos);
  CHECK(t.find("DataCopy dst=L1:0 src=r3_a blockLen=64") != std::string::npos);
  CHECK(instructions_in(t) == 5);
  const auto f = row("fixpipe", "GM", 16, 3);
  CHECK(calib::micro_trace(f, calib::micro_of(f), "r1_").find("Fixpipe dst=r1_c src=L0C:0") !=
        std::string::npos);
}

TEST_CASE("bench: metrics over the whole run, in the row's unit", "[calib][bench]") {
  const auto ld = row("loaddata", "B2", 1, 256);
  // 256 x 512 B in 1288 cycles at 1850 MHz: 175.31 GiB/s, the measured B2 point.
  CHECK(calib::micro_metric(ld, calib::micro_of(ld), 1288, 1850) == Approx(175.31).epsilon(1e-3));
  const auto mm = row("mmad_half", "CO1", 16, 256);
  CHECK(calib::micro_metric(mm, calib::micro_of(mm), 1245, 1850) == Approx(256.0 * 16384 / 1245));
}

TEST_CASE("bench: a microbenchmark the buffers cannot hold is refused at its row", "[calib][bench]") {
  const config::Config cfg = config::load("atlas-a2", {}, config::default_configs_dir());
  const auto big = row("loaddata", "A2", 129);
  REQUIRE_THROWS_AS(calib::check_micro(big, calib::micro_of(big), cfg), InputError);
  const auto ok = row("loaddata", "A2", 128);
  CHECK_NOTHROW(calib::check_micro(ok, calib::micro_of(ok), cfg));
}

TEST_CASE("bench: kernels run whole when small, else for one and two blocks, extrapolated",
          "[calib][bench]") {
  calib::KernelRow k;
  k.loc = {"k.csv", 2, 1};
  k.shape = {256, 128, 256, isa::DType::Half, gen::BLayout::NT};
  k.opt.base_m = 128;
  k.opt.base_n = 256;
  k.opt.base_k = 64;
  CHECK(calib::kernel_block_runs(k) == std::vector<uint64_t>{0});  // 2 blocks: simulated whole
  CHECK(instructions_in(calib::kernel_trace(k, 0, "r0_")) > 0);
  k.shape.M = 1024;  // 8 blocks
  CHECK(calib::kernel_block_runs(k) == std::vector<uint64_t>{1, 2});
  calib::KernelCycles one, two;
  one.task = 1000;
  two.task = 1700;
  one.pipes[1] = 400;
  two.pipes[1] = 750;
  const calib::KernelCycles all = calib::extrapolate(k, {one, two});
  CHECK(all.task == 1000 + 7 * 700);
  CHECK(all.pipes[1] == 400 + 7 * 350);
}
