#include "lexer.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>

namespace aicore::trace::detail {

namespace {
constexpr size_t kChunkBytes = size_t{1} << 16;
constexpr size_t kMaxEcho = 48;         // longest user text quoted in a message
constexpr size_t kMaxSuggestWord = 64;  // longer words are not misspellings of anything

// The line scan, 8 bytes per step: a mask with the top bit of every byte of x that is zero, or
// below n (n <= 0x80; for bytes below 0x80), or not ASCII. Only its lowest set bit is exact (a
// borrow may set bits above it), which is all the scan uses: the first such byte.
constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
constexpr uint64_t zero_bytes(uint64_t x) {
  return (x - kOnes) & ~x & kHighs;
}
constexpr uint64_t bytes_below(uint64_t x, uint8_t n) {
  return (x - kOnes * n) & ~x & kHighs;
}
// Eight bytes, the first in the low byte whatever the host's byte order.
uint64_t load8(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, sizeof x);
  if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) x = __builtin_bswap64(x);
  return x;
}
size_t first_marked(uint64_t mask) {
  return static_cast<size_t>(__builtin_ctzll(mask)) / 8;
}

std::string hex_byte(int c) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%02X", static_cast<unsigned>(c) & 0xFFu);
  return b;
}

// Incremental UTF-8 validator (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF).
class Utf8Check {
 public:
  // false if the byte cannot occur here.
  bool feed(int c) {
    if (need_ == 0) {
      if (c < 0x80) return true;
      lo_ = 0x80;
      hi_ = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        need_ = 1;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need_ = 2;
        if (c == 0xE0) lo_ = 0xA0;
        if (c == 0xED) hi_ = 0x9F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        need_ = 3;
        if (c == 0xF0) lo_ = 0x90;
        if (c == 0xF4) hi_ = 0x8F;
      } else {
        return false;
      }
      return true;
    }
    if (c < lo_ || c > hi_) return false;
    lo_ = 0x80;
    hi_ = 0xBF;
    --need_;
    return true;
  }
  bool complete() const { return need_ == 0; }

 private:
  int need_ = 0, lo_ = 0x80, hi_ = 0xBF;
};
}  // namespace

LineSource::LineSource(std::istream& in, std::string file)
    : in_(in), file_(std::move(file)), buf_(kChunkBytes) {}

bool LineSource::refill() {
  if (!in_.good()) {
    if (in_.bad()) throw InputError(SourceLoc{file_, line_, 0}, "read error");
    return false;
  }
  in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  if (in_.bad()) throw InputError(SourceLoc{file_, line_, 0}, "read error");
  pos_ = 0;
  end_ = static_cast<size_t>(in_.gcount());
  // A UTF-8 byte-order mark is not part of the first line.
  if (first_fill_ && end_ >= 3 && static_cast<unsigned char>(buf_[0]) == 0xEF &&
      static_cast<unsigned char>(buf_[1]) == 0xBB && static_cast<unsigned char>(buf_[2]) == 0xBF)
    pos_ = 3;
  first_fill_ = false;
  return pos_ < end_;
}

void LineSource::fail(uint64_t column, const std::string& msg) const {
  const uint64_t max = std::numeric_limits<uint32_t>::max();
  throw InputError(SourceLoc{file_, line_, static_cast<uint32_t>(std::min(column, max))}, msg);
}

