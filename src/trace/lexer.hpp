// Private to the trace reader: bounded-memory line reading and the small lexical helpers that
// every statement parser shares (tokens, key=value pairs, numbers, booleans).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "aicore/common/error.hpp"

namespace aicore::trace::detail {

// Reads a byte stream line by line and returns the code part of each line (before any '#').
// Checks that the text is UTF-8 without control characters; comments are skipped without being
// stored, so memory stays bounded by kMaxCodeBytes whatever the file or comment length.
class LineSource {
 public:
  static constexpr size_t kMaxCodeBytes = size_t{1} << 20;

  LineSource(std::istream& in, std::string file);
  // The next line's code part, without the line terminator. false at the end of the input.
  bool next(std::string& code);
  uint32_t line() const { return line_; }
  const std::string& file() const { return file_; }

 private:
  int get() {
    if (pos_ == end_ && !refill()) return -1;
    return static_cast<unsigned char>(buf_[pos_++]);
  }
  bool refill();
  [[noreturn]] void fail(uint64_t column, const std::string& msg) const;

  std::istream& in_;
  std::string file_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  bool first_fill_ = true;
  uint32_t line_ = 0;
};

struct Token {
  std::string_view text;
  uint32_t column = 0;  // 1-based byte column
};

// Splits a line's code into whitespace-separated tokens (space, tab, CR).
void split_tokens(std::string_view code, std::vector<Token>& out);

struct KeyValue {
  std::string_view key, value;
  uint32_t key_column = 0, value_column = 0;
};

// Locations and error reporting for the line being parsed.
struct LineContext {
  const std::string& file;
  uint32_t line;
  SourceLoc at(uint32_t column) const { return SourceLoc{file, line, column}; }
  [[noreturn]] void fail(uint32_t column, const std::string& msg) const { throw InputError(at(column), msg); }
};

// Quoted, length-limited echo of user text for messages.
std::string quote(std::string_view s);
// " did you mean 'X'?" or "" (skips the search for absurdly long words).
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates);

// Splits a field token into key and value; errors name the token.
KeyValue split_key_value(const Token& t, const LineContext& ctx);

// Collects the key=value tokens of a statement against the keys it accepts: slot i receives the
// pair for keys[i] (or stays null). Unknown keys (with a suggestion) and repeated keys are errors.
// `owner` names the statement in messages ("DataCopy", ".gm").
void collect_fields(const Token* begin, const Token* end, const std::vector<std::string>& keys,
                    const char* owner, const LineContext& ctx, std::vector<KeyValue>& pairs,
                    std::vector<const KeyValue*>& slots);

// Non-negative decimal or 0x-hex integer no larger than `max`; `what` names the field in messages
// ("u8 field repeatTimes").
// What a value is for, in messages: "u16 field srcStride" or just "size". Only turned into a
// string when a message is built, so the parsing hot path allocates nothing.
struct What {
  What(const char* name) : name_(name) {}  // NOLINT: implicit on purpose
  What(const char* type, std::string_view key, const char* sep = " field ")
      : type_(type), sep_(sep), name_(key) {}
  std::string str() const {
    return type_ ? std::string(type_) + sep_ + std::string(name_) : std::string(name_);
  }

 private:
  const char* type_ = nullptr;
  const char* sep_ = "";
  std::string_view name_;
};

uint64_t parse_uint(std::string_view text, uint32_t column, uint64_t max, const What& what,
                    const LineContext& ctx);
// 0, 1, true or false.
bool parse_bool(std::string_view text, uint32_t column, const What& what, const LineContext& ctx);

// [A-Za-z_][A-Za-z0-9_]*
bool is_identifier(std::string_view s);

}  // namespace aicore::trace::detail
