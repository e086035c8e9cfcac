// The examples of examples/ascendc: bit-exact (fp16 within tolerance: each program checks
// its own golden, computed by a plain loop in its main) on one and several blocks; the recorded
// traces equal the hand-written ones in traces/ statement for statement, flags included; each
// recorded instruction names the kernel line of the call that issued it; the emitted traces run
// again with `aicore-sim run` give the same results and the same cycles.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runner.hpp"

using namespace frontend_test;
namespace fs = std::filesystem;

namespace {

const std::string kTraces = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/traces/";

nlohmann::json stats_of(const std::string& dir) {
  return nlohmann::json::parse(slurp(dir + "/stats.json"));
}

// The API whose call a recorded instruction must point at: the source line must contain one of these.
std::vector<std::string> apis_of(const std::string& statement) {
  const std::string mnemonic = statement.substr(0, statement.find(' '));
  if (mnemonic == "DataCopy" || mnemonic == "DataCopyNd2Nz") return {"DataCopy("};
  if (mnemonic == "LoadData") return {"LoadData("};
  if (mnemonic == "LoadDataWithSparse") return {"LoadDataWithSparse("};
  if (mnemonic == "Mmad") return {"Mmad("};
  if (mnemonic == "MmadWithSparse") return {"MmadWithSparse("};
  if (mnemonic == "Fixpipe" || statement == "PipeBarrier pipe=PIPE_FIX") return {"Fixpipe"};
  // Queue calls emit flags; the TPipe's own flags carry the line where it is built: for a class
  // member, the class. The tiled kernel sets its flags by hand.
  if (mnemonic == "SetFlag") return {"EnQue(", "FreeTensor(", "class Kernel", "SetFlag<"};
  if (mnemonic == "WaitFlag") return {"DeQue<", "AllocTensor<", "class Kernel", "WaitFlag<"};
  if (statement == "PipeBarrier pipe=PIPE_M") return {"PipeBarrier<PIPE_M>"};
  return {"class Kernel"};  // the TPipe's PIPE_ALL
}

void check_sources(const std::string& trace) {
  const std::vector<std::string> st = statements(trace), src = statement_sources(trace);
  REQUIRE(st.size() == src.size());
  for (size_t i = 0; i < st.size(); ++i) {
    const size_t colon = src[i].rfind(':');
    // CMake compiles the examples as ../../examples/...: relative to the build directory.
    std::string file = src[i].substr(0, colon);
    while (file.rfind("../", 0) == 0) file = file.substr(3);
    if (file[0] != '/') file = std::string(AICORE_SOURCE_DIR) + "/" + file;
    const int line = std::stoi(src[i].substr(colon + 1));
    std::istringstream in(slurp(file));
    std::string text;
    for (int n = 0; n < line; ++n) std::getline(in, text);
    bool found = false;
    for (const std::string& api : apis_of(st[i])) found = found || text.find(api) != std::string::npos;
    INFO(st[i] << " points at " << src[i] << ": " << text);
    CHECK(found);
  }
}

struct Example {
  std::string program, kernel;
  std::vector<std::string> hand_traces;  // one per block, or empty
  std::string args;
};

}  // namespace

TEST_CASE("examples are bit-exact on one and several blocks", "[examples]") {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"sparse_matmul", "1"},      {"sparse_matmul", "3"},      {"dense_mmad", "1"},
      {"dense_mmad", "2"},         {"tiled_gemm", "1"},         {"tiled_gemm", "2"},
      {"tiled_gemm", "4"},         {"matmul_api_example", "1"}, {"matmul_api_example", "4"},
      {"matmul_api_example", "24"}};
  for (const auto& [program, blocks] : runs) {
    TempDir dir;
    const Result r = run_kernel(program, blocks, {"--out=" + dir.file("out"), "-q"});
    INFO(program << " on " << blocks << " block(s)\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("on " + blocks + " block(s): match") != std::string::npos);
    const nlohmann::json s =
        stats_of(dir.file("out/" + (program == "matmul_api_example" ? std::string("matmul_api") : program)));
    CHECK(s["status"] == "completed");
    CHECK(s["cores"].size() == static_cast<size_t>(std::stoi(blocks)));
    CHECK(s["cycles"].get<uint64_t>() > 0);
  }
}

