// aicore-docs: writes or checks the generated blocks of the user documentation.
//   aicore-docs --write [ROOT]   rewrite the blocks of docs/trace-format.md, docs/semantics.md,
//                                docs/configuration.md and fuzz/trace.dict in place
//   aicore-docs --check [ROOT]   exit 1 naming every stale block (CTest docs.generated_fresh)
// ROOT is the repository (default: the source tree it was built from). scripts/gen-docs.sh
// builds this tool and runs --write.
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>

#include "aicore/common/error.hpp"
#include "aicore/config/loader.hpp"
#include "docgen.hpp"

namespace fs = std::filesystem;
using namespace aicore;

namespace {

struct Block {
  const char* name;
  std::function<std::string()> body;
};
struct Doc {
  const char* path;  // relative to ROOT
  std::vector<Block> blocks;
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The base file and every SoC preset (the aliases atlas-a2 / atlas-a3 name one of them).
struct Presets {
  docgen::Preset base;
  std::vector<docgen::Preset> socs;
};

Presets presets(const fs::path& root) {
  const std::string dir = (root / "configs").string();
  const fs::path base = root / "configs" / "arch2201.yaml";
  Presets out{{"base", docgen::scan_preset(read(base), base.string()), config::load(base.string(), {}, dir)},
              {}};
  for (const std::string& name : config::preset_names()) {
    if (!config::preset_alias_of(name).empty()) continue;
    const fs::path path = config::preset_path(name, dir);
    out.socs.push_back({name, docgen::scan_preset(read(path), path.string()), config::load(name, {}, dir)});
  }
  return out;
}

std::vector<Doc> docs(const fs::path& root) {
  const auto configs = std::make_shared<Presets>(presets(root));
  return {{"docs/trace-format.md",
           {{"operand-spaces", docgen::operand_spaces},
            {"instruction-summary", docgen::instruction_summary},
            {"instruction-fields", docgen::instruction_fields}}},
          {"docs/semantics.md", {{"event-pairs", docgen::event_pairs}}},
          {"fuzz/trace.dict", {{"trace-words", docgen::fuzz_words}}},
          {"docs/configuration.md",
           {{"soc-presets", [configs] { return docgen::soc_presets(configs->socs); }},
            {"config-keys", [configs] { return docgen::config_keys(configs->base, configs->socs); }},
            {"config-caps", docgen::config_caps}}}};
}

int run(bool write, const fs::path& root) {
  int stale = 0;
  for (const Doc& d : docs(root)) {
    const fs::path path = root / d.path;
    const std::string old = read(path);
    std::string now = old;
    for (const std::string& name : docgen::block_names(old)) {
      bool known = false;
      for (const Block& b : d.blocks) known = known || name == b.name;
      if (!known) throw std::runtime_error(std::string(d.path) + ": unknown generated block '" + name + "'");
    }
    for (const Block& b : d.blocks) {
      const std::string next = docgen::splice(now, b.name, b.body());
      if (next != now && !write)
        std::cerr << d.path << ": generated block '" << b.name
                  << "' is stale; regenerate it with: bash scripts/gen-docs.sh\n";
      stale += next != now;
      now = next;
    }
    if (write && now != old) {
      std::ofstream out(path, std::ios::binary);
      out << now;
      if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
      std::cout << "updated " << d.path << "\n";
    }
  }
  return write || stale == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if ((mode != "--write" && mode != "--check") || argc > 3) {
    std::cerr << "usage: aicore-docs --write|--check [REPOSITORY_ROOT]\n";
    return 2;
  }
  const fs::path root = argc > 2 ? fs::path(argv[2]) : fs::path(AICORE_SOURCE_DIR);
  try {
    return run(mode == "--write", root);
  } catch (const InputError& e) {
    std::cerr << "aicore-docs: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "aicore-docs: error: " << e.what() << "\n";
  }
  return 2;
}
