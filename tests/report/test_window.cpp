// --window START:END parsing: accepted forms and every rejection's message.
#include <catch2/catch.hpp>

#include "aicore/report/window.hpp"

using aicore::report::CycleWindow;
using aicore::report::parse_window;
using Catch::Matchers::Contains;

TEST_CASE("parse_window accepts START:END and START:", "[report][window]") {
  const CycleWindow w = parse_window("100:250");
  CHECK(w.begin == 100);
  CHECK(w.end == 250);
  CHECK(!w.whole());
  const CycleWindow open = parse_window("7:");
  CHECK(open.begin == 7);
  CHECK(open.end == UINT64_MAX);
  CHECK(parse_window("0:").whole());
}

TEST_CASE("parse_window rejects malformed windows with a message", "[report][window]") {
  const std::pair<const char*, const char*> bad[] = {
      {"", "expected START:END"},
      {"12", "expected START:END"},
      {":9", "missing START"},
      {"a:9", "START 'a' is not a cycle count"},
      {"1:0x10", "END '0x10' is not"},
      {"+1:5", "START '+1' is not"},
      {" 1:5", "START ' 1' is not"},
      {"9:9", "END must be greater than START"},
      {"9:3", "END must be greater"},
      {"1:2:3", "END '2:3' is not"},
      {"18446744073709551616:", "START is too large"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    CHECK_THROWS_WITH(parse_window(text), Contains(message) && Contains(std::string("--window ") + text));
  }
}

TEST_CASE("a window shows intervals that overlap it, and zero-length ones inside it", "[report][window]") {
  const CycleWindow w{10, 20};
  CHECK(w.shows(10, 11));
  CHECK(w.shows(5, 11));
  CHECK(!w.shows(5, 10));  // ends as the window begins
  CHECK(w.shows(19, 30));
  CHECK(!w.shows(20, 30));  // END is exclusive
  CHECK(w.shows(15, 15));
  CHECK(!w.shows(9, 9));
}
