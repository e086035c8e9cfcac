// Helpers shared by the fuzz targets: a private scratch directory per process and a check that
// stops the run (a libFuzzer "crash") when a target's own oracle finds a wrong answer.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fuzz {

// A directory of our own under $TMPDIR, created on first use and removed at exit.
inline const std::string& scratch_dir() {
  struct Dir {
    std::string path;
    Dir() {
      path = (std::filesystem::temp_directory_path() / "aicore-fuzz-XXXXXX").string();
      if (!mkdtemp(path.data())) {
        std::perror("mkdtemp");
        std::abort();
      }
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

inline std::string scratch_file(const std::string& name) {
  return scratch_dir() + "/" + name;
}

inline void write_file(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
}

// An oracle violation: print what differs and abort, which libFuzzer reports as a crash.
[[noreturn]] inline void oracle_failed(const std::string& what) {
  std::fprintf(stderr, "fuzz oracle failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace fuzz
