#include "aicore/trace/manifest.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace aicore::trace {

namespace fs = std::filesystem;

namespace {

SourceLoc at(const std::string& file, const YAML::Mark& m) {
  if (m.is_null() || m.line < 0) return SourceLoc{file, 0, 0};
  return SourceLoc{file, static_cast<uint32_t>(m.line + 1), static_cast<uint32_t>(m.column + 1)};
}

const std::vector<std::string>& manifest_keys() {
  static const std::vector<std::string> keys = {"cores"};
  return keys;
}

std::string resolve(const std::string& manifest, const std::string& p) {
  const fs::path rel(p);
  if (rel.is_absolute()) return p;
  return (fs::path(manifest).parent_path() / rel).lexically_normal().string();
}

void read_cores(const YAML::Node& list, const SourceLoc& key_loc, KernelManifest& m) {
  if (!list.IsSequence())
    throw InputError(list.IsNull() ? key_loc : at(m.path, list.Mark()),
                     "'cores' must be a list of trace files, one per core (e.g. '- core0.trace')");
  if (list.size() == 0)
    throw InputError(at(m.path, list.Mark()), "'cores' is empty: a kernel needs at least one core");
  for (auto it = list.begin(); it != list.end(); ++it) {
    const YAML::Node item = *it;
    const SourceLoc loc = at(m.path, item.Mark());
    if (!item.IsScalar() || item.Scalar().empty())
      throw InputError(loc, "each entry of 'cores' must be a trace file path (core " +
                                std::to_string(m.cores.size()) + ")");
    const std::string trace = resolve(m.path, item.Scalar());
    std::error_code ec;
    if (!fs::exists(trace, ec))
      throw InputError(loc,
                       "core " + std::to_string(m.cores.size()) + ": no such trace file '" + trace + "'");
    if (fs::is_directory(trace, ec))
      throw InputError(loc, "core " + std::to_string(m.cores.size()) + ": '" + trace + "' is a directory");
    m.cores.push_back(ManifestEntry{trace, loc});
  }
}

}  // namespace

bool is_manifest_path(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

KernelManifest parse_manifest(const std::string& text, const std::string& path) {
  KernelManifest m;
  m.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(at(path, e.mark), "not valid YAML: " + e.msg);
  }
  if (!root.IsMap())
    throw InputError(root.IsNull() ? SourceLoc{path, 1, 1} : at(path, root.Mark()),
                     "a kernel manifest is a mapping with a 'cores' list of trace files");
  std::set<std::string> seen;
  bool have_cores = false;
  try {
    for (auto it = root.begin(); it != root.end(); ++it) {
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      const SourceLoc kloc = at(path, k.Mark());
      const std::string key = k.IsScalar() ? k.Scalar() : std::string("?");
      if (!seen.insert(key).second) throw InputError(kloc, "duplicate key '" + key + "'");
      if (key != "cores") {
        const std::string near = nearest_word(key, manifest_keys());
        throw InputError(kloc, "unknown key '" + key + "' in a kernel manifest" +
                                   (near.empty() ? std::string("; the only key is 'cores'")
                                                 : "; did you mean '" + near + "'?"));
      }
      read_cores(v, kloc, m);
      have_cores = true;
    }
  } catch (const YAML::Exception& e) {
    throw InputError(at(path, e.mark), "not a valid kernel manifest: " + e.msg);
  }
  if (!have_cores)
    throw InputError(at(path, root.Mark()), "missing key 'cores' (the list of trace files, one per core)");
  return m;
}

KernelManifest read_manifest(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(SourceLoc{path}, "cannot read kernel manifest: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot open kernel manifest: no such file or not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_manifest(text.str(), path);
}

}  // namespace aicore::trace
