// .npy format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// magic "\x93NUMPY", major, minor, little-endian header length (u16 for 1.0, u32 for 2.0/3.0),
// then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), } padded with
// spaces and '\n' so the data starts at a multiple of 64, then the raw C-order data.
#include "aicore/trace/npy.hpp"

#include <limits>
#include <stdexcept>

#include "aicore/common/error.hpp"
#include "file_io.hpp"

namespace aicore::trace {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
constexpr uint64_t kMaxHeaderBytes = uint64_t{1} << 20;
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

[[noreturn]] void bad(const std::string& path, const std::string& msg) {
  throw InputError(SourceLoc{path, 0, 0}, msg);
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Number of elements; false on overflow.
bool element_count(const std::vector<uint64_t>& shape, uint64_t item, uint64_t& bytes) {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d != 0 && n > kU64Max / d) return false;
    n *= d;
  }
  if (item != 0 && n > kU64Max / item) return false;
  bytes = n * item;
  return true;
}

// The subset of Python literal syntax that .npy headers use.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  NpyArray parse() {
    NpyArray a;
    bool have_descr = false, have_order = false, have_shape = false;
    skip_space();
    expect('{');
    for (;;) {
      skip_space();
      if (eat('}')) break;
      const std::string key = string_literal("a key");
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        once(have_descr, key);
        if (peek() == '[') fail("structured dtypes are not supported");
        a.descr = string_literal("the descr string");
      } else if (key == "fortran_order") {
        once(have_order, key);
        if (boolean())
          fail("Fortran-order arrays are not supported (save a C-order array, e.g. np.ascontiguousarray)");
      } else if (key == "shape") {
        once(have_shape, key);
        a.shape = tuple();
      } else {
        fail("unexpected key '" + key + "'");
      }
      skip_space();
      if (eat(',')) continue;
      expect('}');
      break;
    }
    skip_space();
    if (i_ != s_.size()) fail("unexpected text after the dictionary");
    if (!have_descr || !have_order || !have_shape)
      fail(std::string("missing key '") +
           (!have_descr   ? "descr"
            : !have_order ? "fortran_order"
                          : "shape") +
           "'");
    return a;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    bad(path_, "bad .npy header at byte " + std::to_string(i_) + ": " + msg);
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool eat(char c) {
    if (peek() != c || i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  void once(bool& seen, const std::string& key) {
    if (seen) fail("duplicate key '" + key + "'");
    seen = true;
  }
  std::string string_literal(const char* what) {
    const char q = peek();
    if (q != '\'' && q != '"') fail(std::string("expected ") + what + " in quotes");
    ++i_;
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') fail("escape sequences are not supported");
      ++i_;
    }
    if (i_ >= s_.size()) fail("unterminated string");
    return std::string(s_.substr(start, i_++ - start));
  }
  bool boolean() {
    if (s_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (s_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    fail("expected True or False for fortran_order");
  }
  std::vector<uint64_t> tuple() {
    std::vector<uint64_t> dims;
    expect('(');
    skip_space();
    if (eat(')')) return dims;
    for (;;) {
      if (peek() == '-') fail("negative dimension in shape");
      if (peek() < '0' || peek() > '9') fail("expected a non-negative integer dimension in shape");
      uint64_t d = 0;
      while (peek() >= '0' && peek() <= '9') {
        const uint64_t digit = static_cast<uint64_t>(peek() - '0');
        if (d > (kU64Max - digit) / 10) fail("dimension too large in shape");
        d = d * 10 + digit;
        ++i_;
      }
      eat('L');  // Python 2 long literal
      dims.push_back(d);
      if (dims.size() > 64) fail("too many dimensions in shape");
      skip_space();
      if (eat(')')) return dims;
      expect(',');
      skip_space();
      if (eat(')')) return dims;
    }
  }

  std::string_view s_;
  const std::string& path_;
  size_t i_ = 0;
};

uint64_t read_le(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::string npy_canonical_descr(const std::string& descr) {
  std::string_view d = descr;
  char order = '\0';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
    order = d[0];
    d.remove_prefix(1);
  }
  static constexpr const char* kTypes[] = {"b1", "i1", "u1", "i2", "u2", "f2",
                                           "i4", "u4", "f4", "i8", "u8", "f8"};
  for (const char* t : kTypes) {
    if (d != t) continue;
    if (t[1] == '1') return std::string("|") + t;
    if (order == '>' || order == '|') return "";  // big-endian, or a byte order on a multi-byte type's '|'
    return std::string("<") + t;
  }
  return "";
}

uint32_t npy_item_size(const std::string& descr) {
  const std::string c = npy_canonical_descr(descr);
  return c.empty() ? 0 : static_cast<uint32_t>(c[2] - '0');
}

std::string npy_descr(isa::DType dtype) {
  switch (dtype) {
    case isa::DType::Int8:
      return "|i1";
    case isa::DType::Half:
      return "<f2";
    case isa::DType::BF16:
      return "<u2";
    case isa::DType::Int32:
      return "<i4";
    case isa::DType::Float:
      return "<f4";
    case isa::DType::Int4:  // no numpy type: the packed bytes
      return "|u1";
  }
  return "|u1";
}

NpyArray read_npy(const std::string& path) {
  uint64_t file_size = 0;
  std::ifstream in = detail::open_for_read(path, file_size);
  unsigned char pre[12] = {};
  if (file_size < 10) bad(path, "not a .npy file (only " + std::to_string(file_size) + " bytes)");
  in.read(reinterpret_cast<char*>(pre), 10);
  if (!in) bad(path, "read error");
  if (std::string_view(reinterpret_cast<const char*>(pre), kMagicBytes) !=
      std::string_view(kMagic, kMagicBytes))
    bad(path, "not a .npy file (bad magic; expected \\x93NUMPY)");
  const int major = pre[6], minor = pre[7];
  uint64_t header_start = 10, header_len = 0;
  if (major == 1) {
    header_len = read_le(pre + 8, 2);
  } else if (major == 2 || major == 3) {
    if (file_size < 12) bad(path, "truncated .npy header");
    in.read(reinterpret_cast<char*>(pre + 10), 2);
    if (!in) bad(path, "read error");
    header_len = read_le(pre + 8, 4);
    header_start = 12;
  } else {
    bad(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                  " (1.0, 2.0 and 3.0 are supported)");
  }
  if (header_len > kMaxHeaderBytes)
    bad(path, "the .npy header is implausibly large (" + std::to_string(header_len) + " bytes)");
  if (header_start + header_len > file_size)
    bad(path, "truncated .npy header: it claims " + std::to_string(header_len) + " bytes, the file has " +
                  std::to_string(file_size - header_start) + " after the preamble");
  std::string header(header_len, '\0');
  in.read(header.data(), static_cast<std::streamsize>(header_len));
  if (!in) bad(path, "read error");

  NpyArray a = HeaderParser(header, path).parse();
  const std::string canonical = npy_canonical_descr(a.descr);
  if (canonical.empty()) {
    if (!a.descr.empty() && a.descr[0] == '>')
      bad(path, "big-endian data ('" + a.descr + "') is not supported");
    bad(path, "unsupported dtype '" + a.descr +
                  "' (supported: i1 u1 b1 i2 u2 f2 i4 u4 f4 i8 u8 f8, little-endian)");
  }
  a.descr = canonical;
  uint64_t bytes = 0;
  if (!element_count(a.shape, npy_item_size(canonical), bytes))
    bad(path, "shape " + shape_text(a.shape) + " is too large");
  const uint64_t available = file_size - header_start - header_len;
  if (available < bytes)
    bad(path, "truncated .npy data: shape " + shape_text(a.shape) + " of " + canonical + " needs " +
                  std::to_string(bytes) + " bytes, the file holds " + std::to_string(available));
  if (available > bytes)
    bad(path, std::to_string(available - bytes) + " unexpected bytes after the .npy data (shape " +
                  shape_text(a.shape) + " of " + canonical + " needs " + std::to_string(bytes) + ")");
  a.data.resize(bytes);
  if (bytes) in.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(bytes));
  if (!in) bad(path, "read error");
  return a;
}

void write_npy(const std::string& path, const std::string& descr, const std::vector<uint64_t>& shape,
               const uint8_t* data, uint64_t bytes) {
  const std::string canonical = npy_canonical_descr(descr);
  if (canonical.empty()) throw std::invalid_argument("write_npy: unsupported descr '" + descr + "'");
  uint64_t expected = 0;
  if (!element_count(shape, npy_item_size(canonical), expected) || expected != bytes)
    throw std::invalid_argument("write_npy: shape " + shape_text(shape) + " of " + canonical +
                                " does not hold " + std::to_string(bytes) + " bytes");
  if (shape.size() > 64) throw std::invalid_argument("write_npy: more than 64 dimensions");
  std::string header =
      "{'descr': '" + canonical + "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  // Pad with spaces so that preamble (10 bytes) + header + '\n' is a multiple of 64, as NumPy does.
  // With at most 64 dimensions the header always fits format 1.0's u16 length.
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string preamble(kMagic, kMagicBytes);
  preamble += '\x01';
  preamble += '\x00';
  preamble += static_cast<char>(header.size() & 0xFF);
  preamble += static_cast<char>((header.size() >> 8) & 0xFF);
  std::ofstream out = detail::open_for_write(path);
  out.write(preamble.data(), static_cast<std::streamsize>(preamble.size()));
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  if (bytes) out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  detail::finish_write(out, path);
}

}  // namespace aicore::trace
