// The small utilities (kernels/utils.cpp): IsSameType and the block-size constants, printf and
// PRINTF from the blocks of a launch, and a failed assert as an error at its line.
#include <catch2/catch.hpp>

#include "runner.hpp"

using namespace frontend_test;

TEST_CASE("IsSameType and the block-size constants are usable in a kernel", "[utils]") {
  TempDir dir;
  const Result r = run_kernel("utils", "traits", {"--out=" + dir.file("out"), "-q"});
  CHECK(r.status == 0);
  // int8 / half / float cells per 32-byte block, and the documented 32, 256, 16, 256.
  CHECK(r.out.find("[block 0] c0 32 16 8, blk 32 repeat 256 cube 16 max 256\n") != std::string::npos);
  CHECK(r.out.find("utils traits: done") != std::string::npos);
}

TEST_CASE("printf and PRINTF in a kernel print to stdout, each call naming its block", "[utils]") {
  TempDir dir;
  const Result r = run_kernel("utils", "printf", {"--out=" + dir.file("out"), "-q"});
  CHECK(r.status == 0);
  CHECK(r.out.find("[block 0] int -7 uint 40 hex ff str abc\n") != std::string::npos);
  CHECK(r.out.find("[block 1] int -14 uint 41 hex ff str abc\n") != std::string::npos);
  // A half argument prints as the float it holds.
  CHECK(r.out.find("[block 0] float 0.00 half 1.500\n") != std::string::npos);
  CHECK(r.out.find("[block 1] float 0.25 half 1.500\n") != std::string::npos);
  // printf with no argument after the format, unqualified, is C's printf: no block prefix.
  CHECK(r.out.find("\nplain\n") != std::string::npos);
  CHECK(r.out.find("] plain") == std::string::npos);
}

TEST_CASE("a failed assert in a kernel stops the launch with an error at its line", "[utils]") {
  TempDir dir;
  const Result r = run_kernel("utils", "assert", {"--out=" + dir.file("out"), "-q"});
  const int line =
      line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/utils.cpp", "// expect: assert");
  CHECK(r.status == 3);
  CHECK(r.err.find("utils.cpp:" + std::to_string(line) +
                   ": error: assert: assertion `blk + 1 == 3` failed: block 1 of 2") != std::string::npos);
  // Block 0 ran past both asserts; the launch stopped before the host main went on.
  CHECK(r.out.find("[block 0] after the asserts") != std::string::npos);
  CHECK(r.out.find("[block 1] after the asserts") == std::string::npos);
  CHECK(r.out.find("utils assert: done") == std::string::npos);
}

TEST_CASE("DumpTensor and DumpAccChkPoint print a tensor's elements as the kernel holds them", "[utils]") {
  TempDir dir;
  const Result r = run_kernel("utils", "dump", {"--out=" + dir.file("out"), "-q"});
  CHECK(r.status == 0);
  // GM int32 from element 2 of the buffer the host filled with 10 i - 30: bytes 8.. .
  CHECK(r.out.find("[block 0] DumpTensor: desc=7, addr=8, data_type=int32, position=GM, dump_size=4\n"
                   "[-10, 0, 10, 20]\n") != std::string::npos);
  // L1 at byte 256 after the DataCopy of the host's halves 0.5 i - 1.
  CHECK(r.out.find("[block 0] DumpTensor: desc=1, addr=256, data_type=float16, position=L1, dump_size=6\n"
                   "[-1.000000, -0.500000, 0.000000, 0.500000, 1.000000, 1.500000]\n") != std::string::npos);
  CHECK(r.out.find("desc=2, addr=256, data_type=float16, position=L1, dump_size=6\n"
                   "[[-1.000000, -0.500000, 0.000000],\n [0.500000, 1.000000, 1.500000]]\n") !=
        std::string::npos);
  CHECK(r.out.find("desc=3, addr=256, data_type=float16, position=L1, dump_size=4\n"
                   "(shape [2, 3] has 6 elements, not dump_size: printed as one list)\n"
                   "[-1.000000, -0.500000, 0.000000, 0.500000]\n") != std::string::npos);
  // DumpAccChkPoint from element 10: byte 256 + 20.
  CHECK(r.out.find("desc=4, addr=276, data_type=float16, position=L1, dump_size=2\n[4.000000, 4.500000]\n") !=
        std::string::npos);
}

TEST_CASE("DumpTensor in a timing-only run prints its header and says there is no data", "[utils]") {
  TempDir dir;
  const Result r = run_kernel("utils", "dump", {"--out=" + dir.file("out"), "-q", "--timing-only"});
  CHECK(r.status == 0);
  CHECK(r.out.find("desc=1, addr=256, data_type=float16, position=L1, dump_size=6\n"
                   "(no data: the run is timing-only)\n") != std::string::npos);
  CHECK(r.out.find("[-1.000000") == std::string::npos);
}

TEST_CASE("DumpTensor of L0A and a ShapeInfo of 9 dimensions are errors at their lines", "[utils]") {
  const std::string src = std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/utils.cpp";
  for (const std::string variant : {"dump_l0a", "dump_shape"}) {
    TempDir dir;
    const Result r = run_kernel("utils", variant, {"--out=" + dir.file("out"), "-q"});
    CHECK(r.status == 3);
    const std::string at = "utils.cpp:" + std::to_string(line_of(src, "// expect: " + variant)) + ": error: ";
    if (variant == "dump_l0a")
      CHECK(r.err.find(at +
                       "DumpTensor: the device dumps only UB, L1 (A1, B1, C1), L0C (CO1) and GM tensors") !=
            std::string::npos);
    else
      CHECK(r.err.find(at + "ShapeInfo: a shape has at most 8 dimensions, not 9") != std::string::npos);
  }
}