bool LineSource::next(std::string& code) {
  code.clear();
  if (pos_ == end_ && !refill()) return false;
  if (line_ == std::numeric_limits<uint32_t>::max())
    throw InputError(SourceLoc{file_, line_, 0}, "too many lines (more than 4294967295)");
  ++line_;
  uint64_t column = 0;
  // Fast path: printable ASCII code is copied a run at a time. Anything else (end of line,
  // '#', control bytes, UTF-8) goes through the byte-by-byte checks below.
  static const std::array<bool, 256> plain = [] {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x7F; ++c) t[c] = c != '#';
    t['\t'] = t['\r'] = true;
    return t;
  }();
  for (;;) {
    size_t i = pos_;
    const char* b = buf_.data();
    // Eight bytes at a time up to the first one that is not printable ASCII or is '#' (a tab or
    // CR among them is plain after all: step over it and go on).
    while (i + 8 <= end_) {
      const uint64_t x = load8(b + i);
      const uint64_t stop = (x & kHighs) | bytes_below(x, 0x20) | zero_bytes(x ^ (kOnes * 0x7F)) |
                            zero_bytes(x ^ (kOnes * '#'));
      if (!stop) {
        i += 8;
        continue;
      }
      i += first_marked(stop);
      if (!plain[static_cast<unsigned char>(b[i])]) break;
      ++i;
    }
    while (i < end_ && plain[static_cast<unsigned char>(b[i])]) ++i;
    const size_t n = std::min(i - pos_, kMaxCodeBytes - code.size());
    code.append(buf_.data() + pos_, n);
    column += n;
    pos_ += n;
    if (pos_ < end_ || code.size() >= kMaxCodeBytes) break;
    if (!refill()) return true;  // the last line has no terminator
  }
  Utf8Check utf8;
  bool comment = false;
  uint64_t lead_column = column;
  for (int c = get(); c >= 0 && c != '\n'; c = get()) {
    ++column;
    if (c == 0) fail(column, "NUL byte in the trace (is this a binary file?)");
    if (utf8.complete()) lead_column = column;
    if (!utf8.feed(c)) fail(column, "invalid UTF-8 byte " + hex_byte(c));
    if (comment) continue;
    if (c == '#') {
      comment = true;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F)
      fail(column, "unexpected control character " + hex_byte(c));
    if (code.size() >= kMaxCodeBytes)
      fail(column,
           "line is too long (more than " + std::to_string(kMaxCodeBytes) + " bytes before any comment)");
    code.push_back(static_cast<char>(c));
  }
  if (!utf8.complete()) fail(lead_column, "invalid UTF-8: the line ends inside a multi-byte character");
  return true;
}

void split_tokens(std::string_view code, std::vector<Token>& out) {
  out.clear();
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  const char* p = code.data();
  const size_t n = code.size();
  size_t i = 0;
  while (i < n) {
    while (i < n && is_space(p[i])) ++i;
    const size_t start = i;
    while (i < n && !is_space(p[i])) ++i;
    if (i > start)
      out.push_back(Token{std::string_view(p + start, i - start), static_cast<uint32_t>(start + 1)});
  }
}

std::string quote(std::string_view s) {
  if (s.size() <= kMaxEcho) return "'" + std::string(s) + "'";
  size_t cut = kMaxEcho;
  // Do not cut a UTF-8 sequence in half.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(s.substr(0, cut)) + "...' (" + std::to_string(s.size()) + " bytes)";
}

std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > kMaxSuggestWord) return "";
  const std::string best = nearest_word(std::string(word), candidates);
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

KeyValue split_key_value(const Token& t, const LineContext& ctx) {
  const size_t eq = t.text.find('=');
  if (eq == std::string_view::npos)
    ctx.fail(t.column, "expected KEY=VALUE, got " + quote(t.text) + " (no spaces around '=')");
  KeyValue kv;
  kv.key = t.text.substr(0, eq);
  kv.value = t.text.substr(eq + 1);
  kv.key_column = t.column;
  kv.value_column = t.column + static_cast<uint32_t>(eq) + 1;
  if (kv.key.empty()) ctx.fail(t.column, "missing key before '=' in " + quote(t.text));
  if (kv.value.empty()) ctx.fail(kv.value_column, "missing value for " + quote(kv.key));
  return kv;
}

