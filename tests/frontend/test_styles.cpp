// The static-tensor styles (LocalMemAllocator without a TPipe; TBufs of a TPipe destroyed at once)
// next to TPipe/TQue: all compute the right C, and record the flags their style implies.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "runner.hpp"

using namespace frontend_test;

namespace {
std::vector<std::string> recorded(const TempDir& dir, const std::string& variant, Result& r) {
  r = run_kernel("styles", variant, {"--out=" + dir.file("out"), "--emit-trace", "-q"});
  return statements(dir.file("out/styles/kernel.trace"));
}
}  // namespace

TEST_CASE("static tensors, TBufs and queues compute the same result", "[styles]") {
  for (const char* v : {"static_ok", "tbuf_ok", "queue_ok"}) {
    TempDir dir;
    Result r;
    const std::vector<std::string> st = recorded(dir, v, r);
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("styles ") + v + ": match") != std::string::npos);
    REQUIRE(st.size() > 8);
    if (std::string(v) == "static_ok") {
      // No TPipe: the kernel's own flags are the whole schedule.
      CHECK(st.front() == "DataCopyNd2Nz dst=L1:0 src=a nValue=16 dValue=32 srcDValue=32 dstNzC0Stride=16");
      CHECK(st.back() == "PipeBarrier pipe=PIPE_ALL");
      for (const std::string& s : st) CHECK(s.find("M_MTE1") == std::string::npos);
    } else if (std::string(v) == "tbuf_ok") {
      // TPipe() sets M_MTE1 0-2, Destroy() right away drains them: before any of the kernel's work.
      const std::vector<std::string> head = {"SetFlag event=M_MTE1 id=0",  "SetFlag event=M_MTE1 id=1",
                                             "SetFlag event=M_MTE1 id=2",  "WaitFlag event=M_MTE1 id=0",
                                             "WaitFlag event=M_MTE1 id=1", "WaitFlag event=M_MTE1 id=2",
                                             "PipeBarrier pipe=PIPE_ALL"};
      CHECK(std::vector<std::string>(st.begin(), st.begin() + 7) == head);
      CHECK(st[8] == "DataCopyNd2Nz dst=L1:0x200 src=bt nValue=16 dValue=32 srcDValue=32 dstNzC0Stride=16");
      CHECK(st.back().rfind("Fixpipe ", 0) == 0);  // the destructor after Destroy() emits nothing
    } else {
      CHECK(st.front() == "SetFlag event=M_MTE1 id=0");
    }
  }
}

namespace {
const std::string kStyles = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/styles.cpp";
std::string at(const std::string& marker) {
  return "styles.cpp:" + std::to_string(line_of(kStyles, "// mark: " + marker));
}
}  // namespace

TEST_CASE("the race checker reports a removed flag and a missing EnQue/DeQue at the kernel's lines",
          "[styles]") {
  {
    TempDir dir;
    const Result r = run_kernel("styles", "removed_flag", {"--out=" + dir.file("out"), "-q"});
    INFO(r.out << r.err);
    CHECK(r.status == 3);
    CHECK(r.out.find("styles removed_flag") == std::string::npos);  // the program stopped at the launch
    CHECK(r.err.find(at("static_load_a") + ": error: data race (RAW) on L1") != std::string::npos);
    CHECK(r.err.find("fix: SetFlag<MTE2_MTE1> after line") != std::string::npos);
    CHECK(r.err.find("the simulation of kernel styles failed (exit status 3)") != std::string::npos);
    CHECK(slurp(dir.file("out/styles/checks.json")).find("\"race\"") != std::string::npos);
  }
  {
    TempDir dir;
    const Result r = run_kernel("styles", "missing_enque", {"--out=" + dir.file("out"), "-q"});
    INFO(r.out << r.err);
    CHECK(r.status == 3);
    CHECK(r.err.find(at("queue_mmad") + ": error: data race (RAW) on L0B") != std::string::npos);
    CHECK(r.err.find("first:  ") != std::string::npos);
    CHECK(r.err.find(at("queue_load_b") + ": LoadData (MTE1) writes") != std::string::npos);
    CHECK(r.err.find("fix: SetFlag<MTE1_M> after line " +
                     std::to_string(line_of(kStyles, "// mark: queue_load_b"))) != std::string::npos);
  }
  {  // --check warn reports and lets the program go on
    TempDir dir;
    const Result r =
        run_kernel("styles", "missing_enque", {"--out=" + dir.file("out"), "-q", "--check=warn"});
    CHECK(r.status == 0);
    CHECK(r.out.find("styles missing_enque: match") != std::string::npos);
    CHECK(r.err.find("data race (RAW) on L0B") != std::string::npos);
  }
}

