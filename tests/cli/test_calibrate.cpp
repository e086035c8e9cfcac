// `calibrate` and `validate` end to end: a fit of one key to two measured rows that lands on the
// value the data implies, the overlay it writes (and that validate then accepts), the same answer
// twice, rows batched as the cores of one chip timing exactly as a run of their own, --only, and
// the plot. Each runs in about a second.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness.hpp"

using harness::TempDir;

namespace {

const std::string kPublished = AICORE_TEST_CONFIG;

// The two measured LoadData-to-L0B rows of calibration/measured-910b1.csv.
const char* kB2 =
    "# LoadData L1 -> L0B, measured on a 910B1 (calibration/measured-910b1.csv)\n"
    "kind,dst,param,count,value,unit\n"
    "loaddata,B2,1,256,175.31,GiB/s\n"
    "loaddata,B2,16,256,217.06,GiB/s\n";

using test_support::slurp;

// The simulated figure of a table line ("row figure measured simulated error set").
double simulated_on(const std::string& out, const std::string& figure) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find(figure);
    if (at == std::string::npos) continue;
    std::istringstream rest(line.substr(at + figure.size()));
    double measured = 0, simulated = 0;
    rest >> measured >> simulated;
    return simulated;
  }
  FAIL("no line for " << figure << " in\n" << out);
  return 0;
}

}  // namespace

TEST_CASE("calibrate fits one key to the rows it moves and writes an overlay", "[cli][calibrate]") {
  TempDir d;
  const std::string data = d.write("b2.csv", kB2);
  const auto r = harness::run("calibrate " + data + " --config " + kPublished +
                              " --fit mte1.to_l0b.overhead_cycles -j 2 -o " + d.file("fit.yaml"));
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  // 5.03 cycles per one-fractal LoadData measured, 4 at 128 B/cycle: one cycle of overhead.
  CHECK(r.out.find("mte1.to_l0b.overhead_cycles                 0 -> 1 ") != std::string::npos);
  CHECK(r.out.find("b2.csv:3                 loaddata B2 1") != std::string::npos);
  CHECK(r.out.find("wrote " + d.file("fit.yaml")) != std::string::npos);
  const std::string y = slurp(d.file("fit.yaml"));
  CHECK(y.find("base: ") != std::string::npos);
  CHECK(y.find("mte1:\n  to_l0b:\n    overhead_cycles: 1 ") != std::string::npos);
  CHECK(y.find("# fitted to b2.csv:3-4") != std::string::npos);
  // The overlay is a config: validate accepts it, and the start did not pass.
  CHECK(harness::run("validate " + data + " --config " + d.file("fit.yaml")).status == 0);
  const auto before = harness::run("validate " + data + " --config " + kPublished);
  CHECK(before.status == 1);
  CHECK(before.out.find("(beyond 5%)") != std::string::npos);
  // The same data and start give the same overlay.
  REQUIRE(harness::run("calibrate " + data + " --config " + kPublished +
                       " --fit mte1.to_l0b.overhead_cycles -o " + d.file("again.yaml"))
              .status == 0);
  const std::string again = slurp(d.file("again.yaml"));
  CHECK(again.substr(again.find("base:")) == y.substr(y.find("base:")));
}

TEST_CASE("validate: rows run as the cores of one chip time exactly as alone", "[cli][calibrate]") {
  TempDir d;
  const std::string data = d.write("mixed.csv",
                                   "kind,dst,param,count,value,unit\n"
                                   "loaddata,B2,3,100,200,GiB/s\n"
                                   "datacopy_gm,L1,8,50,100,GiB/s\n"
                                   "mmad_half,CO1,48,70,5000,OPs/cycle\n");
  const auto v = harness::run("validate " + data + " -j 1");
  REQUIRE(v.status == 1);  // the values are made up
  // The same microbenchmarks, each run on its own on the shipped preset.
  auto cycles = [&](const std::string& name, const std::string& body) {
    const std::string t = d.write(name + ".trace", body);
    REQUIRE(
        harness::run("run " + t + " --config atlas-a2 --timing-only -q --check none --out " + d.file(name))
            .status == 0);
    std::ifstream f(d.file(name + "/stats.json"));
    return nlohmann::json::parse(f)["cycles"].get<double>();
  };
  std::string ld, dc = ".gm a size=8192\n", mm;
  for (int i = 0; i < 100; ++i) ld += "LoadData dst=L0B:0 src=L1:0 repeatTimes=3 srcStride=1\n";
  for (int i = 0; i < 50; ++i) dc += "DataCopy dst=L1:0 src=a blockLen=256\n";
  for (int i = 0; i < 70; ++i) mm += "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 k=16 n=48 dtype=half\n";
  const double gib = 1024.0 * 1024 * 1024, hz = 1850e6;
  CHECK(simulated_on(v.out, "loaddata B2 3") ==
        Approx(100 * 1536 / (cycles("ld", ld) / hz) / gib).epsilon(1e-5));
  CHECK(simulated_on(v.out, "datacopy_gm L1 8") ==
        Approx(50 * 8192 / (cycles("dc", dc) / hz) / gib).epsilon(1e-5));
  CHECK(simulated_on(v.out, "mmad_half CO1 48") ==
        Approx(70 * 2.0 * 32 * 16 * 48 / cycles("mm", mm)).epsilon(1e-5));
}

