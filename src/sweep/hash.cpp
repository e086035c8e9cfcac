#include "aicore/sweep/hash.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace aicore::sweep {

namespace fs = std::filesystem;

Hasher& Hasher::add(const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = h_;
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  h_ = h;
  return *this;
}

Hasher& Hasher::add(const std::string& s) {
  const uint64_t n = s.size();
  add(&n, sizeof n);
  return add(s.data(), s.size());
}

std::string Hasher::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

namespace {

constexpr int kMaxDepth = 8;  // manifests naming manifests: deeper is a loop

bool add_bytes(Hasher& h, const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  char buf[1 << 16];
  uint64_t total = 0;
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    h.add(buf, static_cast<size_t>(in.gcount()));
    total += static_cast<uint64_t>(in.gcount());
  }
  h.add(&total, sizeof total);
  return true;
}

void add_file(Hasher& h, const fs::path& p) {
  h.add("file " + p.filename().string());
  if (!add_bytes(h, p)) h.add("missing");
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Statements, and the data files of .gm / .expect lines (relative to the trace).
void add_trace(Hasher& h, const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    h.add("missing");
    return;
  }
  const fs::path dir = path.parent_path();
  for (std::string line; std::getline(in, line);) {
    const std::string s = trim(line.substr(0, line.find('#')));
    if (s.empty()) continue;
    h.add(s);
    if (s.rfind(".gm", 0) != 0 && s.rfind(".expect", 0) != 0) continue;
    std::istringstream words(s);
    for (std::string w; words >> w;)
      if (w.rfind("file=", 0) == 0) add_file(h, dir / w.substr(5));
  }
}

void add_input(Hasher& h, const fs::path& path, std::set<std::string>& seen, int depth, bool top = false);

void add_named_files(Hasher& h, const YAML::Node& n, const fs::path& dir, std::set<std::string>& seen,
                     int depth) {
  if (n.IsScalar()) {
    std::error_code ec;
    const fs::path p = dir / n.Scalar();
    if (!n.Scalar().empty() && fs::is_regular_file(p, ec)) add_input(h, p, seen, depth + 1);
    return;
  }
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (n.IsMap()) {
      add_named_files(h, it->second, dir, seen, depth);
    } else {
      add_named_files(h, *it, dir, seen, depth);
    }
  }
}

// A manifest: its bytes, and whatever files its values name.
void add_manifest(Hasher& h, const fs::path& path, std::set<std::string>& seen, int depth) {
  add_file(h, path);
  if (depth >= kMaxDepth) return;
  try {
    add_named_files(h, YAML::LoadFile(path.string()), path.parent_path(), seen, depth);
  } catch (const YAML::Exception&) {
    // Not YAML (or unreadable): the bytes above are all a run could depend on.
  }
}

// `top`: the path the study names, which the run reads as a trace unless it is a manifest.
void add_input(Hasher& h, const fs::path& path, std::set<std::string>& seen, int depth, bool top) {
  std::error_code ec;
  const std::string canon = fs::weakly_canonical(path, ec).string();
  if (!seen.insert(canon).second) {
    h.add("seen " + path.filename().string());
    return;
  }
  const bool yaml = path.extension() == ".yaml" || path.extension() == ".yml";
  if (yaml)
    add_manifest(h, path, seen, depth);
  else if (top || path.extension() == ".trace")
    add_trace(h, path);
  else
    add_file(h, path);
}

}  // namespace

std::string input_hash(const std::string& path) {
  Hasher h;
  std::set<std::string> seen;
  add_input(h, path, seen, 0, true);
  return h.hex();
}

}  // namespace aicore::sweep
