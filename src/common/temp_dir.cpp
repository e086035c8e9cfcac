#include "aicore/common/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "aicore/common/error.hpp"

namespace aicore {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  std::string t = ((ec ? fs::path("/tmp") : base) / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(t.data()))
    throw InputError(SourceLoc{t, 0, 0},
                     std::string("cannot create a temporary folder: ") + std::strerror(errno));
  path_ = t;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
  const std::string path = file(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace aicore
