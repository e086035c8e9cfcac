// `aicore-sim kernel`: builds a kernel program with this build's compiler and runs it; compile
// errors (including the APIs not supported yet) are exit status 2 with the compiler's messages;
// the program's own failure is 1.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "runner.hpp"

using namespace frontend_test;
namespace fs = std::filesystem;

TEST_CASE("aicore-sim kernel builds, runs and simulates the tiled example", "[kernel_command]") {
  // With the compiler flags kernel --help suggests (which must build a real kernel: -DM=64 would not).
  const std::string help = run_sim("kernel --help").out;
  const size_t at = help.find("(e.g. -- ");
  REQUIRE(at != std::string::npos);
  const std::string flags = help.substr(at + 9, help.find(';', at) - at - 9);
  REQUIRE(flags.find("-DBLOCKS=3") != std::string::npos);
  TempDir dir;
  const Result r =
      run_sim("kernel " + std::string(AICORE_SOURCE_DIR) + "/examples/ascendc/tiled_gemm.cpp --out " +
              dir.file("out") + " --emit-trace -- " + flags);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("on 3 block(s): match") != std::string::npos);
  CHECK(r.out.find("== launch tiled_gemm: 3 block(s)") != std::string::npos);
  CHECK(r.err.find("note: built " + dir.file("out/build/tiled_gemm")) != std::string::npos);
  CHECK(fs::exists(dir.file("out/build/tiled_gemm")));
  CHECK(fs::exists(dir.file("out/tiled_gemm/kernel.yaml")));
  const auto stats = nlohmann::json::parse(slurp(dir.file("out/tiled_gemm/stats.json")));
  CHECK(stats["cores"].size() == 3);
  CHECK(stats["status"] == "completed");
}

TEST_CASE("aicore-sim kernel: a compile error is exit status 2", "[kernel_command]") {
  TempDir dir;
  const std::string src =
      dir.write("broken.cpp", "#include \"kernel_operator.h\"\nint main() { return undeclared; }\n");
  const Result r = run_sim("kernel " + src + " --out " + dir.file("out"));
  CHECK(r.status == 2);
  CHECK(r.err.find("broken.cpp:2:") != std::string::npos);  // the compiler's own message
  CHECK(r.err.find("aicore-sim kernel: error: " + src + " did not compile") != std::string::npos);
}

TEST_CASE("APIs not supported yet fail to compile, naming the API", "[kernel_command]") {
  TempDir dir;
  const Result r = run_sim("kernel " + std::string(AICORE_SOURCE_DIR) +
                           "/tests/frontend/kernels/unsupported.cpp --out " + dir.file("out"));
  CHECK(r.status == 2);
  for (const char* m :
       {"LoadData from GM (GM -> L0A/L0B/L1) is not supported",
        "LoadData (Load3Dv2): an IsResetLoad3dConfig that leaves the FMATRIX or padding registers",
        "LoadData with LoadData3DParamsV2Pro (its map comes from SetFmatrix) is not supported",
        "DataCopy to GM (L1 -> GM, UB -> GM) is not supported",
        "Fixpipe with CFG_COLUMN_MAJOR is not supported by arch 2201",
        "Fixpipe: the L0C source holds int32_t or float cells",
        "Mmad: aicore-sim supports (int32_t, int8_t, int8_t), (int32_t, int4b_t, int4b_t), (float, half, "
        "half)",
        "LocalTensor<int4b_t>::GetValue is not supported by aicore-sim (two elements share a byte)",
        "LocalTensor<int4b_t>::SetValue is not supported", "GlobalTensor<int4b_t>::GetValue is not supported",
        "GlobalTensor<int4b_t>::SetValue is not supported",
        "PipeBarrier<PIPE_V>: the Cube core has no Vector pipe", "this HardEvent involves the Vector pipe",
        "UB positions are AIV-only", "TQue with depth 0 (in-place queues) is not supported",
        "TBuf: aicore-sim supports TBufs in L1",
        "LocalMemAllocator: only Hardware::L1, L0A, L0B and L0C are supported",
        "ICPU_SET_TILING_KEY is not supported yet"}) {
    INFO(m);
    CHECK(r.err.find(m) != std::string::npos);
  }
}

TEST_CASE("aicore-sim kernel: the program's own failure is exit status 1", "[kernel_command]") {
  TempDir dir;
  const std::string src = dir.write("fails.cpp", "#include \"tikicpulib.h\"\nint main() { return 5; }\n");
  const Result r = run_sim("kernel " + src + " --out " + dir.file("out") + " -q");
  CHECK(r.status == 1);
  CHECK(r.err.find("error: " + dir.file("out/build/fails") + " exited with status 5") != std::string::npos);
}

TEST_CASE("aicore-sim kernel: bad input before building is exit status 2", "[kernel_command]") {
  TempDir dir;
  const Result missing = run_sim("kernel " + dir.file("nope.cpp") + " --out " + dir.file("out"));
  CHECK(missing.status == 2);
  CHECK(missing.err.find("cannot read " + dir.file("nope.cpp")) != std::string::npos);
  const Result no_file = run_sim("kernel --out " + dir.file("out"));
  CHECK(no_file.status == 2);
  CHECK(no_file.err.find("missing FILE.cpp") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.file("out/build")));
}