void collect_fields(const Token* begin, const Token* end, const std::vector<std::string>& keys,
                    const char* owner, const LineContext& ctx, std::vector<KeyValue>& pairs,
                    std::vector<const KeyValue*>& slots) {
  pairs.clear();
  pairs.reserve(static_cast<size_t>(end - begin));  // slots point into pairs: no reallocation
  if (slots.size() == keys.size())
    std::fill(slots.begin(), slots.end(), nullptr);
  else
    slots.assign(keys.size(), nullptr);
  for (const Token* t = begin; t != end; ++t) {
    pairs.push_back(split_key_value(*t, ctx));
    const KeyValue& kv = pairs.back();
    // Length and first letter before the bytes: most keys differ in one of those.
    const auto it = std::find_if(keys.begin(), keys.end(), [&](const std::string& k) {
      return k.size() == kv.key.size() && k[0] == kv.key[0] &&
             std::memcmp(k.data(), kv.key.data(), k.size()) == 0;
    });
    if (it == keys.end())
      ctx.fail(kv.key_column,
               std::string("unknown key ") + quote(kv.key) + " for " + owner + suggestion(kv.key, keys));
    const KeyValue*& slot = slots[static_cast<size_t>(it - keys.begin())];
    if (slot)
      ctx.fail(kv.key_column, "duplicate key " + quote(kv.key) + " (first given at column " +
                                  std::to_string(slot->key_column) + ")");
    slot = &kv;
  }
}

uint64_t parse_uint(std::string_view text, uint32_t column, uint64_t max, const What& what,
                    const LineContext& ctx) {
  // The common case first: 1 to 19 decimal digits, no leading "0x", within max. Anything else
  // (hex, an error) takes the full path below, which names what is wrong.
  if (!text.empty() && text.size() <= 19 &&
      !(text.size() >= 2 && text[0] == '0' && (text[1] | 0x20) == 'x')) {
    uint64_t v = 0;
    size_t i = 0;
    for (; i < text.size(); ++i) {
      const unsigned d = static_cast<unsigned char>(text[i]) - unsigned{'0'};
      if (d > 9) break;
      v = v * 10 + d;
    }
    if (i == text.size() && v <= max) return v;
  }
  const auto range = [&] { return " for " + what.str() + " (0.." + std::to_string(max) + ")"; };
  if (text.empty()) ctx.fail(column, "missing number for " + what.str());
  if (text[0] == '-') ctx.fail(column, "negative value " + quote(text) + " not allowed" + range());
  unsigned base = 10;
  std::string_view digits = text;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    digits = text.substr(2);
  }
  const auto malformed = [&] {
    ctx.fail(column, "malformed number " + quote(text) + " for " + what.str() +
                         ": expected a decimal or 0x hex integer");
  };
  if (digits.empty()) malformed();
  uint64_t v = 0;
  bool overflow = false;
  // Up to 19 decimal or 16 hex digits cannot overflow: no check per digit.
  if (digits.size() <= (base == 10 ? 19u : 16u)) {
    for (char ch : digits) {
      unsigned d = 0;
      if (ch >= '0' && ch <= '9')
        d = static_cast<unsigned>(ch - '0');
      else if (base == 16 && ch >= 'a' && ch <= 'f')
        d = static_cast<unsigned>(ch - 'a' + 10);
      else if (base == 16 && ch >= 'A' && ch <= 'F')
        d = static_cast<unsigned>(ch - 'A' + 10);
      else
        malformed();
      v = v * base + d;
    }
    if (v > max) ctx.fail(column, "value " + quote(text) + " out of range" + range());
    return v;
  }
  for (char ch : digits) {
    unsigned d = 0;
    if (ch >= '0' && ch <= '9') {
      d = static_cast<unsigned>(ch - '0');
    } else if (base == 16 && ch >= 'a' && ch <= 'f') {
      d = static_cast<unsigned>(ch - 'a' + 10);
    } else if (base == 16 && ch >= 'A' && ch <= 'F') {
      d = static_cast<unsigned>(ch - 'A' + 10);
    } else {
      malformed();
    }
    if (v > (std::numeric_limits<uint64_t>::max() - d) / base)
      overflow = true;  // keep scanning for bad digits
    if (!overflow) v = v * base + d;
  }
  if (overflow || v > max) ctx.fail(column, "value " + quote(text) + " out of range" + range());
  return v;
}

bool parse_bool(std::string_view text, uint32_t column, const What& what, const LineContext& ctx) {
  if (text == "1" || text == "true") return true;
  if (text == "0" || text == "false") return false;
  ctx.fail(column,
           "invalid boolean " + quote(text) + " for " + what.str() + ": expected 0, 1, true or false");
}

bool is_identifier(std::string_view s) {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !alpha(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

}  // namespace aicore::trace::detail
