#include "aicore/report/window.hpp"

#include <cctype>
#include <stdexcept>

namespace aicore::report {

namespace {

// Digits only: std::stoull would accept signs, spaces and hex prefixes silently.
uint64_t cycles_of(const std::string& s, const char* what, const std::string& text) {
  if (s.empty())
    throw std::invalid_argument("--window " + text + ": missing " + what + " (expected START:END in cycles)");
  uint64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw std::invalid_argument("--window " + text + ": " + what + " '" + s +
                                  "' is not a cycle count (expected START:END, decimal cycles)");
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      throw std::invalid_argument("--window " + text + ": " + what + " is too large");
    v = v * 10 + d;
  }
  return v;
}

}  // namespace

CycleWindow parse_window(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("--window " + text +
                                ": expected START:END in cycles (e.g. 1000:5000, or 1000: for to the end)");
  CycleWindow w;
  w.begin = cycles_of(text.substr(0, colon), "START", text);
  const std::string end = text.substr(colon + 1);
  if (!end.empty()) {
    w.end = cycles_of(end, "END", text);
    if (w.end <= w.begin)
      throw std::invalid_argument("--window " + text + ": END must be greater than START");
  }
  return w;
}

}  // namespace aicore::report
