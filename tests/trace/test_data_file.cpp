// Tensor data files: .bin / .npy loading with the size check, writing, and .expect comparison.
#include <catch2/catch.hpp>

#include <cstring>

#include "aicore/trace/data_file.hpp"
#include "aicore/trace/npy.hpp"
#include "helpers.hpp"

using namespace aicore;
using namespace aicore::trace;
using Catch::Contains;
using Catch::EndsWith;
using Catch::StartsWith;
using trace_test::TempDir;

namespace {

GmDecl gm(const std::string& name, uint64_t size, const std::string& file) {
  GmDecl g;
  g.name = name;
  g.size = size;
  g.file = file;
  g.loc = SourceLoc{"k.trace", 3, 1};
  return g;
}

ExpectDecl expect(const std::string& file, isa::DType dtype) {
  ExpectDecl e;
  e.file = file;
  e.dtype = dtype;
  e.loc = SourceLoc{"k.trace", 9, 1};
  return e;
}

std::vector<uint8_t> int32s(const std::vector<int32_t>& v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<uint8_t> floats(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

}  // namespace

TEST_CASE("the seed's tensors load from the files the trace names", "[data]") {
  Reader r(trace_test::data_dir() + "/seed.trace");
  Statement s;
  std::vector<GmDecl> gms;
  while (r.next(s))
    if (s.kind == Statement::Kind::Gm) gms.push_back(s.gm);
  REQUIRE(gms.size() == 4);
  const auto a = load_tensor_file(gms[0]);
  REQUIRE(a.size() == 1024);
  for (size_t i = 0; i < a.size(); ++i) REQUIRE(a[i] == static_cast<uint8_t>(i * 7 + 3));
  CHECK(load_tensor_file(gms[1]).size() == 512);
  CHECK(load_tensor_file(gms[2]).size() == 128);
  CHECK(load_tensor_file(gms[3]) == std::vector<uint8_t>(1024, 0));  // no file: zero fill
}

TEST_CASE("a data file of the wrong size is an error at the .gm directive", "[data][errors]") {
  const std::string path = trace_test::data_dir() + "/a.bin";
  CHECK_THROWS_WITH(load_tensor_file(gm("a", 1000, path)), "k.trace:3:1: error: tensor 'a': data file '" +
                                                               path + "' holds 1024 bytes, expected 1000");
  CHECK_THROWS_WITH(load_tensor_file(gm("a", 2048, path)), EndsWith("holds 1024 bytes, expected 2048"));
  CHECK_THROWS_WITH(load_tensor_file(gm("a", 8, "/nonexistent/a.bin")),
                    "k.trace:3:1: error: tensor 'a': cannot load data file /nonexistent/a.bin: no such file");

  const std::string npy = trace_test::data_dir() + "/int32_2x3.npy";
  CHECK(load_tensor_file(gm("m", 24, npy)) == int32s({-3, -2, -1, 0, 1, 2}));
  CHECK_THROWS_WITH(load_tensor_file(gm("m", 32, npy)), "k.trace:3:1: error: tensor 'm': data file '" + npy +
                                                            "' holds 24 bytes of <i4 data, expected 32");
  TempDir dir;
  trace_test::write_bytes(dir.file("bad.NPY"), "not numpy at all");
  CHECK_THROWS_WITH(
      load_tensor_file(gm("m", 16, dir.file("bad.NPY"))),
      StartsWith("k.trace:3:1: error: tensor 'm': cannot load data file " + dir.file("bad.NPY") + ": ") &&
          Contains("bad magic"));
}

TEST_CASE("write_tensor_file writes raw bytes or a typed .npy", "[data]") {
  TempDir dir;
  const auto v = int32s({1, -2, 3, -4});
  write_tensor_file(dir.file("out/c.bin"), v.data(), v.size(), isa::DType::Int32);
  CHECK(trace_test::read_bytes(dir.file("out/c.bin")) == std::string(v.begin(), v.end()));

  struct Case {
    isa::DType dtype;
    const char* descr;
    uint64_t count;
  };
  const Case cases[] = {{isa::DType::Int8, "|i1", 16},
                        {isa::DType::Half, "<f2", 8},
                        {isa::DType::BF16, "<u2", 8},
                        {isa::DType::Int32, "<i4", 4},
                        {isa::DType::Float, "<f4", 4}};
  for (const auto& c : cases) {
    INFO(isa::to_string(c.dtype));
    write_tensor_file(dir.file("c.npy"), v.data(), v.size(), c.dtype);
    const NpyArray a = read_npy(dir.file("c.npy"));
    CHECK(a.descr == c.descr);
    CHECK(a.shape == std::vector<uint64_t>{c.count});
    CHECK(a.data == v);
  }
  CHECK_THROWS_WITH(write_tensor_file(dir.file("odd.npy"), v.data(), 6, isa::DType::Int32),
                    EndsWith("cannot save 6 bytes as int32 elements (not a whole number)"));
  trace_test::write_bytes(dir.file("file"), "x");
  CHECK_THROWS_AS(write_tensor_file(dir.file("file") + "/c.bin", v.data(), v.size(), isa::DType::Int8),
                  InputError);
}

TEST_CASE("compare_expect reports the count and the first differences", "[data][expect]") {
  TempDir dir;
  std::vector<int32_t> golden(100);
  for (int i = 0; i < 100; ++i) golden[static_cast<size_t>(i)] = i * 3 - 50;
  const auto g = int32s(golden);
  trace_test::write_bytes(dir.file("g.bin"), std::string(g.begin(), g.end()));
  const ExpectDecl e = expect(dir.file("g.bin"), isa::DType::Int32);

  CHECK_FALSE(compare_expect(e, g.data(), g.size()).has_value());

  std::vector<int32_t> actual = golden;
  for (int i = 10; i < 20; ++i) actual[static_cast<size_t>(i)] = -7;
  actual[99] = 123456789;
  const auto a = int32s(actual);
  const auto m = compare_expect(e, a.data(), a.size());
  REQUIRE(m.has_value());
  CHECK(m->count == 11);
  REQUIRE(m->first.size() == Mismatch::kMaxReported);
  CHECK(m->first[0] == std::make_tuple(uint64_t{10}, std::string("-20"), std::string("-7")));
  CHECK(m->first[7] == std::make_tuple(uint64_t{17}, std::string("1"), std::string("-7")));

  // The same file as int8: element-wise on bytes.
  const auto m8 = compare_expect(expect(dir.file("g.bin"), isa::DType::Int8), a.data(), a.size());
  REQUIRE(m8.has_value());
  CHECK(std::get<0>(m8->first[0]) == 40);
  CHECK(std::get<1>(m8->first[0]) == "-20");
  CHECK(std::get<2>(m8->first[0]) == "-7");

  // A golden .npy compares by payload.
  write_npy(dir.file("g.npy"), "<i4", {10, 10}, g.data(), g.size());
  CHECK_FALSE(compare_expect(expect(dir.file("g.npy"), isa::DType::Int32), g.data(), g.size()).has_value());

  // Size differences are input errors at the .expect directive.
  CHECK_THROWS_WITH(
      compare_expect(e, g.data(), 396),
      "k.trace:9:1: error: expected-result file '" + dir.file("g.bin") + "' holds 400 bytes, expected 396");
  CHECK_THROWS_WITH(compare_expect(e, g.data(), 398),
                    EndsWith("398 bytes is not a whole number of int32 elements"));
  CHECK_THROWS_WITH(
      compare_expect(expect(dir.file("none.bin"), isa::DType::Int32), g.data(), 400),
      StartsWith("k.trace:9:1: error: cannot load expected-result file") && EndsWith("no such file"));
}

TEST_CASE("compare_expect on floats is bit-exact and shows values", "[data][expect]") {
  TempDir dir;
  const auto g = floats({1.5f, 0.0f, 0.1f, -2.0f});
  trace_test::write_bytes(dir.file("f.bin"), std::string(g.begin(), g.end()));
  const auto a = floats({1.5f, -0.0f, 0.100000009f, -2.0f});
  const auto m = compare_expect(expect(dir.file("f.bin"), isa::DType::Float), a.data(), a.size());
  REQUIRE(m.has_value());
  CHECK(m->count == 2);
  REQUIRE(m->first.size() == 2);
  // +0 and -0 print differently already; values that print alike get their bits.
  CHECK(m->first[0] == std::make_tuple(uint64_t{1}, std::string("0"), std::string("-0")));
  CHECK(m->first[1] == std::make_tuple(uint64_t{2}, std::string("0.1"), std::string("0.10000001")));

  const auto nan1 = floats({std::numeric_limits<float>::quiet_NaN()});
  std::vector<uint8_t> nan2 = nan1;
  nan2[0] ^= 1;  // another NaN payload
  trace_test::write_bytes(dir.file("n.bin"), std::string(nan1.begin(), nan1.end()));
  const auto mn = compare_expect(expect(dir.file("n.bin"), isa::DType::Float), nan2.data(), 4);
  REQUIRE(mn.has_value());
  CHECK(std::get<1>(mn->first[0]) == "nan (0x7FC00000)");
  CHECK(std::get<2>(mn->first[0]) == "nan (0x7FC00001)");
}

TEST_CASE("format_element renders each dtype", "[data]") {
  const uint8_t half_one[2] = {0x00, 0x3C}, half_min_sub[2] = {0x01, 0x80}, half_inf[2] = {0x00, 0x7C};
  CHECK(format_element(isa::DType::Half, half_one) == "1");
  CHECK(format_element(isa::DType::Half, half_min_sub) == "-5.9604645e-08");
  CHECK(format_element(isa::DType::Half, half_inf) == "inf");
  const uint8_t bf[2] = {0xC0, 0x3F};
  CHECK(format_element(isa::DType::BF16, bf) == "1.5");
  const uint8_t i8 = 0xFF;
  CHECK(format_element(isa::DType::Int8, &i8) == "-1");
  const uint8_t i32[4] = {0x00, 0x00, 0x00, 0x80};
  CHECK(format_element(isa::DType::Int32, i32) == "-2147483648");
  CHECK(is_npy_path("x.npy"));
  CHECK(is_npy_path("dir/X.NPY"));
  CHECK_FALSE(is_npy_path("x.bin"));
  CHECK_FALSE(is_npy_path("npy"));
}

TEST_CASE("the shape of a mismatch: shape=, else a .npy golden's own, else 1-D", "[data][expect][shape]") {
  TempDir dir;
  const std::vector<uint8_t> zeros(64, 0);
  std::vector<uint8_t> one = zeros;
  one[20] = 1;  // int32 element 5
  trace_test::write_bytes(dir.file("g.bin"), std::string(one.begin(), one.end()));
  ExpectDecl e = expect(dir.file("g.bin"), isa::DType::Int32);
  CHECK(compare_expect(e, zeros.data(), zeros.size())->shape == std::vector<uint64_t>{16});
  CHECK(compare_expect(e, zeros.data(), zeros.size())->elements == 16);
  e.shape = {4, 4};
  CHECK(compare_expect(e, zeros.data(), zeros.size())->shape == std::vector<uint64_t>{4, 4});
  write_npy(dir.file("g.npy"), "<i4", {2, 8}, one.data(), one.size());
  CHECK(compare_expect(expect(dir.file("g.npy"), isa::DType::Int32), zeros.data(), zeros.size())->shape ==
        std::vector<uint64_t>{2, 8});
  // The same .npy read as int8 holds 64 elements, not 2 x 8: its header does not apply.
  CHECK(compare_expect(expect(dir.file("g.npy"), isa::DType::Int8), zeros.data(), zeros.size())->shape ==
        std::vector<uint64_t>{64});
}

TEST_CASE("index_text and shape_text", "[data][shape]") {
  CHECK(index_text(5, {16}).empty());
  CHECK(index_text(5, {4, 4}) == "(row 1, col 1)");
  CHECK(index_text(15, {4, 4}) == "(row 3, col 3)");
  CHECK(index_text(13, {2, 2, 4}) == "(1, 1, 1)");
  CHECK(shape_text({16, 16}) == "16 x 16");
  CHECK(shape_text({7}) == "7");
}

TEST_CASE("write_tensor_file writes the given shape into a .npy", "[data][shape]") {
  TempDir dir;
  const std::vector<uint8_t> v(48, 1);
  write_tensor_file(dir.file("c.npy"), v.data(), v.size(), isa::DType::Int32, {3, 4});
  CHECK(read_npy(dir.file("c.npy")).shape == std::vector<uint64_t>{3, 4});
  CHECK_THROWS_WITH(write_tensor_file(dir.file("d.npy"), v.data(), v.size(), isa::DType::Int32, {5, 4}),
                    EndsWith("cannot save 12 int32 elements as 5 x 4"));
}
