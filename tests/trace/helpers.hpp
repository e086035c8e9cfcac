// Shared helpers of the trace tests.
#pragma once
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "aicore/common/error.hpp"
#include "aicore/trace/reader.hpp"

namespace trace_test {

inline std::string data_dir() {
  return AICORE_TRACE_TEST_DATA;
}

// Every statement of a trace given as text (display name "t.trace"). The parser's own table only,
// unless `check_fields` (isa::check_fields on each instruction, as a run reads its traces).
inline std::vector<aicore::trace::Statement> read_all(const std::string& text,
                                                      const std::string& base_dir = "",
                                                      bool check_fields = false) {
  std::istringstream in(text);
  aicore::trace::Reader r(in, "t.trace", base_dir);
  r.check_fields(check_fields);
  std::vector<aicore::trace::Statement> out;
  aicore::trace::Statement s;
  while (r.next(s)) out.push_back(s);
  return out;
}

// The InputError message a trace produces, or "<no error>".
inline std::string parse_error(const std::string& text, bool check_fields = false) {
  try {
    read_all(text, "", check_fields);
  } catch (const aicore::InputError& e) {
    return e.what();
  }
  return "<no error>";
}

// 1-based column of the first occurrence of `what` in `line`.
inline uint32_t col(const std::string& line, const std::string& what, size_t from = 0) {
  return static_cast<uint32_t>(line.find(what, from) + 1);
}

// "t.trace:LINE:COL: error: "
inline std::string at(uint32_t line, uint32_t column) {
  return "t.trace:" + std::to_string(line) + ":" + std::to_string(column) + ": error: ";
}

// A fresh directory, removed with its contents at scope exit. Unique per process and call, so
// tests that CTest runs in parallel never share files.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("aicore_trace_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace trace_test