TEST_CASE("validate --only and --plot", "[cli][calibrate]") {
  TempDir d;
  const std::string data = d.write("sets.csv",
                                   "kind,dst,param,count,value,unit,set\n"
                                   "loaddata,B2,1,256,175.31,GiB/s,train\n"
                                   "loaddata,B2,16,256,1,GiB/s,check\n");
  CHECK(harness::run("validate " + data + " --only train").status == 0);
  CHECK(harness::run("validate " + data + " --only check").status == 1);
  const auto p = harness::run("validate " + data + " --only train --plot " + d.file("v.png"));
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(p.out.find("wrote " + d.file("v.csv")) != std::string::npos);
  std::ifstream png(d.file("v.png"), std::ios::binary);
  char magic[4] = {};
  png.read(magic, 4);
  CHECK(std::string(magic + 1, 3) == "PNG");
  const std::string points = slurp(d.file("v.csv"));
  CHECK(points.rfind("kind,dst,param,measured,simulated,set,unit\nloaddata,B2,1,175.31,", 0) == 0);
  CHECK(points.find(",curve,GiB/s") != std::string::npos);
}

TEST_CASE("calibrate and validate: command-line errors exit 2", "[cli][calibrate]") {
  TempDir d;
  const std::string data = d.write("b2.csv", kB2);
  const auto no_data = harness::run("validate");
  CHECK(no_data.status == 2);
  CHECK(no_data.err.rfind("aicore-sim validate: error: missing DATA.csv", 0) == 0);
  const auto twice = harness::run("calibrate " + data + " --fit cube.head_cycles,cube.head_cycles");
  CHECK(twice.status == 2);
  CHECK(twice.err == "--fit: error: key 'cube.head_cycles' is named twice\n");
  const auto tol = harness::run("validate " + data + " --tolerance 0");
  CHECK(tol.status == 2);
  CHECK(tol.err == "aicore-sim validate: error: a tolerance is a percentage in (0, 1000]\n");
  const auto rows = harness::run("calibrate " + data + " --fit cube.head_cycles --rows some");
  CHECK(rows.status == 2);
  CHECK(rows.err == "aicore-sim calibrate: error: --rows takes train or all, not 'some'\n");
  const auto png = harness::run("validate " + data + " --plot out.svg");
  CHECK(png.status == 2);
  CHECK(png.err == "aicore-sim validate: error: --plot writes a PNG: give a FILE.png, not 'out.svg'\n");
  const auto opt = harness::run("calibrate " + data + " --fit cube.head_cycles --fitt x");
  CHECK(opt.status == 2);
  CHECK(opt.err.find("--fitt") != std::string::npos);
  CHECK(harness::run("calibrate --help").out.find("--rows train|all") != std::string::npos);
}