TEST_CASE("a two-buffer TQue loop re-sets a reused event id before its last wait, and runs clean",
          "[styles]") {
  // What TPipe/TQue emit (lowest free id at EnQue, released when DeQue is issued) with two L1
  // buffers per queue: the EnQue of pass i reuses the id the DeQue of pass i-1 released, and only
  // the FreeTensor of pass i-2 orders its SetFlag. The set is held until the WaitFlag clears the
  // flag (docs/ascendc.md, "Double buffering"): no report.
  TempDir dir;
  const Result r = run_kernel("styles", "queue_two_buffers", {"--out=" + dir.file("out"), "-q"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("styles queue_two_buffers: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
}

namespace {
const std::string kKloop = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/kloop.cpp";
std::string kloop_at(const std::string& marker) {
  return "kloop.cpp:" + std::to_string(line_of(kKloop, "// mark: " + marker));
}
}  // namespace

TEST_CASE("documented TQue K-loops (BUFFER_NUM 2, 3, 4, prefetching) are clean and bit-exact", "[styles]") {
  for (const char* v : {"loop2", "loop3", "loop4", "prefetch"}) {
    TempDir dir;
    const Result r = run_kernel("kloop", v, {"--out=" + dir.file("out"), "-q"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("kloop ") + v + ": match") != std::string::npos);
    // No error, no warning: neither the library's re-set ids nor its ids 6/7 are reported.
    CHECK(r.err.find("error") == std::string::npos);
    CHECK(r.err.find("warning") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/kloop/checks.json")));
    CHECK(checks["reports"].empty());
  }
}

TEST_CASE("a basic-API half matmul loading A with one Load3Dv2 per K step is clean and bit-exact",
          "[styles][load3d]") {
  for (const char* v : {"plain", "transposed"}) {
    TempDir dir;
    const Result r = run_kernel("load3d", v, {"--out=" + dir.file("out"), "-q"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("load3d ") + v + ": match") != std::string::npos);
    CHECK(r.err.find("error") == std::string::npos);
    CHECK(r.err.find("warning") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/load3d/checks.json")));
    CHECK(checks["reports"].empty());
    // The three Load3Dv2 windows of 48 x 32 half are the L1 -> L0A bytes (stats path of the op).
    const auto stats = nlohmann::json::parse(slurp(dir.file("out/load3d/stats.json")));
    CHECK(stats["paths"]["L1->L0A"]["bytes"] == 3 * 48 * 32 * 2);
  }
}

TEST_CASE("a basic-API matmul loading B with LoadDataWithTranspose (int8 and half) is clean and bit-exact",
          "[styles][transpose]") {
  for (const char* v : {"int8", "half"}) {
    TempDir dir;
    const Result r = run_kernel("transpose", v, {"--out=" + dir.file("out"), "-q"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("transpose ") + v + ": match") != std::string::npos);
    CHECK(r.err.find("error") == std::string::npos);
    CHECK(r.err.find("warning") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/transpose/checks.json")));
    CHECK(checks["reports"].empty());
    // Every byte of B (128 x 64) goes L1 -> L0B once through the transposing loads.
    const auto stats = nlohmann::json::parse(slurp(dir.file("out/transpose/stats.json")));
    CHECK(stats["paths"]["L1->L0B"]["bytes"] == 128 * 64 * (std::string(v) == "half" ? 2 : 1));
  }
}

TEST_CASE("a basic-API float x float matmul is clean and bit-exact against the documented arithmetic",
          "[styles][float]") {
  TempDir dir;
  const Result r = run_kernel("float_mmad", "", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("float_mmad: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
  const auto checks = nlohmann::json::parse(slurp(dir.file("out/float_mmad/checks.json")));
  CHECK(checks["reports"].empty());
  // Two Mmads of 32 x 48 x 32: 2 x 6 fractal pairs x 32 / 4 K a cycle, at 1024 MAC/cycle.
  const auto stats = nlohmann::json::parse(slurp(dir.file("out/float_mmad/stats.json")));
  const auto& f = stats["cube"]["kinds"]["float"];
  CHECK(f["instructions"] == 2);
  CHECK(f["dense_equivalent_macs"] == 2 * 32 * 48 * 32);
  CHECK(f["peak_macs_per_cycle"] == 1024);
  CHECK(stats["paths"]["L1->L0B"]["bytes"] == 64 * 48 * 4);
}

TEST_CASE("DataCopy(GM, CO1, DataCopyCO12DstParams) with the FIX registers writes row-major or NZ",
          "[styles][fixpipe][nz]") {
  for (const char* v : {"datacopy", "datacopy_nz"}) {
    TempDir dir;
    const Result r = run_kernel("float_mmad", v, {"--out=" + dir.file("out"), "-q"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("float_mmad ") + v + ": match") != std::string::npos);
    CHECK(r.err.find("error") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/float_mmad/checks.json")));
    CHECK(checks["reports"].empty());
  }
  // nz2ndEn before any SetFixpipeNz2ndFlag: a runtime error at the call.
  TempDir dir;
  const Result r = run_kernel("float_mmad", "datacopy_unset", {"--out=" + dir.file("out"), "-q"});
  CHECK(r.status == 3);
  CHECK(r.err.find(
            "float_mmad.cpp:" +
            std::to_string(line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/float_mmad.cpp",
                                   "// mark: datacopy")) +
            ": error: DataCopy (CO1 -> GM): nz2ndEn needs SetFixpipeNz2ndFlag first") != std::string::npos);
}

TEST_CASE("Fixpipe with a cbufWorkspace: VQF322B8_PRE scales each column by its L1 word, clean and exact",
          "[styles][fixpipe][quant]") {
  TempDir dir;
  const Result r = run_kernel("float_mmad", "vquant", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("float_mmad vquant: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  const auto checks = nlohmann::json::parse(slurp(dir.file("out/float_mmad/checks.json")));
  CHECK(checks["reports"].empty());
  // The per-channel mode without its table: an error at the call.
  TempDir dir2;
  const Result e = run_kernel("float_mmad", "vquant_no_table", {"--out=" + dir2.file("out"), "-q"});
  CHECK(e.status == 3);
  CHECK(e.err.find(
            "float_mmad.cpp:" +
            std::to_string(line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/float_mmad.cpp",
                                   "// mark: vquant_no_table")) +
            ": error: Fixpipe: a per-channel quantPre (VDEQF16, VQF322B8_PRE, VREQ8) reads one uint64_t per "
            "column from L1: call the Fixpipe overload with a cbufWorkspace tensor") != std::string::npos);
}

TEST_CASE(
    "DataCopy(GM, CO1) with a per-channel quantPre: the table copied L1 -> fixpipe buffer and named by "
    "SetFixPipeConfig, clean and exact",
    "[styles][fixpipe][quant]") {
  for (const char* variant : {"fbquant", "fbquant1"}) {
    TempDir dir;
    const Result r = run_kernel("float_mmad", variant, {"--out=" + dir.file("out"), "-q"});
    INFO(variant << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("float_mmad ") + variant + ": match") != std::string::npos);
    CHECK(r.err.find("error") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/float_mmad/checks.json")));
    CHECK(checks["reports"].empty());
  }
  {  // Timing-only: the copy is recorded without bytes, the same cycles as a full run; the changed
     // table goes unnoticed (no bytes to compare).
    TempDir dir;
    const Result full = run_kernel("float_mmad", "fbquant", {"--out=" + dir.file("full"), "-q"});
    for (const char* variant : {"fbquant", "fbquant_changed"}) {
      const Result timing =
          run_kernel("float_mmad", variant, {"--out=" + dir.file(variant), "--timing-only", "-q"});
      INFO(variant << "\n" << timing.out << timing.err);
      CHECK(timing.status == 1);  // the program's own check: C was not computed
      CHECK(timing.err.find("error") == std::string::npos);
    }
    const auto cycles = [&](const std::string& d) {
      return nlohmann::json::parse(slurp(dir.file(d + "/float_mmad/stats.json")))["cycles"];
    };
    CHECK(cycles("fbquant") == cycles("full"));
  }
  // Misuse: errors at the DataCopy(GM, CO1) line.
  const std::string at =
      "float_mmad.cpp:" +
      std::to_string(
          line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/float_mmad.cpp", "// mark: fb")) +
      ": error: DataCopy (CO1 -> GM): ";
  const std::pair<const char*, std::string> cases[] = {
      {"fbquant_no_config",
       "a per-channel quantPre (VDEQF16, VQF322B8_PRE, VREQ8) needs SetFixPipeConfig first (its table of one "
       "uint64_t per column in the fixpipe buffer)"},
      {"fbquant_changed",
       "the per-channel table (384 bytes at fixpipe-buffer byte 0, SetFixPipeConfig) came from L1 bytes that "
       "changed after its DataCopy to the fixpipe buffer (line "},
      {"fbquant_not_filled",
       "the per-channel table (384 bytes at fixpipe-buffer byte 384, SetFixPipeConfig) was not filled by one "
       "DataCopy(C2PIPE2GM, L1, DataCopyParams) burst run"},
  };
  for (const auto& [variant, message] : cases) {
    TempDir dir;
    const Result e = run_kernel("float_mmad", variant, {"--out=" + dir.file("out"), "-q"});
    INFO(variant << "\n" << e.err);
    CHECK(e.status == 3);
    CHECK(e.err.find(at + message) != std::string::npos);
  }
  // The checker sees the Fixpipe's read of the table in L1 (FIX) against its unsynchronised writer.
  TempDir dir;
  const Result race = run_kernel("float_mmad", "fbquant_race", {"--out=" + dir.file("out"), "-q"});
  INFO(race.out << race.err);
  CHECK(race.status == 3);
  CHECK(race.err.find(at.substr(0, at.find(": error:")) + ": error: data race (RAW) on L1") !=
        std::string::npos);
  CHECK(race.err.find("Fixpipe (FIX) reads bytes that DataCopy (MTE2) at line") != std::string::npos);
}

TEST_CASE("a Fixpipe with CFG_NZ writes C to GM in NZ, clean and bit-exact", "[styles][fixpipe][nz]") {
  TempDir dir;
  const Result r = run_kernel("float_mmad", "nz", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("float_mmad nz: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
  const auto checks = nlohmann::json::parse(slurp(dir.file("out/float_mmad/checks.json")));
  CHECK(checks["reports"].empty());
  const auto stats = nlohmann::json::parse(slurp(dir.file("out/float_mmad/stats.json")));
  CHECK(stats["paths"]["L0C->GM"]["bytes"] == 32 * 48 * 4);
}

TEST_CASE("a prefetching TQue loop whose producer runs ahead holds its re-sets and stays exact", "[styles]") {
  // With no scalar set-up cost the MTE2 copies run a buffer ahead: re-set ids land before the
  // WaitFlag that clears them, are held (stats.json sync) and the result is still exact.
  TempDir dir;
  std::vector<std::string> opt = {"--out=" + dir.file("out"), "-q"};
  for (const char* k : {"data_copy", "data_copy_nd2nz", "fixpipe", "load_data", "load_data_with_sparse",
                        "mmad", "mmad_with_sparse", "pipe_barrier", "set_flag", "wait_flag"})
    opt.push_back(std::string("--set=scalar.") + k + "=0");
  const Result r = run_kernel("kloop", "prefetch", opt);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("kloop prefetch: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
  const auto stats = nlohmann::json::parse(slurp(dir.file("out/kloop/stats.json")));
  CHECK(stats["sync"]["held_sets"].get<uint64_t>() > 0);
}

TEST_CASE("a K-loop without one EnQue/DeQue pair still races at the kernel's line", "[styles]") {
  TempDir dir;
  const Result r = run_kernel("kloop", "missing_b2", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK(r.err.find(kloop_at("kloop_mmad") + ": error: data race (RAW) on L0B") != std::string::npos);
  CHECK(r.err.find(kloop_at("kloop_load_b") + ": LoadData (MTE1) writes") != std::string::npos);
}

TEST_CASE(
    "a queue-style matmul with a bias table (C1 -> C2 queues, Mmad with a C2 bias) is clean and bit-exact",
    "[styles][bias]") {
  for (const char* v : {"int8", "half"}) {
    TempDir dir;
    const Result r = run_kernel("bias", v, {"--out=" + dir.file("out"), "-q"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("bias ") + v + ": match") != std::string::npos);
    CHECK(r.err.find("error") == std::string::npos);
    CHECK(r.err.find("warning") == std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/bias/checks.json")));
    CHECK(checks["reports"].empty());
    // The 48 bias cells (4 bytes each in the table) are the L1 -> BT bytes.
    const auto stats = nlohmann::json::parse(slurp(dir.file("out/bias/stats.json")));
    CHECK(stats["paths"]["L1->BT"]["bytes"] == 48 * 4);
  }
  TempDir dir;
  const Result r = run_kernel("bias", "race", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  const std::string at =
      "bias.cpp:" +
      std::to_string(
          line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/bias.cpp", "// mark: bias mmad"));
  CHECK(r.err.find(at + ": error: data race (RAW) on BT") != std::string::npos);
  CHECK(r.err.find("fix: SetFlag<MTE1_M>") != std::string::npos);
}

TEST_CASE("a basic-API int4 x int4 matmul (int4b_t) is clean and bit-exact against a naive product",
          "[styles][int4]") {
  TempDir dir;
  const Result r = run_kernel("int4_mmad", "", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("int4_mmad: match") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
  const auto checks = nlohmann::json::parse(slurp(dir.file("out/int4_mmad/checks.json")));
  CHECK(checks["reports"].empty());
  // Two Mmads of 32 x 48 x 128: 2 x 3 fractal pairs x 128 / 64 K a cycle, at 16384 MAC/cycle.
  const auto stats = nlohmann::json::parse(slurp(dir.file("out/int4_mmad/stats.json")));
  const auto& k = stats["cube"]["kinds"]["int4"];
  CHECK(k["instructions"] == 2);
  CHECK(k["dense_equivalent_macs"] == 2 * 32 * 48 * 128);
  CHECK(k["peak_macs_per_cycle"] == 16384);
  CHECK(stats["cube"]["kinds"]["int8"]["instructions"] == 0);
  // Bytes, not elements: B^T is 256 x 48 int4 = 6144 bytes, A 32 x 256 = 4096.
  CHECK(stats["paths"]["L1->L0B"]["bytes"] == 256 * 48 / 2);
  CHECK(stats["paths"]["L1->L0A"]["bytes"] == 32 * 256 / 2);
}

TEST_CASE("int4b_t DataCopy of a count that is not whole 32-byte blocks is an error at its line",
          "[styles][int4]") {
  TempDir dir;
  const Result r = run_kernel("int4_mmad", "odd_count", {"--out=" + dir.file("out"), "-q"});
  CHECK(r.status == 3);
  CHECK(r.err.find(
            "int4_mmad.cpp:" +
            std::to_string(line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/int4_mmad.cpp",
                                   "// mark: odd_count")) +
            ": error: DataCopy: count 12286 x half a byte (int4b_t) must be a whole number of 32-byte "
            "blocks") != std::string::npos);
}

TEST_CASE(
    "int4 rows of odd byte counts (Nd2Nz in bytes), Load3Dv2 and LoadDataWithTranspose of int4: bit-exact",
    "[styles][int4]") {
  // 48 x 70 times 70 x 50: rows of 35 and 25 bytes, A into L0A by LoadData 2D or Load3Dv2, B into
  // L0B by 64 x 64 transposing squares; the padding L1 never filled reaches no result (no report);
  // "unitflag": L0C by unitFlag, then SetFixPipeConfig(CO1 tensor, isUnitFlag = true) clears nothing.
  for (const char* variant : {"load2d", "load3d", "unitflag"}) {
    TempDir dir;
    const Result r = run_kernel("int4_load", variant, {"--out=" + dir.file("out"), "-q"});
    INFO(variant << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("int4_load ") + variant + ": match") != std::string::npos);
    const auto checks = nlohmann::json::parse(slurp(dir.file("out/int4_load/checks.json")));
    CHECK(checks["reports"].empty());
    // Bytes moved: A 48 x 128 int4 into L0A, B two squares of 64 x 64 into L0B.
    const auto stats = nlohmann::json::parse(slurp(dir.file("out/int4_load/stats.json")));
    CHECK(stats["paths"]["L1->L0A"]["bytes"] == 48 * 128 / 2);
    CHECK(stats["paths"]["L1->L0B"]["bytes"] == 2 * 64 * 64 / 2);
  }
}
