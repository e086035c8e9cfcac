// gen / densify commands end to end: files on disk, the trace parsed back by the reader and
// executed, exit statuses and messages.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "aicore/gen/case.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/gen/random.hpp"
#include "aicore/semantics/sparsity.hpp"
#include "aicore/trace/npy.hpp"
#include "aicore/trace/reader.hpp"
#include "machine.hpp"
#include "op_equal.hpp"
#include "replay.hpp"

using namespace aicore;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("aicore_gen_" + std::to_string(getpid()) + "_" + tag)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

struct Run {
  int status;
  std::string out, err;
};
Run run_gen(const std::vector<std::string>& args) {
  std::ostringstream o, e;
  const int s = gen::gen_main(args, o, e);
  return {s, o.str(), e.str()};
}
Run run_densify(const std::vector<std::string>& args) {
  std::ostringstream o, e;
  const int s = gen::densify_main(args, o, e);
  return {s, o.str(), e.str()};
}

}  // namespace

TEST_CASE("gen writes a trace that the reader parses back to the same program", "[cli][roundtrip]") {
  TempDir d("seed");
  const auto r =
      run_gen({"--m", "16", "--k", "64", "--n", "16", "--sparse", "--seed", "7", "--out", d / "seed"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (auto f : {"seed.trace", "a.bin", "b.bin", "idx.bin", "c_golden.bin", "a.npy", "b_sparse.npy"})
    CHECK(fs::exists(d.path / "seed" / f));
  const gentest::Replay rp = gentest::replay(d / "seed/seed.trace");
  CHECK(rp.c == rp.golden);
  CHECK(rp.golden.size() == 16 * 16 * 4);

  // The same program through the library: op-for-op identical to what the reader saw.
  gen::Rng rng(7);
  auto a = gen::random_i8(rng, 16 * 64);
  auto b = gen::random_sparse_b(rng, 64, 16, 0.75);
  CHECK(trace::read_npy(d / "seed/b_sparse.npy").data == std::vector<uint8_t>(b.begin(), b.end()));
  const auto c = gen::build_case(gen::make_plan({16, 64, 16, true}), a, b);
  REQUIRE(rp.ops.size() == c.program.size());
  for (size_t i = 0; i < rp.ops.size(); ++i) CHECK(gentest::same(rp.ops[i], c.program[i].op));
}

TEST_CASE("tiled and dense traces replay to their golden", "[cli][roundtrip]") {
  TempDir d("tiled");
  REQUIRE(run_gen({"--m", "100", "--k", "300", "--n", "70", "--dense", "--out", d / "t", "--tile-m", "32",
                   "--tile-n", "32", "--tile-k", "96", "--no-originals", "--name", "x"})
              .status == 0);
  CHECK_FALSE(fs::exists(d.path / "t" / "a.npy"));
  const gentest::Replay rp = gentest::replay(d / "t/x.trace");
  CHECK(rp.c == rp.golden);
  REQUIRE(run_gen({"--m", "160", "--k", "256", "--n", "48", "--sparse", "--out", d / "s", "--tile-m", "64",
                   "--lossy", "0.2"})
              .status == 0);
  const gentest::Replay sp = gentest::replay(d / "s/s.trace");
  CHECK(sp.c == sp.golden);
}

TEST_CASE("same seed: a sparse/dense pair with identical data and golden", "[cli]") {
  TempDir d("pair");
  const std::vector<std::string> common = {"--m", "64",     "--k", "128",       "--n",
                                           "32",  "--seed", "5",   "--pattern", "4:2"};
  auto s = common, n = common;
  s.insert(s.end(), {"--sparse", "--out", d / "s"});
  n.insert(n.end(), {"--dense", "--out", d / "n"});
  REQUIRE(run_gen(s).status == 0);
  REQUIRE(run_gen(n).status == 0);
  CHECK(gentest::slurp(d / "s/a.bin") == gentest::slurp(d / "n/a.bin"));
  CHECK(gentest::slurp(d / "s/c_golden.bin") == gentest::slurp(d / "n/c_golden.bin"));
  CHECK(trace::read_npy(d / "s/b_sparse.npy").data == trace::read_npy(d / "n/b.npy").data);
  CHECK(gentest::replay(d / "n/n.trace").c == gentest::slurp(d / "n/c_golden.bin"));
  // Reproducible: running again gives the same bytes.
  REQUIRE(run_gen(s).status == 0);
  CHECK(gentest::slurp(d / "s/c_golden.bin") == gentest::slurp(d / "n/c_golden.bin"));
}

TEST_CASE("gen takes A and B from .npy files", "[cli]") {
  TempDir d("npyin");
  gen::Rng rng(1);
  const auto a = gen::random_i8(rng, 20 * 68);
  const auto b = gen::random_sparse_b(rng, 68, 30, 0.9, 0.1);
  trace::write_npy(d / "a.npy", "|i1", {20, 68}, reinterpret_cast<const uint8_t*>(a.data()), a.size());
  trace::write_npy(d / "b.npy", "|i1", {68, 30}, reinterpret_cast<const uint8_t*>(b.data()), b.size());
  const auto r = run_gen({"--sparse", "--a", d / "a.npy", "--b", d / "b.npy", "--out", d / "o"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err, Contains("warning:") && Contains("dropped"));
  const auto c = gen::reference_gemm(a.data(), gen::keep_first_two(b.data(), 68, 30).data(), 20, 68, 30, 32);
  const auto golden = gentest::slurp(d / "o/c_golden.bin");
  REQUIRE(golden.size() == c.size() * 4);
  CHECK(std::memcmp(golden.data(), c.data(), golden.size()) == 0);
  CHECK(gentest::replay(d / "o/o.trace").c == golden);
  const auto bad = run_gen({"--sparse", "--a", d / "a.npy", "--k", "64", "--n", "16", "--out", d / "x"});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("is 20 x 68, expected * x 64"));
}

TEST_CASE("gen command-line errors exit 2 with a clear message", "[cli][errors]") {
  const auto status_and_err = [](std::vector<std::string> a) { return run_gen(a); };
  auto r = status_and_err({"--m", "16", "--k", "64", "--n", "16", "--sparse"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("gen: error: --out DIR is required"));
  r = status_and_err({"--m", "16", "--k", "64", "--n", "16", "--sparse", "--dense", "--out", "x"});
  CHECK_THAT(r.err, Contains("exactly one of --sparse and --dense"));
  r = status_and_err({"--m", "16", "--k", "64", "--n", "16", "--sparce", "--out", "x"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("unknown option --sparce (did you mean --sparse?)"));
  r = status_and_err({"--m", "-1", "--k", "64", "--n", "16", "--sparse", "--out", "x"});
  CHECK_THAT(r.err, Contains("--m expects a non-negative integer, got '-1'"));
  r = status_and_err({"--m", "16", "--k", "66", "--n", "16", "--sparse", "--out", "x"});
  CHECK_THAT(r.err, Contains("multiple of 4"));
  r = status_and_err({"--m", "16", "--k", "64", "--n", "16", "--sparse", "--out", "x", "--density", "2"});
  CHECK_THAT(r.err, Contains("--density must be a number in [0, 1], got '2'"));
  CHECK(run_gen({"--help"}).status == 0);
}

TEST_CASE("densify: .npy and raw input, counts, kept matrix", "[cli][densify]") {
  TempDir d("dens");
  gen::Rng rng(4);
  const auto b = gen::random_sparse_b(rng, 128, 40, 0.8);
  trace::write_npy(d / "b.npy", "|i1", {128, 40}, reinterpret_cast<const uint8_t*>(b.data()), b.size());
  auto r = run_densify(
      {d / "b.npy", "--b-out", d / "bd.bin", "--idx-out", d / "idx.bin", "--kept-out", d / "kept.npy"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("groups: 1280") && Contains("lossy groups (3-4 non-zeros): 0") &&
                        Contains("dropped values: 0"));
  const auto dz = sem::densify_4to2(b.data(), 128, 40);
  CHECK(gentest::slurp(d / "bd.bin") == std::vector<uint8_t>(dz.dense_zn.begin(), dz.dense_zn.end()));
  CHECK(gentest::slurp(d / "idx.bin") == dz.index);
  const auto kept = trace::read_npy(d / "kept.npy");
  CHECK(kept.shape == std::vector<uint64_t>{128, 40});
  CHECK(kept.data == std::vector<uint8_t>(b.begin(), b.end()));  // nothing lost: kept == input

  std::ofstream(d / "raw.bin", std::ios::binary).write(reinterpret_cast<const char*>(b.data()), b.size());
  r = run_densify(
      {d / "raw.bin", "--k", "128", "--n", "40", "--b-out", d / "bd2.bin", "--idx-out", d / "idx2.bin"});
  REQUIRE(r.status == 0);
  CHECK(gentest::slurp(d / "bd2.bin") == gentest::slurp(d / "bd.bin"));
  r = run_densify(
      {d / "raw.bin", "--k", "128", "--n", "41", "--b-out", d / "x.bin", "--idx-out", d / "y.bin"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("has 5120 bytes, expected 128 x 41 = 5248"));
  r = run_densify({d / "raw.bin", "--b-out", d / "x.bin", "--idx-out", d / "y.bin"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("its shape must be given"));
  r = run_densify({d / "missing.npy", "--b-out", d / "x.bin", "--idx-out", d / "y.bin"});
  CHECK(r.status == 2);
}

TEST_CASE("densify never hides lost data, --strict refuses it", "[cli][densify]") {
  TempDir d("lossy");
  // K = 8, N = 1: groups (1 2 3 0) and (0 0 0 5)
  const int8_t b[] = {1, 2, 3, 0, 0, 0, 0, 5};
  std::ofstream(d / "b.bin", std::ios::binary).write(reinterpret_cast<const char*>(b), sizeof b);
  auto r = run_densify({d / "b.bin", "--k", "8", "--n", "1", "--b-out", d / "o.bin", "--idx-out", d / "i.bin",
                        "--kept-out", d / "k.npy"});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("lossy groups (3-4 non-zeros): 1") && Contains("dropped values: 1"));
  CHECK_THAT(r.err, Contains("warning: 1 non-zero values in 1 groups are dropped") &&
                        Contains("column n=0, k=0..3: values 1 2 3 0 -> 1 dropped"));
  CHECK(trace::read_npy(d / "k.npy").data == std::vector<uint8_t>{1, 2, 0, 0, 0, 0, 0, 5});
  r = run_densify(
      {d / "b.bin", "--k", "8", "--n", "1", "--b-out", d / "s.bin", "--idx-out", d / "si.bin", "--strict"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("--strict forbids lossy input"));
  CHECK_FALSE(fs::exists(d.path / "s.bin"));
}
