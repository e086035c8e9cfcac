// .npy reading and writing: round trips, NumPy's exact bytes, and every malformed-file error.
#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>

#include "aicore/trace/npy.hpp"
#include "helpers.hpp"

using namespace aicore;
using namespace aicore::trace;
using Catch::Contains;
using Catch::EndsWith;
using Catch::StartsWith;
using trace_test::TempDir;

namespace {

// A .npy file with the given version and header text (padded as NumPy pads) followed by `data`.
std::string npy_bytes(const std::string& header, const std::string& data, int major = 1) {
  const size_t preamble = major == 1 ? 10 : 12;
  std::string h = header;
  h += std::string((64 - (preamble + h.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < preamble - 8; ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xFF);
  return out + h + data;
}

std::string header(const std::string& descr, const std::string& shape, const char* order = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }";
}

// The message read_npy gives for a file with these bytes.
std::string npy_error(const TempDir& dir, const std::string& bytes) {
  const std::string path = dir.file("bad.npy");
  trace_test::write_bytes(path, bytes);
  try {
    read_npy(path);
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, StartsWith(path + ": error: "));
    return e.message();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("npy round trip for every supported dtype and shape", "[npy]") {
  TempDir dir;
  struct Case {
    const char* descr;
    const char* canonical;
    uint32_t item;
  };
  const Case cases[] = {{"|i1", "|i1", 1}, {"|u1", "|u1", 1}, {"|b1", "|b1", 1}, {"<i2", "<i2", 2},
                        {"<u2", "<u2", 2}, {"<f2", "<f2", 2}, {"<i4", "<i4", 4}, {"<u4", "<u4", 4},
                        {"<f4", "<f4", 4}, {"<f8", "<f8", 8}, {"<i8", "<i8", 8}, {"<u8", "<u8", 8},
                        {"i4", "<i4", 4},  {"=f4", "<f4", 4}, {"<i1", "|i1", 1}, {"u1", "|u1", 1}};
  const std::vector<std::vector<uint64_t>> shapes = {{}, {0}, {7}, {3, 5}, {2, 1, 3}};
  for (const auto& c : cases) {
    CHECK(npy_item_size(c.descr) == c.item);
    CHECK(npy_canonical_descr(c.descr) == c.canonical);
    for (const auto& shape : shapes) {
      uint64_t n = 1;
      for (auto d : shape) n *= d;
      std::vector<uint8_t> data(n * c.item);
      for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 31 + 7);
      if (std::string(c.canonical) == "|b1")
        for (auto& b : data) b &= 1;
      const std::string path = dir.file("rt.npy");
      write_npy(path, c.descr, shape, data.data(), data.size());
      const std::string bytes = trace_test::read_bytes(path);
      CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
      CHECK((bytes.size() - data.size()) % 64 == 0);  // data aligned as NumPy aligns it
      const NpyArray a = read_npy(path);
      INFO(c.descr << " rank " << shape.size());
      CHECK(a.descr == c.canonical);
      CHECK(a.shape == shape);
      CHECK(a.data == data);
    }
  }
  CHECK(npy_item_size("<c8") == 0);
  CHECK(npy_item_size(">i4") == 0);
  CHECK(npy_canonical_descr(">i1") == "|i1");  // byte order is meaningless for one byte
  CHECK(npy_descr(isa::DType::Int8) == "|i1");
  CHECK(npy_descr(isa::DType::Half) == "<f2");
  CHECK(npy_descr(isa::DType::BF16) == "<u2");
  CHECK(npy_descr(isa::DType::Int32) == "<i4");
  CHECK(npy_descr(isa::DType::Float) == "<f4");
}

TEST_CASE("npy files as NumPy and other tools write them", "[npy]") {
  const std::string dir = trace_test::data_dir();
  const NpyArray a = read_npy(dir + "/int32_2x3.npy");
  CHECK(a.descr == "<i4");
  CHECK(a.shape == std::vector<uint64_t>{2, 3});
  REQUIRE(a.data.size() == 24);
  for (int i = 0; i < 6; ++i) {
    int32_t v;
    std::memcpy(&v, a.data.data() + 4 * i, 4);
    CHECK(v == i - 3);
  }
  // Writing the same array gives NumPy's bytes exactly.
  TempDir tmp;
  write_npy(tmp.file("same.npy"), "<i4", {2, 3}, a.data.data(), a.data.size());
  CHECK(trace_test::read_bytes(tmp.file("same.npy")) == trace_test::read_bytes(dir + "/int32_2x3.npy"));

  // Format 2.0, double quotes, keys in another order.
  const NpyArray f = read_npy(dir + "/float_v2.npy");
  CHECK(f.descr == "<f4");
  CHECK(f.shape == std::vector<uint64_t>{4});
  REQUIRE(f.data.size() == 16);
  float v[4];
  std::memcpy(v, f.data.data(), 16);
  CHECK(v[0] == 1.5f);
  CHECK(v[1] == -2.0f);
  CHECK(v[3] == 1e30f);

  // Format 3.0, Python 2 long dimensions, no trailing comma, no spaces.
  trace_test::write_bytes(tmp.file("v3.npy"),
                          npy_bytes("{'descr':'|u1','fortran_order':False,'shape':(2L,1L)}", "ab", 3));
  const NpyArray g = read_npy(tmp.file("v3.npy"));
  CHECK(g.shape == std::vector<uint64_t>{2, 1});
  CHECK(g.data == std::vector<uint8_t>{'a', 'b'});
}

TEST_CASE("every malformed npy file is an InputError naming the file", "[npy][errors]") {
  TempDir dir;
  const std::string four(4, '\0');
  CHECK_THAT(npy_error(dir, "short"), Contains("not a .npy file (only 5 bytes)"));
  CHECK_THAT(npy_error(dir, "\x93NUMPZ\x01\x00\x10\x00" + std::string(16, ' ')), Contains("bad magic"));
  CHECK_THAT(npy_error(dir, "PK\x03\x04 this is a zip file"), Contains("bad magic"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1,)"), four).replace(6, 1, "\x04")),
             Contains("unsupported .npy format version 4.0"));
  CHECK_THAT(npy_error(dir, std::string("\x93NUMPY\x01\x00\xff\x7f", 10) + "{'descr'"),
             Contains("truncated .npy header: it claims 32767 bytes, the file has 8"));
  CHECK_THAT(npy_error(dir, std::string("\x93NUMPY\x02\x00\x00\x00\x00\x10", 12) + "x"),
             Contains("implausibly large"));
  CHECK_THAT(npy_error(dir, npy_bytes("[1, 2, 3]", "")), Contains("bad .npy header at byte 0: expected '{'"));
  CHECK_THAT(npy_error(dir, npy_bytes("{'descr': '<i4', 'fortran_order': False}", four)),
             Contains("missing key 'shape'"));
  CHECK_THAT(npy_error(dir, npy_bytes("{'descr': '<i4', 'shape': (1,)}", four)),
             Contains("missing key 'fortran_order'"));
  CHECK_THAT(
      npy_error(dir, npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'extra': 1}", four)),
      Contains("unexpected key 'extra'"));
  CHECK_THAT(
      npy_error(dir,
                npy_bytes("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,)}", four)),
      Contains("duplicate key 'descr'"));
  CHECK_THAT(npy_error(dir, npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)", four)),
             Contains("expected '}'"));
  CHECK_THAT(npy_error(dir, npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)} junk", four)),
             Contains("unexpected text after the dictionary"));
  CHECK_THAT(npy_error(dir, npy_bytes("{'descr: '<i4'", four)), Contains("bad .npy header"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1,)", "True"), four)),
             Contains("Fortran-order arrays are not supported"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1,)", "maybe"), four)),
             Contains("expected True or False"));
  CHECK_THAT(npy_error(dir, npy_bytes(header(">i4", "(1,)"), four)),
             Contains("big-endian data ('>i4') is not supported"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<c8", "(1,)"), four)), Contains("unsupported dtype '<c8'"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("|O", "(1,)"), four)), Contains("unsupported dtype '|O'"));
  CHECK_THAT(
      npy_error(dir, npy_bytes("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}", four)),
      Contains("structured dtypes are not supported"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(-1,)"), four)), Contains("negative dimension"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1.5,)"), four)), Contains("expected ','"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(a,)"), four)),
             Contains("expected a non-negative integer"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(99999999999999999999999,)"), four)),
             Contains("dimension too large"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(4294967296, 4294967296)"), four)),
             Contains("is too large"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(2, 3)"), std::string(20, 'x'))),
             Contains("truncated .npy data: shape (2, 3) of <i4 needs 24 bytes, the file holds 20"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1,)"), std::string(6, 'x'))),
             Contains("2 unexpected bytes after the .npy data"));
  CHECK_THAT(npy_error(dir, npy_bytes(header("<i4", "(1,)"), four).replace(20, 1, 1, '\0')),
             Contains("bad .npy header"));

  CHECK_THROWS_WITH(read_npy(dir.file("missing.npy")), EndsWith("missing.npy: error: no such file"));
  CHECK_THROWS_WITH(read_npy(dir.path().string()), EndsWith("is a directory, not a file"));
}

TEST_CASE("write_npy rejects misuse and unwritable paths", "[npy][errors]") {
  TempDir dir;
  const uint8_t data[8] = {};
  CHECK_THROWS_AS(write_npy(dir.file("x.npy"), "<c8", {1}, data, 8), std::invalid_argument);
  CHECK_THROWS_AS(write_npy(dir.file("x.npy"), "<i4", {3}, data, 8), std::invalid_argument);
  CHECK_THROWS_AS(write_npy(dir.file("x.npy"), "<i4", std::vector<uint64_t>(65, 1), data, 4),
                  std::invalid_argument);
  // A parent "directory" that is a file.
  trace_test::write_bytes(dir.file("plain"), "x");
  CHECK_THROWS_AS(write_npy(dir.file("plain") + "/x.npy", "<i4", {2}, data, 8), InputError);
  // Missing parent directories are created.
  write_npy(dir.file("a/b/c.npy"), "|u1", {8}, data, 8);
  CHECK(read_npy(dir.file("a/b/c.npy")).data.size() == 8);
}