TEST_CASE("validate: a kernel row of several cores is gen --cores --split's kernel run whole",
          "[cli][calibrate][cores]") {
  TempDir d;
  const std::string data =
      d.write("chip.csv",
              "kernel,cores,m,k,n,base_m,base_n,base_k,split_m,split_n,template,step_ka,depth_a1,task_us,"
              "aicore_us,aic_mte2_us,aic_mac_us\n"
              "k4,4,256,256,512,64,128,64,2,2,MDL,2,4,10,9,8,7\n");
  const auto v = harness::run("validate " + data + " -j 1");
  INFO(v.out << v.err);
  REQUIRE(v.status == 1);  // the values are made up
  // The same kernel written by gen and run on its own: the chip's cycles, each pipe's mean.
  REQUIRE(harness::run("gen --dtype half --m 256 --k 256 --n 512 --base 64x128x64 --cores 4 --split 2x2 "
                       "--template mdl --step-ka 2 --depth-a1 4 --timing-only --out " +
                       d.file("k"))
              .status == 0);
  REQUIRE(harness::run("run " + d.file("k/kernel.yaml") +
                       " --config atlas-a2 --timing-only -q --check none --out " + d.file("o"))
              .status == 0);
  std::ifstream f(d.file("o/stats.json"));
  const auto j = nlohmann::json::parse(f);
  double core_sum = 0, mte2 = 0, mac = 0;
  for (const auto& c : j["cores"]) {
    core_sum += c["cycles"].get<double>();
    mte2 += c["pipes"]["MTE2"]["aic_time_cycles"].get<double>();
    mac += c["pipes"]["M"]["aic_time_cycles"].get<double>();
  }
  CHECK(simulated_on(v.out, "k4 task us") == Approx(j["cycles"].get<double>() / 1850).epsilon(1e-5));
  CHECK(simulated_on(v.out, "k4 aicore us") == Approx(core_sum / 4 / 1850).epsilon(1e-3));
  CHECK(simulated_on(v.out, "k4 MTE2 msprof us") == Approx(mte2 / 4 / 1850).epsilon(1e-3));
  CHECK(simulated_on(v.out, "k4 M msprof us") == Approx(mac / 4 / 1850).epsilon(1e-3));
}

TEST_CASE("validate: a memory row is gen --stream's kernel run whole, with its L2 hit rate",
          "[cli][calibrate][cores]") {
  TempDir d;
  const std::string data =
      d.write("mem.csv",
              "scenario,cores,rows,cols,tile_rows,tile_cols,rounds,task_us,aic_mte2_us,l2_hit\n"
              "s,2,128,256,32,256,2,10,9,0.4\n");
  const auto v = harness::run("validate " + data + " -j 1");
  INFO(v.out << v.err);
  REQUIRE(v.status == 1);  // the values are made up
  REQUIRE(harness::run("gen --stream --m 128 --n 256 --tile 32x256 --cores 2 --rounds 2 --out " + d.file("k"))
              .status == 0);
  REQUIRE(harness::run("run " + d.file("k/kernel.yaml") +
                       " --config atlas-a2 --timing-only -q --check none --out " + d.file("o"))
              .status == 0);
  std::ifstream f(d.file("o/stats.json"));
  const auto j = nlohmann::json::parse(f);
  CHECK(simulated_on(v.out, "s task us") == Approx(j["cycles"].get<double>() / 1850).epsilon(1e-5));
  // Every 512-byte line read twice: the first read misses, the second hits.
  CHECK(simulated_on(v.out, "s L2 read hit %") == Approx(50.0));
}

TEST_CASE("validate: a kernel row's figures do not depend on the rows validated with it",
          "[cli][calibrate]") {
  // Rows that ran on the cores of one process shared its L2's capacity: with a small L2 the
  // second kernel found the first one's lines gone (or its own evicted) and took longer.
  TempDir d;
  const std::string cfg = d.write("small-l2.yaml", "base: atlas-a2\nchip:\n  l2:\n    bytes: 65536\n");
  const std::string head = "kernel,cores,m,k,n,base_m,base_n,base_k,task_us\n";
  const std::string one = d.write("one.csv", head + "k1,1,128,512,256,64,128,64,10\n");
  const std::string two =
      d.write("two.csv", head + "k0,1,128,512,256,64,128,64,10\nk1,1,128,512,256,64,128,64,10\n");
  const auto alone = harness::run("validate " + one + " --config " + cfg + " -j 1");
  const auto both = harness::run("validate " + two + " --config " + cfg + " -j 1");
  INFO(alone.out << alone.err << both.out << both.err);
  REQUIRE(alone.status == 1);  // the values are made up
  REQUIRE(both.status == 1);
  CHECK(simulated_on(both.out, "k1 task us") == simulated_on(alone.out, "k1 task us"));
  CHECK(simulated_on(both.out, "k0 task us") == simulated_on(alone.out, "k1 task us"));
}
