// Fuzz target: kernel manifests (trace/manifest.hpp), parsed from a scratch folder that holds
// two trace files, so that valid manifests are reachable. Oracle: an accepted manifest lists at
// least one core, every entry names an existing file under the folder and has a 1-based
// line:column, and parsing it again gives the same list.
#include <cstdint>
#include <filesystem>
#include <string>

#include "aicore/common/error.hpp"
#include "aicore/trace/manifest.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    for (const char* name : {"core0.trace", "core1.trace"}) fuzz::write_file(fuzz::scratch_file(name), "", 0);
    return fuzz::scratch_dir();
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = dir + "/kernel.yaml";
  trace::KernelManifest m;
  try {
    m = trace::parse_manifest(text, path);
  } catch (const InputError& e) {
    if (e.loc().file != path)
      fuzz::oracle_failed("error not located in the manifest: " + std::string(e.what()));
    return 0;
  }
  if (m.cores.empty()) fuzz::oracle_failed("accepted a manifest with no core");
  for (const trace::ManifestEntry& e : m.cores) {
    if (e.loc.line == 0 || e.loc.column == 0) fuzz::oracle_failed("entry without a location: " + e.trace);
    if (!std::filesystem::exists(e.trace)) fuzz::oracle_failed("accepted a missing trace: " + e.trace);
  }
  const trace::KernelManifest again = trace::parse_manifest(text, path);
  if (again.cores.size() != m.cores.size()) fuzz::oracle_failed("parsing twice gave different manifests");
  for (size_t i = 0; i < m.cores.size(); ++i)
    if (again.cores[i].trace != m.cores[i].trace)
      fuzz::oracle_failed("parsing twice gave different manifests");
  return 0;
}
