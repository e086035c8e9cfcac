// A buffered text writer for the streamed reports (instr.csv, timeline.json, waves.vcd):
// integers through std::to_chars into one buffer written out in large blocks. printf-style
// formatting dominated the cost of the outputs (each row parses its format string anew).
#pragma once
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace aicore::report {

class TextOut {
 public:
  TextOut() : buf_(new char[kSize]) {}
  ~TextOut() { close(); }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  bool open(const std::string& path) {
    f_ = std::fopen(path.c_str(), "w");
    return f_ != nullptr;
  }
  // Writes what is buffered and closes; false if any write failed.
  bool close() {
    if (!f_) return ok_;
    flush();
    ok_ = std::fclose(f_) == 0 && ok_;
    f_ = nullptr;
    return ok_;
  }

  TextOut& write(const char* p, size_t n) {
    if (n > kSize - used_) {
      flush();
      if (n > kSize) {  // larger than the buffer: straight through
        if (f_ && std::fwrite(p, 1, n, f_) != n) ok_ = false;
        return *this;
      }
    }
    std::memcpy(buf_.get() + used_, p, n);
    used_ += n;
    return *this;
  }
  TextOut& operator<<(std::string_view s) { return write(s.data(), s.size()); }
  TextOut& operator<<(const char* s) { return write(s, std::strlen(s)); }
  TextOut& operator<<(char c) { return write(&c, 1); }
  TextOut& operator<<(uint64_t v) {
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    return write(tmp, static_cast<size_t>(r.ptr - tmp));
  }
  TextOut& operator<<(uint32_t v) { return *this << static_cast<uint64_t>(v); }
  TextOut& operator<<(int v) { return *this << static_cast<uint64_t>(v < 0 ? 0 : v); }
  // `v` with printf's %.10g (once per file: the clock).
  TextOut& real(double v) {
    char tmp[32];
    const int n = std::snprintf(tmp, sizeof tmp, "%.10g", v);
    return write(tmp, static_cast<size_t>(n));
  }
  // v >= 0 with three decimals, by integer formatting (rates, per instruction).
  TextOut& fixed3(double v) {
    const auto m = static_cast<uint64_t>(v * 1000.0 + 0.5);
    *this << m / 1000 << '.';
    return padded(m % 1000, 3);
  }
  // `v` with exactly `digits` digits, zero-padded (fractional parts).
  TextOut& padded(uint64_t v, int digits) {
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    for (int i = static_cast<int>(r.ptr - tmp); i < digits; ++i) *this << '0';
    return write(tmp, static_cast<size_t>(r.ptr - tmp));
  }

 private:
  static constexpr size_t kSize = 1 << 20;
  void flush() {
    if (f_ && used_ && std::fwrite(buf_.get(), 1, used_, f_) != used_) ok_ = false;
    used_ = 0;
  }

  std::FILE* f_ = nullptr;
  std::unique_ptr<char[]> buf_;
  size_t used_ = 0;
  bool ok_ = true;
};

}  // namespace aicore::report
