// What a point's result depends on, as a hash: the resume key of a sweep (re-running a study skips
// a point whose key has a result). FNV-1a, 64 bits: a cache key, not a security measure.
#pragma once
#include <cstdint>
#include <string>

namespace aicore::sweep {

class Hasher {
 public:
  Hasher& add(const void* data, size_t size);
  Hasher& add(const std::string& s);  // length-prefixed, so ("ab","c") != ("a","bc")
  uint64_t value() const { return h_; }
  std::string hex() const;  // 16 lowercase hex digits

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

// The hash of everything a run reads from `path`: for a trace, its statements (comments and blank
// lines left out: they cannot change a result) and the bytes of every file its .gm and .expect
// lines name; for anything else (a kernel manifest), its bytes and, recursively, every file one
// of its values names relative to it. A file that cannot be read hashes as "missing" (the run
// itself reports it). Throws nothing.
std::string input_hash(const std::string& path);

}  // namespace aicore::sweep
