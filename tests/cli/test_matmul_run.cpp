// `aicore-sim gen --dtype half|bf16` then `run`: the kernel's .expect passes bit for bit with
// exact data, its output is within the tolerance with random data, and a timing-only kernel's
// blocks all cost the same (what `calibrate` relies on to simulate a few blocks of a big one).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness.hpp"

using harness::TempDir;

namespace {

std::vector<float> floats(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> v(s.size() / 4);
  std::memcpy(v.data(), s.data(), v.size() * 4);
  return v;
}

uint64_t cycles_of_blocks(const TempDir& d, uint64_t blocks) {
  const std::string dir = d.file("b" + std::to_string(blocks));
  const auto g = harness::run("gen --dtype half --m 512 --k 512 --n 1024 --timing-only --blocks " +
                              std::to_string(blocks) + " --out " + dir + " --name k");
  REQUIRE(g.status == 0);
  const auto r = harness::run("run " + dir + "/k.trace --timing-only -q --out " + dir + "/out");
  REQUIRE(r.status == 0);
  std::ifstream f(dir + "/out/stats.json");
  const auto j = nlohmann::json::parse(f);
  CHECK(j["flags_left_set"] == 0);
  return j["cycles"].get<uint64_t>();
}

}  // namespace

TEST_CASE("gen --dtype: exact data passes .expect bit for bit", "[cli][gen][matmul]") {
  TempDir d;
  for (const std::string args : {"--dtype half --m 256 --k 192 --n 512",
                                 "--dtype bf16 --b-layout nd --m 160 --k 96 "
                                 "--n 192 --base 64x128x32 --l1-buffers 1"}) {
    CAPTURE(args);
    const auto g = harness::run("gen " + args + " --out " + d.file("case") + " --name k");
    REQUIRE(g.status == 0);
    const auto r = harness::run("run " + d.file("case/k.trace") + " --out " + d.file("out"));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("expect c: match") != std::string::npos);
  }
}

