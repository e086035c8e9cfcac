// Kernel manifests: a YAML file that lists one trace per core of a multi-core kernel.
//
//   cores:            # one trace per core; block index = position in this list
//     - core0.trace
//     - core1.trace
//
// Paths are relative to the manifest's folder. Every problem is an InputError at the
// manifest's file:line:column.
#pragma once
#include <string>
#include <vector>

#include "aicore/common/error.hpp"

namespace aicore::trace {

struct ManifestEntry {
  std::string trace;  // resolved against the manifest's folder
  SourceLoc loc;      // the list item
};

struct KernelManifest {
  std::string path;
  std::vector<ManifestEntry> cores;
};

// True for the file names `aicore-sim run` reads as a manifest: *.yaml, *.yml.
bool is_manifest_path(const std::string& path);

KernelManifest read_manifest(const std::string& path);
// Same, from text in memory; `path` names it in errors and resolves the trace paths.
KernelManifest parse_manifest(const std::string& text, const std::string& path);

}  // namespace aicore::trace
