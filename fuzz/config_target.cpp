// Fuzz target: the config loader (yaml-cpp parse, key walk, --set overrides, resolution and range
// checks). Input: YAML text, then optionally a line "%%" followed by one --set string per line.
// Empty YAML means the complete base file (configs/arch2201.yaml), so --set strings are fuzzed
// against a complete file; `base: atlas-a2` makes an overlay of a preset (read from
// AICORE_CONFIGS_DIR or the source tree).
// Oracle: an accepted config, dumped as YAML (config show) and loaded again, dumps identically
// and gives the same JSON (the stats.json "config" object).
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/config/json.hpp"
#include "aicore/config/loader.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

namespace {

const std::string& preset_text() {
  static const std::string text = [] {
    std::ifstream f(config::default_configs_dir() + "/arch2201.yaml", std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    if (s.str().empty()) fuzz::oracle_failed("cannot read configs/arch2201.yaml (set AICORE_CONFIGS_DIR)");
    return s.str();
  }();
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string yaml = input;
  std::vector<std::string> sets;
  const size_t sep = input.find("\n%%\n");
  if (sep != std::string::npos) {
    yaml = input.substr(0, sep);
    std::istringstream rest(input.substr(sep + 4));
    for (std::string line; std::getline(rest, line) && sets.size() < 64;) sets.push_back(line);
  }
  if (yaml.empty()) yaml = preset_text();

  config::Config c;
  try {
    c = config::load_yaml_text(yaml, "fuzz.yaml", sets, "fuzz");
  } catch (const InputError&) {
    return 0;  // refusing bad input is the expected outcome
  }
  const std::string dumped = config::to_yaml(c);
  config::Config back;
  try {
    back = config::load_yaml_text(dumped, "dumped.yaml", {}, "fuzz");
  } catch (const InputError& e) {
    fuzz::oracle_failed(std::string("config show output does not load: ") + e.what() + "\n" + dumped);
  }
  if (config::to_yaml(back) != dumped) fuzz::oracle_failed("config show is not a fixed point:\n" + dumped);
  if (config::to_json(back) != config::to_json(c))
    fuzz::oracle_failed("JSON differs after a YAML round trip");
  return 0;
}
