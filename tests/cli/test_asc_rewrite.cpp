// The `<<<>>>` launch rewrite of `.asc` sources (src/cli/asc_rewrite.hpp): what it turns a launch
// into, that every line keeps its number, what it leaves alone, and its errors. The expected texts
// are written out by hand.
#include <catch2/catch.hpp>
#include <string>

#include "asc_rewrite.hpp"

using aicore::cli::rewrite_asc_launches;

namespace {
size_t lines(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += c == '\n';
  return n;
}
}  // namespace

TEST_CASE("asc rewrite: a launch becomes a call on the same line") {
  const auto r = rewrite_asc_launches("  k<<<8, nullptr, stream>>>(a, b);\n");
  REQUIRE(r.error.empty());
  CHECK(r.launches == 1);
  CHECK(r.text ==
        "  ::aicore::frontend::asc_kernel(k, \"k\", \"a, b\", __FILE__, __LINE__).launch(8, nullptr, "
        "stream)(a, b);\n");
}

TEST_CASE("asc rewrite: two launch parameters, template arguments, qualified names") {
  const auto r = rewrite_asc_launches("ns::mm<M, K><<<n, 0>>>(x);");
  REQUIRE(r.error.empty());
  CHECK(
      r.text ==
      "::aicore::frontend::asc_kernel(ns::mm<M, K>, \"ns::mm\", \"x\", __FILE__, __LINE__).launch(n, 0)(x);");
}

TEST_CASE("asc rewrite: newlines inside the brackets and the arguments stay where they were") {
  const std::string src =
      "int x;\n"
      "mm<16,\n"
      "   32><<<blocks,\n"
      "        nullptr, s>>>(a,\n"
      "                    b);\n"
      "int y;\n";
  const auto r = rewrite_asc_launches(src);
  REQUIRE(r.error.empty());
  CHECK(lines(r.text) == lines(src));
  CHECK(r.text ==
        "int x;\n"
        "::aicore::frontend::asc_kernel(mm<16,\n"
        "   32>, \"mm\", \"a,                     b\", __FILE__, __LINE__).launch(blocks,\n"
        "        nullptr, s)(a,\n"
        "                    b);\n"
        "int y;\n");
}

TEST_CASE("asc rewrite: comments, strings and shifts are left alone") {
  const std::string src =
      "// k<<<1, 0, s>>>(a);\n"
      "/* k<<<1, 0, s>>>(a); */\n"
      "const char* t = \"k<<<1, 0, s>>>(a)\";\n"
      "int v = (1 << 2) << 3;\n";
  const auto r = rewrite_asc_launches(src);
  REQUIRE(r.error.empty());
  CHECK(r.launches == 0);
  CHECK(r.text == src);
}

TEST_CASE("asc rewrite: errors name the line and column of the launch") {
  auto r = rewrite_asc_launches("int a;\n  k<<<4>>>(a);\n");
  CHECK(r.text.empty());
  CHECK(r.error ==
        "2:4: <<<...>>>: 1 launch parameter(s); aicore-sim takes <<<blockDim, l2ctrl[, stream]>>> (the Cube "
        "kernels' form; SIMT launches with thread counts need the Vector cores)");
  r = rewrite_asc_launches("k<<<1, 0, s>>>;\n");
  CHECK(r.error == "1:12: <<<...>>>: '(' and the kernel's arguments must follow '>>>'");
  r = rewrite_asc_launches("x = <<<1, 0>>>(a);\n");
  CHECK(r.error.rfind("1:5: <<<...>>>: no kernel name before '<<<'", 0) == 0);
  r = rewrite_asc_launches("k<<<1, 0, s(a);\n");
  CHECK(r.error == "1:2: <<<...>>>: no '>>>' closes this '<<<' before ';'");
}
