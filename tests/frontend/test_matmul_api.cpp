// The Matmul API (lib/matmul_intf.h) and its host tiling (tiling/tiling_api.h) through a kernel
// in the samples' style (kernels/matmul_api.cpp): bit-exact against the kernel's own plain loop on
// 1, 2 and 24 blocks with uneven parts, fp32/fp16/bf16 C, B as it is and transposed, NORM and MDL,
// IterateAll and the Iterate / GetTensorC loop; the host tiling's choices (hand-computed); the
// recorded instruction stream is `aicore-sim gen`'s at the same knobs (the TPipe's own flags
// aside); and a 1-core run takes the cycles of the gen trace run inside the TPipe's flags.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runner.hpp"

using namespace frontend_test;

namespace {

const std::string kKernel = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/matmul_api.cpp";

// "tiling: usedCoreNum=4 singleCoreM=..." -> {usedCoreNum: 4, ...}
std::map<std::string, int> tiling_of(const std::string& out) {
  std::map<std::string, int> t;
  const size_t at = out.find("tiling: ");
  REQUIRE(at != std::string::npos);
  std::istringstream in(out.substr(at + 8, out.find('\n', at) - at - 8));
  for (std::string kv; in >> kv;) t[kv.substr(0, kv.find('='))] = std::stoi(kv.substr(kv.find('=') + 1));
  return t;
}

Result run_matmul(const std::string& args, const std::vector<std::string>& options) {
  return run_kernel("matmul_api", args, options);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The statements that lines `lines` of the kernel source issued (the Matmul calls), in trace order.
std::vector<std::string> statements_at(const std::string& trace, const std::vector<int>& lines) {
  const auto st = statements(trace);
  const auto src = statement_sources(trace);
  REQUIRE(st.size() == src.size());
  std::vector<std::string> out;
  for (size_t i = 0; i < st.size(); ++i)
    for (int line : lines)
      if (ends_with(src[i], ":" + std::to_string(line))) out.push_back(st[i]);
  return out;
}

// gen's program without what the kernel's TPipe does for the Matmul (docs/ascendc.md, "Matmul
// API"): the TPipe holds M_MTE1 ids 0-2 set for the whole kernel, so the schedule's pre-set of each
// M_MTE1 id (its first SetFlag) and its drain (its last WaitFlag) are the TPipe's.
std::vector<std::string> without_pipe_flags(std::vector<std::string> st) {
  for (int id = 0; id < 3; ++id) {
    const std::string set = "SetFlag event=M_MTE1 id=" + std::to_string(id);
    const std::string wait = "WaitFlag event=M_MTE1 id=" + std::to_string(id);
    const auto first = std::find(st.begin(), st.end(), set);
    if (first == st.end()) continue;
    st.erase(first);
    const auto last = std::find(st.rbegin(), st.rend(), wait);
    REQUIRE(last != st.rend());
    st.erase(std::next(last).base());
  }
  return st;
}

nlohmann::json stats_of(const std::string& dir) {
  return nlohmann::json::parse(slurp(dir + "/stats.json"));
}

}  // namespace

TEST_CASE("Matmul API: IterateAll is bit-exact on 1, 2 and 24 blocks with uneven parts", "[matmul_api]") {
  // M K N blocks C B template
  const std::vector<std::string> cases = {
      "64 96 80 1 float nd norm",     // one base block smaller than the base, K steps 64 + 32
      "272 160 288 1 half nt norm",   // 3 x 2 base blocks on one core, row and column tails
      "160 64 96 2 half nt mdl",      // MDL (M_FIX / FIX_M flags, no unitFlag) on 2 blocks
      "160 64 96 2 float nd norm",    //
      "400 64 432 24 float nd norm",  // 24 blocks: the last row and column of parts shorter
      "400 64 432 24 half nt norm",   //
      "144 48 208 24 bf16 nd norm",   // more blocks than 16-row parts allow: fewer cores used
      "528 64 560 4 half nd norm",    // 5 x 1 base blocks per core, the last 16 rows
      // The Iterate / GetTensorC loop instead of IterateAll.
      "272 160 288 1 half nt norm-iterate",
      "160 64 96 2 half nt mdl-iterate",
      "528 64 560 4 float nd mdl-iterate",
      "400 64 432 24 float nd norm-iterate",
      // C's base blocks along M first (SetTraverse(FIRSTM): iterateOrder ORDER_M).
      "272 160 288 1 half nt norm-orderm",
      "528 64 560 4 float nd mdl-iterate-orderm",
      // SetBias (C = bias + A x B): one block of one K step, several blocks and K steps, NORM and
      // MDL, IterateAll and the loop, 2 and 24 cores, a half bias.
      "64 64 80 1 float nd norm-bias",
      "272 160 288 1 half nt norm-bias",
      "272 160 288 1 float nd mdl-bias",
      "528 64 560 4 float nd mdl-iterate-bias",
      "160 64 96 2 half nt norm-iterate-bias",
      "400 64 432 24 float nd norm-bias",
      "272 160 288 1 float nt norm-biash",
      "272 64 288 1 float nt norm-orderm-bias",
      "272 160 288 1 half nt norm-bias-off",  // SetBias, then DisableBias: no bias added
      // SetSingleShape with parts of 683 columns (not a multiple of 16) and 48 rows: 2 x 3 parts,
      // the last column of parts 10 wide; B transposed (the best-practice split) and as it is.
      "96 64 1376 6 half nt norm-single",
      "96 128 1376 6 float nd mdl-single",
      "96 64 1376 6 half nt norm-iterate-single",
  };
  for (const std::string& c : cases) {
    TempDir dir;
    const Result r = run_matmul(c, {"--out=" + dir.file("out"), "-q"});
    INFO(c << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("matmul_api: ok") != std::string::npos);
    // The bias's flags leave the race checker nothing to say: no race, no unneeded flag.
    if (c.find("-bias") != std::string::npos)
      for (const auto& launch : std::filesystem::directory_iterator(dir.file("out"))) {
        const auto checks = nlohmann::json::parse(slurp(launch.path().string() + "/checks.json"));
        INFO(launch.path().string());
        CHECK(checks["errors"] == 0);
        CHECK(checks["warnings"] == 0);
      }
  }
}

TEST_CASE("Matmul API: host tiling picks 128 x 256 x 64 and a 16-aligned split of the blocks",
          "[matmul_api]") {
  // Hand-computed by the rule of docs/ascendc.md: the most cores whose split leaves no part empty
  // (parts of ceil(M / splitM) and ceil(N / splitN) rounded up to 16), then the fewest base blocks
  // per core, then the squarest part. 400 x 432 on 24: 1x24 (32-wide parts: 14 fill N), 2x12, 3x8,
  // 6x4 (80-row parts: 5 fill M), 8x3, 12x2, 24x1 leave parts empty; 4x6 gives 112 x 80.
  // 144 x 208 on 24: no split of 24, 23 or 22 fills every part; 21 = 3 x 7 gives 48 x 32, and the
  // base block is clipped to the part: 48 x 32 x 48 (K = 48).
  const std::vector<std::pair<std::string, std::map<std::string, int>>> cases = {
      {"400 64 432 24 float nd norm",
       {{"usedCoreNum", 24},
        {"singleCoreM", 112},
        {"singleCoreN", 80},
        {"baseM", 112},
        {"baseN", 80},
        {"baseK", 64}}},
      {"144 48 208 24 bf16 nd norm",
       {{"usedCoreNum", 21},
        {"singleCoreM", 48},
        {"singleCoreN", 32},
        {"baseM", 48},
        {"baseN", 32},
        {"baseK", 48}}},
      {"1024 256 2048 1 float nd norm",
       {{"usedCoreNum", 1},
        {"singleCoreM", 1024},
        {"singleCoreN", 2048},
        {"baseM", 128},
        {"baseN", 256},
        {"baseK", 64},
        {"dbL0A", 2},
        {"dbL0C", 1}}},
      {"256 64 256 1 float nd norm 64 128 32",  // SetFixSplit; two 64 x 128 fp32 blocks fit L0C
       {{"baseM", 64}, {"baseN", 128}, {"baseK", 32}, {"dbL0C", 2}}},
  };
  for (const auto& [args, want] : cases) {
    TempDir dir;
    const Result r = run_matmul(args, {"--out=" + dir.file("out"), "-q", "--timing-only"});
    INFO(args << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    const auto t = tiling_of(r.out);
    for (const auto& [k, v] : want) CHECK(t.at(k) == v);
  }
}

TEST_CASE("Matmul API: the host tiling answers for the configuration the launches run with", "[matmul_api]") {
  TempDir dir;
  // chip.cores = 4: SetDim(24) is refused, SetDim(4) splits 400 x 432 into 2 x 2 parts of 208 x 224.
  Result r =
      run_matmul("400 64 432 24 float nd norm", {"--out=" + dir.file("out"), "-q", "--set=chip.cores=4"});
  CHECK(r.status == 1);
  CHECK(r.out.find("matmul_api: GetTiling failed") != std::string::npos);
  CHECK(r.err.find("aicore-sim: MatmulApi Tiling: GetTiling fails: SetDim(24) is more than the SoC's 4 cores "
                   "(chip.cores)") != std::string::npos);
  r = run_matmul("400 64 432 4 float nd norm", {"--out=" + dir.file("out"), "-q", "--set=chip.cores=4"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("matmul_api: ok") != std::string::npos);
  const auto t = tiling_of(r.out);
  CHECK(t.at("usedCoreNum") == 4);
  CHECK(t.at("singleCoreM") == 208);
  CHECK(t.at("singleCoreN") == 224);
}

TEST_CASE("Matmul API: the recorded stream is gen's at the same knobs, the TPipe's flags aside",
          "[matmul_api][gen]") {
  const int line = line_of(kKernel, "// MATMUL_ITERATE_ALL"), iterate = line_of(kKernel, "// MATMUL_ITERATE"),
            get_c = line_of(kKernel, "// MATMUL_GET_TENSOR_C");
  REQUIRE(line > 0);
  REQUIRE(iterate > 0);
  REQUIRE(get_c > 0);
  struct Case {
    int m, k, n, blocks;
    std::string c, b, tmpl;
  };
  const std::vector<Case> cases = {{400, 64, 432, 24, "float", "nd", "norm"},
                                   {272, 160, 288, 1, "half", "nt", "norm"},
                                   {160, 128, 96, 2, "half", "nt", "mdl"},
                                   {192, 96, 160, 4, "float", "nt", "norm"},
                                   {272, 160, 288, 1, "half", "nt", "norm-iterate"},
                                   {528, 64, 560, 4, "float", "nd", "mdl-iterate"},
                                   {272, 160, 288, 1, "half", "nt", "norm-orderm"},
                                   {528, 64, 560, 4, "float", "nd", "mdl-iterate-orderm"},
                                   {272, 160, 288, 1, "half", "nt", "norm-bias"},
                                   {528, 64, 560, 4, "float", "nd", "mdl-iterate-bias"},
                                   {400, 64, 432, 24, "float", "nd", "norm-bias"},
                                   {272, 160, 288, 1, "float", "nt", "norm-biash"}};
  for (const Case& c : cases) {
    TempDir dir;
    const std::string args = std::to_string(c.m) + " " + std::to_string(c.k) + " " + std::to_string(c.n) +
                             " " + std::to_string(c.blocks) + " " + c.c + " " + c.b + " " + c.tmpl;
    const Result r = run_matmul(args, {"--out=" + dir.file("out"), "-q", "--emit-trace", "--timing-only"});
    INFO(args << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    const bool mdl = c.tmpl.rfind("mdl", 0) == 0, loop = c.tmpl.find("-iterate") != std::string::npos;
    const bool order_m = c.tmpl.find("-orderm") != std::string::npos;
    const bool bias = c.tmpl.find("-bias") != std::string::npos,
               bias_half = c.tmpl.find("-biash") != std::string::npos;
    const auto t = tiling_of(r.out);
    const int used = t.at("usedCoreNum");
    const int split_m = (c.m + t.at("singleCoreM") - 1) / t.at("singleCoreM");
    const std::string gen =
        "gen --dtype half --c-dtype " + c.c + " --b-layout " + c.b + " --m " + std::to_string(c.m) + " --k " +
        std::to_string(c.k) + " --n " + std::to_string(c.n) + " --cores " + std::to_string(used) +
        " --split " + std::to_string(split_m) + "x" + std::to_string(used / split_m) + " --base " +
        std::to_string(t.at("baseM")) + "x" + std::to_string(t.at("baseN")) + "x" +
        std::to_string(t.at("baseK")) + " --template " + (mdl ? "mdl" : "norm") +
        " --a-load load3d --depth-a1 2 --depth-b1 2 --step-ka 1 --step-kb 1" + " --l0-buffers " +
        std::to_string(t.at("dbL0A")) + " --iterate-order " + (order_m ? "m" : "n") +
        (bias ? (bias_half ? " --bias half" : " --bias float") : "") + " --timing-only --out " +
        dir.file("gen");
    const Result g = run_sim(gen);
    INFO(gen << "\n" << g.out << g.err);
    REQUIRE(g.status == 0);
    const std::string kernel = bias_half        ? "mm_float_hbias"
                               : c.c == "float" ? (mdl ? "mm_float_mdl" : "mm_float")
                                                : (mdl ? "mm_half_mdl" : "mm_half");
    for (int b = 0; b < used; ++b) {
      const std::string recorded = dir.file(
          "out/" + kernel + "/" + (c.blocks == 1 ? "kernel.trace" : "block" + std::to_string(b) + ".trace"));
      const std::string generated =
          dir.file("gen/" + (used == 1 ? std::string("gen.trace") : "core" + std::to_string(b) + ".trace"));
      INFO("block " << b);
      const auto want = without_pipe_flags(statements(generated));
      const auto got =
          statements_at(recorded, loop ? std::vector<int>{iterate, get_c} : std::vector<int>{line});
      REQUIRE(!got.empty());
      CHECK(got == want);
      // In the loop, each Fixpipe (with its FIX-side flags) comes from GetTensorC, the rest from Iterate.
      if (loop) {
        const auto fix = statements_at(recorded, {get_c});
        CHECK(std::count_if(fix.begin(), fix.end(), [](const std::string& x) {
                return x.rfind("Fixpipe", 0) == 0;
              }) == std::count_if(want.begin(), want.end(), [](const std::string& x) {
                return x.rfind("Fixpipe", 0) == 0;
              }));
        for (const std::string& x : fix)
          CHECK((x.rfind("Fixpipe", 0) == 0 || x.find("event=M_FIX") != std::string::npos ||
                 x.find("event=FIX_M") != std::string::npos));
      }
    }
  }
}

TEST_CASE("Matmul API: a 1-core kernel takes the cycles of the same gen trace run alone",
          "[matmul_api][gen]") {
  TempDir dir;
  const Result r = run_matmul("272 160 288 1 half nt norm", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto t = tiling_of(r.out);
  const Result g =
      run_sim("gen --dtype half --c-dtype half --b-layout nt --m 272 --k 160 --n 288 --base " +
              std::to_string(t.at("baseM")) + "x" + std::to_string(t.at("baseN")) + "x" +
              std::to_string(t.at("baseK")) + " --a-load load3d --timing-only --out " + dir.file("gen"));
  INFO(g.out << g.err);
  REQUIRE(g.status == 0);
  // The gen trace as the kernel runs it: inside the kernel's TPipe, which sets M_MTE1 0-2 first and
  // waits them and PIPE_ALL last (docs/ascendc.md, "What TPipe and TQue emit"), the schedule taking
  // its M_MTE1 pre-sets and drains from the TPipe ("Matmul API").
  std::vector<std::string> head, program;
  {
    std::istringstream in(slurp(dir.file("gen/gen.trace")));
    for (std::string line; std::getline(in, line);)
      (line.empty() || line[0] == '#' || line[0] == '.' ? head : program).push_back(line);
  }
  std::string text;
  for (const std::string& l : head) text += l + "\n";
  for (int id = 0; id < 3; ++id) text += "SetFlag event=M_MTE1 id=" + std::to_string(id) + "\n";
  for (const std::string& l : without_pipe_flags(program)) text += l + "\n";
  for (int id = 0; id < 3; ++id) text += "WaitFlag event=M_MTE1 id=" + std::to_string(id) + "\n";
  text += "PipeBarrier pipe=PIPE_ALL\n";
  const std::string in_pipe = dir.file("gen/in_pipe.trace");
  std::ofstream(in_pipe) << text;
  const Result run = run_sim("run " + in_pipe + " --out " + dir.file("run") + " --timing-only");
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  const uint64_t kernel_cycles = stats_of(dir.file("out/mm_half"))["cycles"].get<uint64_t>();
  CHECK(kernel_cycles > 0);
  CHECK(kernel_cycles == stats_of(dir.file("run"))["cycles"].get<uint64_t>());
}

TEST_CASE("Matmul API: a constant tiling (GetMMConfig + GetMatmulApiTiling) runs bit-exact, full and partial",
          "[matmul_api]") {
  // VARIANT BLOCKS M N K SINGLE_M SINGLE_N: two halves of M (the best-practice "L2 cache" loop),
  // parts of 64 rows; N = 448 leaves the second column of parts a 192-column tail (SetTail).
  for (const std::string c : {"full 4 256 448 512 64 256", "full-unit 4 256 448 512 64 256",
                              "full 1 128 256 512 64 256", "partial 4 256 448 512 64 256"}) {
    TempDir dir;
    const Result r = run_kernel("matmul_constant", c, {"--out=" + dir.file("out"), "-q"});
    INFO(c << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("matmul_constant: ok") != std::string::npos);
    for (const auto& launch : std::filesystem::directory_iterator(dir.file("out"))) {
      const auto checks = nlohmann::json::parse(slurp(launch.path().string() + "/checks.json"));
      CHECK(checks["errors"] == 0);
      CHECK(checks["warnings"] == 0);
    }
  }
}

TEST_CASE("Matmul API: the constant tiling's packets are what the kernel set (depth / step)",
          "[matmul_api]") {
  // kFull: depthA1 8 / stepKa 4 and depthB1 4 / stepKb 2: A moves 4 base-K blocks a copy, B 2.
  TempDir dir;
  const Result r = run_kernel("matmul_constant", "full 1 128 256 512 64 256",
                              {"--out=" + dir.file("out"), "--emit-trace", "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string src = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/matmul_constant.cpp";
  const auto st = statements_at(dir.file("out/mm_full/kernel.trace"), {line_of(src, "// ITERATE_ALL")});
  // Per IterateAll (two of them): K = 512 is 2 packets of A (4 base-K blocks of 64: dValue 256)
  // and 4 of B (N x K, 2 blocks: dValue 128), one block of C.
  int a_copies = 0, b_copies = 0, other = 0;
  for (const std::string& s : st) {
    if (s.rfind("DataCopyNd2Nz", 0) != 0) continue;
    if (s.find(" dValue=256 ") != std::string::npos)
      ++a_copies;
    else if (s.find(" dValue=128 ") != std::string::npos)
      ++b_copies;
    else
      ++other;
  }
  CHECK(a_copies == 2 * 2);
  CHECK(b_copies == 2 * 4);
  CHECK(other == 0);
}

TEST_CASE("Matmul API: a partial constant tiling needs a tiling with its base (errors at IterateAll)",
          "[matmul_api]") {
  const std::string src = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/matmul_constant.cpp";
  const std::string at =
      "matmul_constant.cpp:" + std::to_string(line_of(src, "// ITERATE_ALL")) + ": error: ";
  {
    const Result r = run_kernel("matmul_constant", "mismatch 1 128 256 512 64 256", {"-q"});
    INFO(r.out << r.err);
    CHECK(r.status == 3);
    CHECK(r.err.find(at +
                     "Matmul::IterateAll: the tiling's base 64 x 128 x 64 is not the constant tiling's 64 x "
                     "64 x 64 (the config's basicM/N/K must be what the tiling computed)") !=
          std::string::npos);
  }
  {
    const Result r = run_kernel("matmul_constant", "no-tiling 1 128 256 512 64 256", {"-q"});
    INFO(r.out << r.err);
    CHECK(r.status == 3);
    CHECK(r.err.find(
              at + "Matmul::IterateAll: the Matmul object's constant tiling has no singleCoreM/N/K (partial "
                   "constants): REGIST_MATMUL_OBJ or Init must give it a TCubeTiling") != std::string::npos);
  }
}
