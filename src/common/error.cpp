#include "aicore/common/error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace aicore {

std::string SourceLoc::str() const {
  std::string s = file.empty() ? std::string("<input>") : file;
  if (line) {
    s += ":" + std::to_string(line);
    if (column) s += ":" + std::to_string(column);
  }
  return s;
}

InputError::InputError(SourceLoc loc, const std::string& message)
    : std::runtime_error(loc.str() + ": error: " + message), loc_(std::move(loc)), message_(message) {}

const char* to_string(FaultKind k) {
  switch (k) {
    case FaultKind::Misaligned:
      return "misaligned operand";
    case FaultKind::OutOfBounds:
      return "out-of-bounds access";
    case FaultKind::InvalidField:
      return "invalid field";
    case FaultKind::InvalidSparseIndex:
      return "invalid sparse index";
    case FaultKind::InvalidQuantWord:
      return "invalid quantisation word";
    case FaultKind::Unsupported:
      return "unsupported mode";
    case FaultKind::IllegalEvent:
      return "illegal event pair";
    case FaultKind::Deadlock:
      return "deadlock";
  }
  return "fault";
}

namespace {
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      // Case differences cost little: "datacopy" should suggest "DataCopy".
      const bool same = a[i - 1] == b[j - 1];
      const bool same_ci = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                           std::tolower(static_cast<unsigned char>(b[j - 1]));
      const size_t sub = same ? 0 : (same_ci ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string nearest_word(const std::string& word, const std::string* candidates, size_t count) {
  std::string best;
  size_t best_d = SIZE_MAX;
  for (size_t i = 0; i < count; ++i) {
    const size_t d = edit_distance(word, candidates[i]);
    if (d < best_d) {
      best_d = d;
      best = candidates[i];
    }
  }
  // Only suggest when the word is plausibly a misspelling (at most a third of it differs).
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_d <= limit ? best : std::string();
}

}  // namespace aicore
