#include "file_io.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "aicore/common/error.hpp"

namespace aicore::trace::detail {

namespace fs = std::filesystem;

std::ifstream open_for_read(const std::string& path, uint64_t& size) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw InputError(SourceLoc{path, 0, 0}, "no such file");
  if (fs::is_directory(status)) throw InputError(SourceLoc{path, 0, 0}, "is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0, 0}, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  in.seekg(0, std::ios::beg);
  if (end < 0 || !in) throw InputError(SourceLoc{path, 0, 0}, "cannot determine the file's size");
  size = static_cast<uint64_t>(end);
  return in;
}

std::ofstream open_for_write(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec)
    throw InputError(SourceLoc{path, 0, 0},
                     "cannot create directory " + p.parent_path().string() + ": " + ec.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot write file: ") + std::strerror(errno));
  return out;
}

void finish_write(std::ofstream& out, const std::string& path) {
  out.flush();
  if (!out)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot write file: ") + std::strerror(errno));
  out.close();
  if (out.fail()) throw InputError(SourceLoc{path, 0, 0}, "cannot write file (close failed)");
}

}  // namespace aicore::trace::detail
