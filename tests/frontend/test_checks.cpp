// The checks CPU-debug users rely on, each a clear error naming the kernel's line (never a hang):
// the queue state machine, event ids, buffer capacity and alignment, a second TPipe, operands, GM
// pointers, the simulation's faults (deadlock) and the checker's double SetFlag at the kernel's lines.
#include <catch2/catch.hpp>

#include <filesystem>

#include "runner.hpp"

using namespace frontend_test;

namespace {

const std::string kSource = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/misuse.cpp";

struct Scenario {
  const char* name;
  int status;
  const char* message;  // after "misuse.cpp:LINE: error: " (or the fault's "misuse.cpp:LINE: ")
};

}  // namespace

TEST_CASE("kernel misuse is an error at the kernel's line", "[checks]") {
  const std::vector<Scenario> scenarios = {
      {"deque_empty", 3, "DeQue: TQue<A1> is empty"},
      {"enque_over_depth", 3, "EnQue: TQue<A1> is full: depth 1"},
      {"alloc_no_free", 3, "AllocTensor: no free buffer in TQue<B1>"},
      {"free_twice", 3, "FreeTensor: the tensor's buffer is free already"},
      {"too_many_events", 3, "FreeTensor: more than 8 event ids of HardEvent::M_MTE1 in use"},
      {"capacity", 3, "TPipe::InitBuffer: the buffer of 8192 bytes does not fit: L0A has 65536 bytes"},
      {"misaligned_tensor", 3, "LocalTensor(TPosition, addr, tileSize): address 16 is not 32-byte aligned"},
      {"tensor_past_end", 3,
       "LocalTensor(TPosition, addr, tileSize): bytes 32768..98304 run past the end of L0B"},
      {"second_tpipe", 3, "TPipe: a second TPipe while one is alive"},
      {"misaligned_operand", 3, "LoadData: dst (L0A offset 32) must be 512-byte aligned"},
      {"wrong_position", 3, "DataCopy: dst must be a tensor in L1, not L0A"},
      {"gm_not_allocated", 3, "DataCopy: the GlobalTensor's address is not inside a GmAlloc buffer"},
      {"get_value_range", 3, "LocalTensor::GetValue: index 16 is outside the tensor's 16 elements"},
      {"outside_kernel", 3, "TPipe: called outside a kernel"},
      {"too_many_blocks", 2, "ICPU_RUN_KF: the kernel launches 25 blocks but chip.cores = 24"},
      {"aiv_mode", 2, "SetKernelMode: AIV_MODE kernels run on the Vector cores"},
      {"gm_free_unknown", 3, "GmFree: the pointer was not returned by GmAlloc"},
      {"fixbuf_relu_tensor", 3,
       "SetFixPipeConfig: reluPre is reserved (the docs: not enabled yet): pass an empty LocalTensor"},
      {"fixbuf_src_not_l1", 3, "DataCopy (L1 -> fixpipe buffer): src must be a tensor in L1 (A1, B1 or C1)"},
      {"fixbuf_empty_copy", 3,
       "DataCopy (L1 -> fixpipe buffer): blockCount and blockLen (128-byte units) must not be 0"},
      {"fixbuf_past_l1", 3, "DataCopy (L1 -> fixpipe buffer): bytes 524160..524416 run past the end of L1"},
      {"write_past_end", 3, "Fixpipe: writes GM bytes [3584, 4608) beyond its 4096 bytes"},
  };
  for (const Scenario& s : scenarios) {
    TempDir dir;
    const Result r = run_kernel("misuse", s.name, {"--out=" + dir.file("out"), "-q"});
    const int line = line_of(kSource, std::string("// expect: ") + s.name);
    REQUIRE(line > 0);
    INFO(s.name << ": " << r.out << r.err);
    CHECK(r.status == s.status);
    CHECK(r.err.find("misuse.cpp:" + std::to_string(line) + ": error: " + s.message) != std::string::npos);
    CHECK(r.out.find("no error") == std::string::npos);  // the program stopped there
  }
}

TEST_CASE("a read past a GM buffer's end is a warning and reads zeros; the run goes on", "[checks]") {
  TempDir dir;
  const Result r = run_kernel("misuse", "read_past_end", {"--out=" + dir.file("out"), "-q"});
  const int line = line_of(kSource, "// expect: read_past_end");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const std::string warning =
      "misuse.cpp:" + std::to_string(line) +
      ": warning: DataCopy: reads GM bytes [0, 5120) of a 4096-byte buffer, 1024 bytes "
      "past its end: silicon reads whatever follows it in the buffer's device memory "
      "page; here those bytes are zeros (docs/ascendc.md)\n";
  CHECK(r.err.find(warning) != std::string::npos);
  CHECK(r.err.find(warning) == r.err.rfind(warning));  // once for the line, not per call
  CHECK(r.out.find("not zero") == std::string::npos);
  CHECK(r.out.find("misuse read_past_end: no error") != std::string::npos);
}

TEST_CASE("the simulation's faults name the kernel's lines", "[checks]") {
  {
    TempDir dir;
    const Result r = run_kernel("misuse", "deadlock", {"--out=" + dir.file("out"), "-q"});
    INFO(r.err);
    CHECK(r.status == 3);
    CHECK(r.err.find("deadlock at cycle") != std::string::npos);
    CHECK(r.err.find("misuse.cpp:" + std::to_string(line_of(kSource, "// expect: deadlock")) +
                     ": WaitFlag") != std::string::npos);
    CHECK(r.err.find("the simulation of kernel misuse failed (exit status 3)") != std::string::npos);
    CHECK(std::filesystem::exists(dir.file("out/misuse/stats.json")));
  }
  {
    TempDir dir;
    const Result r = run_kernel("misuse", "manual_m_mte1", {"--out=" + dir.file("out"), "-q"});
    const int line = line_of(kSource, "// expect: manual_m_mte1");
    INFO(r.err);
    CHECK(r.status == 3);
    // the first set is the TPipe's, one line up (the checker's program-order rule)
    CHECK(r.err.find("misuse.cpp:" + std::to_string(line) +
                     ": error: double SetFlag: SetFlag<M_MTE1>(0) sets the flag again with no WaitFlag of it "
                     "since the SetFlag at line " +
                     std::to_string(line - 1)) != std::string::npos);
  }
}

TEST_CASE("bad launch options end the program with exit status 2", "[checks]") {
  TempDir dir;
  const Result bad_key =
      run_kernel("misuse", "", {"--out=" + dir.file("out"), "--set=gm.read.bytes_per_cyle=3"});
  CHECK(bad_key.status == 2);
  CHECK(bad_key.err.find("bytes_per_cyle") != std::string::npos);
  CHECK(bad_key.err.find("bad launch options in $AICORE_SIM_ARGS") != std::string::npos);
  const Result bad_option = run_kernel("misuse", "", {"--instr-logg"});
  CHECK(bad_option.status == 2);
  CHECK(bad_option.err.find("did you mean '--instr-log'?") != std::string::npos);
}

TEST_CASE("every launch of a program gets its own directory", "[checks]") {
  TempDir dir;
  const Result r = run_kernel("misuse", "two_launches", {"--out=" + dir.file("out")});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("== launch misuse: 1 block(s)") != std::string::npos);
  CHECK(std::filesystem::exists(dir.file("out/misuse/stats.json")));
  CHECK(std::filesystem::exists(dir.file("out/misuse_2/stats.json")));
}
