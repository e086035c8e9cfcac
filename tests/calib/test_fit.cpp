// The search (calib/fit.hpp) on a simulator written out here: cycles a plain formula of the keys,
// measured values made from known true values. The fit must find them, integer keys as integers,
// within their ranges, the same way every time, and know which rows each key moves.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "aicore/calib/fit.hpp"
#include "aicore/config/loader.hpp"

using namespace aicore;
namespace fs = std::filesystem;

namespace {

struct Dir {
  std::string path;
  Dir() {
    path = (fs::temp_directory_path() / "aicore-fit-XXXXXX").string();
    REQUIRE(mkdtemp(path.data()));
  }
  ~Dir() { fs::remove_all(path); }
};

// A pretend chip: LoadData to L0B costs 4 cycles a fractal plus the overhead, back to back, plus
// 28 of latency at the end; an Mmad costs its fractal-cycles plus the fixed cost (exact time).
double fake_cycles(const std::string& trace, const std::map<std::string, double>& keys) {
  std::ifstream f(trace);
  std::string line;
  std::getline(f, line);
  std::getline(f, line);  // "# microbenchmark of d.csv:N: KIND DST PARAM, COUNT instructions"
  char kind[32], dst[16];
  unsigned long param = 0, count = 0;
  const size_t at = line.find(": ", line.find("of ") + 3);
  REQUIRE(std::sscanf(line.c_str() + at + 2, "%31s %15s %lu, %lu", kind, dst, &param, &count) == 4);
  auto key = [&](const char* k) { return keys.count(k) ? keys.at(k) : 0.0; };
  if (std::string(kind) == "loaddata")
    return static_cast<double>(count) * (4.0 * param + key("mte1.to_l0b.overhead_cycles")) + 28;
  return std::ceil(static_cast<double>(count) * (2.0 * (param / 16) + key("cube.fixed_cycles")));
}

calib::Simulator fake(int* calls) {
  return [calls](const std::vector<calib::SimJob>& jobs) {
    ++*calls;
    std::vector<calib::SimResult> out;
    for (const calib::SimJob& j : jobs) {
      std::map<std::string, double> keys;
      for (const std::string& s : j.sets)
        keys[s.substr(0, s.find('='))] = std::stod(s.substr(s.find('=') + 1));
      calib::SimResult r;
      r.ok = true;
      r.cycles = static_cast<uint64_t>(fake_cycles(j.trace, keys));
      out.push_back(r);
    }
    return out;
  };
}

// The measured value a row would have if the chip had these keys.
std::string data_for(double overhead, double fixed) {
  const double gib = 1024.0 * 1024 * 1024, hz = 1850e6;
  char csv[2048];
  auto ld = [&](int p) { return 256.0 * 512 * p / ((256.0 * (4 * p + overhead) + 28) / hz) / gib; };
  auto mm = [&](int n) { return 256.0 * 2 * 32 * 16 * n / std::ceil(256.0 * (2.0 * (n / 16) + fixed)); };
  std::snprintf(csv, sizeof csv,
                "kind,dst,param,count,value,unit,set\n"
                "loaddata,B2,1,256,%.12g,GiB/s,train\n"
                "loaddata,B2,16,256,%.12g,GiB/s,train\n"
                "loaddata,B2,4,256,%.12g,GiB/s,check\n"
                "mmad_half,CO1,64,256,%.12g,OPs/cycle,train\n"
                "mmad_half,CO1,1024,256,%.12g,OPs/cycle,train\n",
                ld(1), ld(16), ld(4), mm(64), mm(1024));
  return csv;
}

struct Fitted {
  calib::FitResult result;
  int calls = 0;
};

Fitted fit_keys(const std::string& csv, const std::vector<calib::FitKey>& keys,
                const std::vector<double>& start) {
  calib::Dataset d;
  calib::parse_dataset(csv, "d.csv", d);
  Dir dir;
  Fitted f;
  const config::Config cfg = config::load("atlas-a2", {}, config::default_configs_dir());
  calib::Evaluator e(d, cfg, keys, dir.path, fake(&f.calls));
  f.result = calib::fit(e, start, {});
  return f;
}

std::vector<calib::FitKey> two_keys() {
  return {calib::default_fit_key("mte1.to_l0b.overhead_cycles", {}),
          calib::default_fit_key("cube.fixed_cycles", {})};
}

}  // namespace

TEST_CASE("fit: finds the true values, an integer key as an integer", "[calib][fit]") {
  const Fitted f = fit_keys(data_for(3, 1.7), two_keys(), {0, 0});
  CHECK(f.result.values[0] == 3);
  CHECK(f.result.values[1] == Approx(1.7).margin(0.02));
  CHECK(f.result.cost < 1e-2);
  CHECK(f.result.start_cost > 1);
  // Each key moves only its own rows (the check row is never fitted to).
  CHECK(f.result.rows_of_key[0] == std::vector<size_t>{0, 1});
  CHECK(f.result.rows_of_key[1] == std::vector<size_t>{3, 4});
}

TEST_CASE("fit: the same data and start give the same values", "[calib][fit]") {
  const Fitted a = fit_keys(data_for(7, 0.55), two_keys(), {0, 10});
  const Fitted b = fit_keys(data_for(7, 0.55), two_keys(), {0, 10});
  CHECK(a.result.values == b.result.values);
  CHECK(a.calls == b.calls);
}

TEST_CASE("fit: values stay inside the key's range", "[calib][fit]") {
  std::vector<calib::FitKey> keys = two_keys();
  keys[0] = calib::parse_fit_key("mte1.to_l0b.overhead_cycles=0:2", {});
  const Fitted f = fit_keys(data_for(9, 1), keys, {1, 1});
  CHECK(f.result.values[0] == 2);  // the truth (9) is outside: the nearest end
  CHECK(f.result.values[1] == Approx(1).margin(0.02));
}

TEST_CASE("fit keys: default ranges, LO:HI, and errors", "[calib][fit]") {
  const calib::FitKey k = calib::default_fit_key("gm.read.window_bytes", {});
  CHECK(k.integer);
  CHECK(k.lo == 512);
  CHECK(calib::default_fit_key("cube.fixed_cycles", {}).integer == false);
  const calib::FitKey r = calib::parse_fit_key("gm.read.latency_cycles=10:400", {});
  CHECK(r.lo == 10);
  CHECK(r.hi == 400);
  auto err = [](const std::string& spec) {
    try {
      calib::parse_fit_key(spec, SourceLoc{"--fit"});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(err("clock_mhz").rfind("--fit: error: 'clock_mhz' is not a timing key", 0) == 0);
  CHECK(err("cube.head") == "--fit: error: unknown config key 'cube.head'; did you mean 'cube.head_cycles'?");
  CHECK(err("cube.fixed_cycles=-1:3") ==
        "--fit: error: the range -1:3 of 'cube.fixed_cycles' leaves its legal range 0..1e+09 cycles");
  CHECK(err("cube.fixed_cycles=3") ==
        "--fit: error: a fitted key's range is KEY=LO:HI with LO < HI, not 'cube.fixed_cycles=3'");
}
