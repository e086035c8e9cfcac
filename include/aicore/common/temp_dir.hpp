// A fresh folder under $TMPDIR, removed with everything in it at scope exit: the traces and runs
// of one calibration, a test's files.
#pragma once
#include <string>

namespace aicore {

class TempDir {
 public:
  // $TMPDIR/PREFIX-XXXXXX; InputError when it cannot be created.
  explicit TempDir(const std::string& prefix = "aicore");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `text` to file(name) and returns that path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

}  // namespace aicore