TEST_CASE("recorded traces equal the hand-written traces, flags included", "[examples]") {
  const std::vector<Example> examples = {
      {"sparse_matmul", "sparse_matmul", {"sparse_matmul.trace"}, "1"},
      {"dense_mmad", "dense_mmad", {"dense_mmad.trace"}, "1"},
      {"tiled_gemm_small", "tiled_gemm", {"tiled_gemm_block0.trace", "tiled_gemm_block1.trace"}, "2"}};
  for (const Example& e : examples) {
    TempDir dir;
    const Result r = run_kernel(e.program, e.args, {"--out=" + dir.file("out"), "--emit-trace", "-q"});
    INFO(e.program << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    for (size_t b = 0; b < e.hand_traces.size(); ++b) {
      const std::string recorded =
          dir.file("out/" + e.kernel + "/" +
                   (e.hand_traces.size() == 1 ? "kernel.trace" : "block" + std::to_string(b) + ".trace"));
      const std::vector<std::string> got = statements(recorded),
                                     want = statements(kTraces + e.hand_traces[b]);
      for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
        INFO(e.hand_traces[b] << " statement " << i);
        REQUIRE(got[i] == want[i]);
      }
      CHECK(got.size() == want.size());
      check_sources(recorded);
    }
  }
}

TEST_CASE("emitted traces run again with aicore-sim run: same results, same cycles", "[examples]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sparse_matmul", "kernel.trace"}, {"dense_mmad", "kernel.trace"}, {"tiled_gemm", "kernel.yaml"}};
  for (const auto& [program, entry] : cases) {
    TempDir dir;
    const Result k = run_kernel(program, "", {"--out=" + dir.file("out"), "--emit-trace", "-q"});
    INFO(program << "\n" << k.out << k.err);
    REQUIRE(k.status == 0);
    const std::string launch = dir.file("out/" + program);
    const Result r = run_sim("run " + launch + "/" + entry + " --out " + dir.file("rerun"));
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("expect c: match") != std::string::npos);
    CHECK(stats_of(dir.file("rerun"))["cycles"] == stats_of(launch)["cycles"]);
  }
}

TEST_CASE("the outputs of run are written per launch", "[examples]") {
  TempDir dir;
  const Result r =
      run_kernel("tiled_gemm", "2",
                 {"--out=" + dir.file("out"), "--instr-log", "--timeline", "--vcd", "--window=0:2000"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  for (const char* f : {"stats.json", "instr.csv", "timeline.json", "waves.vcd"})
    CHECK(fs::exists(dir.file(std::string("out/tiled_gemm/") + f)));
  CHECK(r.out.find("wrote " + dir.file("out/tiled_gemm/instr.csv")) != std::string::npos);
  // instr.csv rows carry the kernel's own source lines: every DataCopyNd2Nz is the one DataCopy call.
  const int copy_line = line_of(std::string(AICORE_SOURCE_DIR) + "/examples/ascendc/tiled_gemm.cpp",
                                "DataCopy(dst, src, params);");
  REQUIRE(copy_line > 0);
  std::istringstream csv(slurp(dir.file("out/tiled_gemm/instr.csv")));
  int copies = 0;
  for (std::string row; std::getline(csv, row);)
    if (row.find(",DataCopyNd2Nz,") != std::string::npos) {
      ++copies;
      CHECK(row.substr(row.find(',') + 1, row.find(",DataCopyNd2Nz,") - row.find(',') - 1) ==
            std::to_string(copy_line));
    }
  CHECK(copies == 2 * 2 * 4 * 2);  // 2 blocks x 2 tiles x 4 chunks x (A, B)
}

TEST_CASE("timing-only launches compute no data but give the same cycles", "[examples]") {
  TempDir dir;
  const Result full = run_kernel("tiled_gemm", "2", {"--out=" + dir.file("full"), "-q"});
  const Result timing = run_kernel("tiled_gemm", "2", {"--out=" + dir.file("timing"), "--timing-only", "-q"});
  INFO(full.out << full.err << timing.out << timing.err);
  CHECK(full.status == 0);
  CHECK(timing.status == 1);  // the program's own check: C was not computed
  CHECK(timing.out.find("MISMATCH") != std::string::npos);
  CHECK(stats_of(dir.file("timing/tiled_gemm"))["cycles"] == stats_of(dir.file("full/tiled_gemm"))["cycles"]);
}
