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
