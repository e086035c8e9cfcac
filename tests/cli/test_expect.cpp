// .expect mismatches name (row, col) of 2-D tensors and leave the tensor the run produced next
// to the outputs, in the expected file's format; .out and .expect take shape=, validated against
// the tensor's size.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

namespace {

using test_support::slurp;

// A version-1.0 .npy of int32 values with the given shape text ("(4, 4)"), written here so the
// test does not depend on the code under test.
std::string npy_i4(const std::string& shape, const std::string& payload) {
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string s = "\x93NUMPY\x01";
  s += '\0';
  s += static_cast<char>(header.size() & 0xFF);
  s += static_cast<char>(header.size() >> 8);
  return s + header + payload;
}

// The shape a .npy file's header gives, as written: "(16, 16)".
std::string npy_shape_text(const std::string& file) {
  const std::string s = slurp(file);
  const size_t at = s.find("'shape': ");
  if (at == std::string::npos) return "";
  return s.substr(at + 9, s.find(')', at) - at - 8);
}

std::string int32s(std::initializer_list<std::pair<size_t, int>> set, size_t count) {
  std::string b(count * 4, '\0');
  for (const auto& [i, v] : set) b[i * 4] = static_cast<char>(v);
  return b;
}

const char* kTrace4x4 = ".gm c size=64\n.expect c file=want.bin dtype=int32 shape=4,4\n";

}  // namespace

TEST_CASE("expect: a 2-D mismatch names row and column and writes the actual tensor", "[cli][expect]") {
  TempDir d;
  d.write("want.bin", int32s({{5, 7}, {14, 9}}, 16));
  const auto r = harness::run_trace(d, kTrace4x4);
  CHECK(r.status == 1);
  const std::string actual = d.file("out/c.actual.bin");
  CHECK_THAT(r.err, Contains("t.trace:2:1: error: tensor c differs from " + d.file("want.bin") +
                             " in 2 of 16 int32 elements (shape 4 x 4); the tensor the run produced is in " +
                             actual + "\n"));
  CHECK_THAT(r.err, Contains("  [5] (row 1, col 1) expected 7, got 0\n") &&
                        Contains("  [14] (row 3, col 2) expected 9, got 0\n"));
  CHECK(slurp(actual) == std::string(64, '\0'));  // what the run left in c: raw, like want.bin
  CHECK_THAT(r.out, Contains("wrote " + actual + "\n"));
  CHECK(harness::stats(d)["status"] == "mismatch");
}

TEST_CASE("expect: a .npy golden gives the shape and the actual tensor is a .npy of it", "[cli][expect]") {
  TempDir d;
  d.write("want.npy", npy_i4("(2, 8)", int32s({{9, 3}}, 16)));
  const auto r = harness::run_trace(d, ".gm c size=64\n.expect c file=want.npy dtype=int32\n");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Contains("(shape 2 x 8)") && Contains("  [9] (row 1, col 1) expected 3, got 0"));
  const std::string actual = d.file("out/c.actual.npy");
  CHECK_THAT(r.err, Contains("the tensor the run produced is in " + actual));
  CHECK(npy_shape_text(actual) == "(2, 8)");
  CHECK_THAT(slurp(actual), Contains("'descr': '<i4'"));
  // shape= on the .expect wins over the golden's header; a header of another element count is ignored.
  d.write("t2.trace", ".gm c size=64\n.expect c file=want.npy dtype=int32 shape=4,4\n");
  auto r2 = harness::run("run " + d.file("t2.trace") + " --out " + d.file("out2"));
  CHECK_THAT(r2.err, Contains("(shape 4 x 4)") && Contains("[9] (row 2, col 1)"));
  CHECK(npy_shape_text(d.file("out2/c.actual.npy")) == "(4, 4)");
  d.write("t3.trace", ".gm c size=64\n.expect c file=want.npy dtype=int8\n");
  r2 = harness::run("run " + d.file("t3.trace") + " --out " + d.file("out3"));
  CHECK(r2.status == 1);
  CHECK_THAT(r2.err, Contains("in 1 of 64 int8 elements;") && Contains("  [36] expected 3, got 0"));
}

TEST_CASE("expect: 1-D and 3-D indexes", "[cli][expect]") {
  TempDir d;
  d.write("want.bin", int32s({{13, 1}}, 16));
  auto r = harness::run_trace(d, ".gm c size=64\n.expect c file=want.bin dtype=int32\n");
  CHECK_THAT(r.err, Contains("in 1 of 16 int32 elements;") && Contains("  [13] expected 1, got 0"));
  r = harness::run_trace(d, ".gm c size=64\n.expect c file=want.bin shape=2,2,4\n");
  CHECK_THAT(r.err, Contains("(shape 2 x 2 x 4)") && Contains("  [13] (1, 1, 1) expected 1, got 0"));
}

TEST_CASE("out: shape= gives the .npy its real shape", "[cli][out]") {
  TempDir d;
  d.write("a.bin", std::string(1024, '\x02'));
  const auto r = harness::run_trace(d,
                                    ".gm a size=1024 file=a.bin\n"
                                    ".out a file=a16.npy dtype=int32 shape=16,16\n"
                                    ".out a file=flat.npy dtype=int32\n"
                                    ".out a file=a.bin.out shape=32,32\n");
  REQUIRE(r.status == 0);
  CHECK(npy_shape_text(d.file("out/a16.npy")) == "(16, 16)");
  CHECK(npy_shape_text(d.file("out/flat.npy")) == "(256,)");
  CHECK(slurp(d.file("out/a.bin.out")) == std::string(1024, '\x02'));  // raw: the shape only checks
  CHECK_THAT(r.out, Contains("wrote " + d.file("out/a16.npy")));
}

TEST_CASE("shape= errors exit 2 at the field's column", "[cli][expect][out][errors]") {
  struct Case {
    const char* line;
    const char* message;
  };
  const Case cases[] = {
      {".expect c file=w.bin shape=4,3",
       "t.trace:2:28: error: shape '4,3' is 12 int32 elements (48 bytes), but tensor 'c' has 64 bytes (16 "
       "elements)"},
      {".out c file=w.npy shape=16,16",  // int8 by default: 256 bytes
       "t.trace:2:25: error: shape '16,16' is 256 int8 elements (256 bytes), but tensor 'c' has 64 bytes (64 "
       "elements)"},
      {".expect c file=w.bin shape=4,0,4", "t.trace:2:30: error: shape dimension must be greater than 0"},
      {".expect c file=w.bin shape=4,,4",
       "t.trace:2:30: error: shape '4,,4' is not a list of dimensions: write shape=ROWS,COLS (e.g. "
       "shape=16,16)"},
      {".expect c file=w.bin shape=4,4,", "t.trace:2:32: error: shape '4,4,' is not a list of dimensions"},
      {".expect c file=w.bin shape=4x4", "t.trace:2:28: error: malformed number '4x4' for shape dimension"},
      {".expect c file=w.bin shape=1,1,1,1,1,1,1,1,16",
       "t.trace:2:44: error: shape has more than 8 dimensions"},
      {".expect c file=w.bin shape=4294967296,4294967296,4294967296",
       "t.trace:2:28: error: shape '4294967296,4294967296,4294967296' is too many int32 elements, but "
       "tensor"},
      {".expect c file=w.bin shpe=4,4", "t.trace:2:22: error: unknown key 'shpe'"},
  };
  for (const auto& c : cases) {
    TempDir d;
    const auto r = harness::run_trace(d, std::string(".gm c size=64\n") + c.line + "\n");
    INFO(c.line << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(c.message));
  }
}
