#include "aicore/common/read_capped.hpp"

#include <algorithm>

namespace aicore {

std::string read_capped(std::istream& in, size_t cap) {
  constexpr size_t kChunk = size_t{1} << 16;
  std::string text;
  while (text.size() <= cap && in) {
    const size_t at = text.size();
    const size_t want = std::min(kChunk, cap + 1 - at);
    text.resize(at + want);
    in.read(&text[at], static_cast<std::streamsize>(want));
    text.resize(at + static_cast<size_t>(in.gcount()));
  }
  return text;
}

}  // namespace aicore