TEST_CASE("gen --dtype --cores N --split MxN: the cores' parts of C pass .expect bit for bit",
          "[cli][gen][matmul][cores]") {
  TempDir d;
  // 96 x 160 in 2 x 2 parts of 48 x 80 with 32 x 48 base blocks: every part has a short block
  // row (16) and a short block column (32); the golden is the whole product, made independently.
  const auto g = harness::run(
      "gen --dtype half --m 96 --k 64 --n 160 --cores 4 --split 2x2 --base 32x48x32 --out " + d.file("k"));
  INFO(g.out << g.err);
  REQUIRE(g.status == 0);
  CHECK(g.out.find("4 cores, ") != std::string::npos);
  const auto r = harness::run("run " + d.file("k/kernel.yaml") + " --out " + d.file("out"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("expect c: match (30720 bytes)") != std::string::npos);
  std::ifstream f(d.file("out/stats.json"));
  const auto j = nlohmann::json::parse(f);
  REQUIRE(j["cores"].size() == 4);
  for (const auto& c : j["cores"]) CHECK(c["pipes"]["FIX"]["instructions"].get<uint64_t>() == 4);
}

TEST_CASE("gen --dtype --values random: out/c.bin within c_tolerance.bin of c_golden.bin",
          "[cli][gen][matmul]") {
  TempDir d;
  REQUIRE(
      harness::run(
          "gen --dtype half --b-layout nd --m 128 --k 512 --n 256 --values random --c-dtype float --out " +
          d.file("case") + " --name k")
          .status == 0);
  const auto r = harness::run("run " + d.file("case/k.trace") + " --out " + d.file("out") + " -q");
  REQUIRE(r.status == 0);
  const auto got = floats(d.file("out/c.bin")), want = floats(d.file("case/c_golden.bin")),
             tol = floats(d.file("case/c_tolerance.bin"));
  REQUIRE(got.size() == 128u * 256u);
  REQUIRE(want.size() == got.size());
  size_t outside = 0;
  for (size_t i = 0; i < got.size(); ++i) outside += std::fabs(double(got[i]) - want[i]) > tol[i];
  CHECK(outside == 0);
}

TEST_CASE("gen --dtype --timing-only --blocks: every further block costs the same", "[cli][gen][matmul]") {
  TempDir d;
  const uint64_t c2 = cycles_of_blocks(d, 2), c3 = cycles_of_blocks(d, 3), c4 = cycles_of_blocks(d, 4);
  CHECK(c4 - c3 == c3 - c2);
  CHECK(c3 > c2);
}

TEST_CASE("gen --dtype --template mdl with big packets and L2 rounds: bit-exact and checker-clean",
          "[cli][gen][matmul][mdl]") {
  TempDir d;
  for (const std::string args :
       {"--template mdl --step-ka 4 --depth-a1 8 --step-kb 2 --depth-b1 4 --m 256 --k 480 --n 512",
        "--step-ka 3 --depth-a1 3 --step-kb 2 --depth-b1 6 --b-layout nd --m 256 --k 480 --n 512",
        "--template mdl --step-ka 2 --step-kb 2 --l2-rounds 2 --cores 4 --split 2x2 --m 192 --k 256 --n 320 "
        "--base 32x64x32"}) {
    CAPTURE(args);
    const std::string dir = d.file("k");
    std::filesystem::remove_all(dir);
    const auto g = harness::run("gen --dtype half " + args + " --out " + dir + " --name k");
    INFO(g.out << g.err);
    REQUIRE(g.status == 0);
    const bool multi = std::filesystem::exists(dir + "/kernel.yaml");
    const auto r =
        harness::run("run " + dir + (multi ? "/kernel.yaml" : "/k.trace") + " --out " + d.file("out"));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("expect c: match") != std::string::npos);
    CHECK(r.err.empty());  // the checker finds nothing: no race, no unneeded or leftover flag
  }
  // mdl turns unitFlag off (GetMDLConfig), norm keeps it on.
  const auto m = harness::run("gen --dtype half --template mdl --m 128 --k 128 --n 256 --out " + d.file("m"));
  REQUIRE(m.status == 0);
  CHECK(m.out.find("M_FIX/FIX_M flags, MDL") != std::string::npos);
  const auto bad =
      harness::run("gen --dtype half --template mld --m 128 --k 128 --n 256 --out " + d.file("m"));
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--template must be norm (Matmul CFG_NORM) or mdl (CFG_MDL), not 'mld'") !=
        std::string::npos);
}

TEST_CASE("gen --stream: a streaming kernel read twice hits L2 on exactly its second read",
          "[cli][gen][stream]") {
  TempDir d;
  // 128 x 256 fp16 in 32 x 256 tiles (each tile row one 512-byte L2 line), 2 cores, 2 rounds:
  // the first read of every line misses, the second hits.
  const auto g =
      harness::run("gen --stream --m 128 --n 256 --tile 32x256 --cores 2 --rounds 2 --out " + d.file("s"));
  INFO(g.out << g.err);
  REQUIRE(g.status == 0);
  const auto r = harness::run("run " + d.file("s/kernel.yaml") + " --config atlas-a2 --timing-only --out " +
                              d.file("o"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());  // checker-clean
  std::ifstream f(d.file("o/stats.json"));
  const auto j = nlohmann::json::parse(f);
  CHECK(j["chip"]["l2"]["read_hits"] == 128);
  CHECK(j["chip"]["l2"]["read_misses"] == 128);
  CHECK(j["chip"]["l2"]["hbm_read_bytes"] == 128 * 256 * 2);
  const auto bad = harness::run("gen --stream --m 128 --n 256 --tile 32 --out " + d.file("x"));
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--tile must be RxC (tile rows x tile columns, e.g. 64x256), not '32'") !=
        std::string::npos);
  const auto no_out = harness::run("gen --stream --m 128 --n 256");
  CHECK(no_out.status == 2);
  CHECK(no_out.err.find("gen: error: --out DIR is required") != std::string::npos);
}
