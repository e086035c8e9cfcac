// The documentation generator: the preset scanner, block splicing, and the key tables' checks
// against the loaded presets.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"
#include "docgen.hpp"

using namespace aicore;
using Catch::Contains;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kRoot = AICORE_SOURCE_DIR;

docgen::Preset preset_from(const std::string& text) {
  return {"atlas-a2", docgen::scan_preset(text, "p.yaml"), config::load_yaml_text(text, "p.yaml", {}, "p")};
}

}  // namespace

TEST_CASE("the preset scanner reads keys, values, comments and their continuation lines", "[docgen]") {
  const std::string text =
      "# header comment, not a key's\n"
      "\n"
      "clock_mhz: 1850        # the clock [chip]\n"
      "gm:\n"
      "  read:               # MTE2 reads\n"
      "    bytes_per_cycle: 150   # first line\n"
      "                           # second line\n"
      "    latency_cycles: 300\n"
      "# a note at column 0 continues nothing\n"
      "  shared_bytes_per_cycle: 256  # shared\n"
      "                               # port\n";
  const auto p = docgen::scan_preset(text, "p.yaml");
  REQUIRE(p.keys.size() == 4);
  CHECK(p.header == "header comment, not a key's");
  CHECK(p.keys.at("clock_mhz").value == "1850");
  CHECK(p.keys.at("clock_mhz").comment == "the clock [chip]");
  CHECK(p.keys.at("clock_mhz").line == 3);
  CHECK(p.keys.at("gm.read.bytes_per_cycle").comment == "first line second line");
  CHECK(p.keys.at("gm.read.latency_cycles").comment.empty());
  CHECK(p.keys.at("gm.shared_bytes_per_cycle").comment == "shared port");
  CHECK(p.groups.at("gm.read") == "MTE2 reads");
  CHECK(p.groups.at("gm").empty());
}

TEST_CASE("the preset scanner refuses what the presets never contain", "[docgen]") {
  CHECK_THROWS_WITH(docgen::scan_preset("a: 1\n- b\n", "p.yaml"), Contains("p.yaml:2:"));
  CHECK_THROWS_WITH(docgen::scan_preset("a: 1\na: 2\n", "p.yaml"), Contains("duplicate key 'a'"));
  CHECK_THROWS_WITH(docgen::scan_preset("a:\n\tb: 1\n", "p.yaml"), Contains("p.yaml:2: tab"));
}

TEST_CASE("every key of the base preset is found, with a source comment; the SoC presets cite theirs",
          "[docgen]") {
  const auto base = docgen::scan_preset(read(kRoot + "/configs/arch2201.yaml"), "arch2201.yaml");
  CHECK(base.keys.size() == config::params().size());
  for (const auto& param : config::params()) {
    INFO(param.key);
    REQUIRE(base.keys.count(param.key));
    CHECK_FALSE(base.keys.at(param.key).comment.empty());
  }
  for (const std::string& name : config::preset_names()) {
    if (!config::preset_alias_of(name).empty()) continue;
    INFO(name);
    const auto p = docgen::scan_preset(read(config::preset_path(name, kRoot + "/configs")), name);
    CHECK(p.keys.at("base").value == "arch2201.yaml");
    for (const auto& [key, e] : p.keys) CHECK((key == "base" || !e.comment.empty()));
  }
}

TEST_CASE("splice rewrites only between a block's markers", "[docgen]") {
  const std::string doc =
      "intro\n<!-- generated: a (note) -->\nold a\n<!-- end generated: a -->\nmiddle\n"
      "<!-- generated: b-c -->\n<!-- end generated: b-c -->\nend\n";
  CHECK(docgen::block_names(doc) == std::vector<std::string>{"a", "b-c"});
  const std::string once = docgen::splice(doc, "a", "new a\n");
  CHECK(once ==
        "intro\n<!-- generated: a (note) -->\nnew a\n<!-- end generated: a -->\nmiddle\n"
        "<!-- generated: b-c -->\n<!-- end generated: b-c -->\nend\n");
  CHECK(docgen::splice(once, "a", "new a\n") == once);
  CHECK(docgen::splice(once, "b-c", "x\n").find("<!-- generated: b-c -->\nx\n<!-- end generated: b-c -->") !=
        std::string::npos);
  CHECK_THROWS_WITH(docgen::splice(doc, "z", ""), Contains("no '<!-- generated: z -->' marker"));
  CHECK_THROWS_WITH(docgen::splice("<!-- generated: a -->\nx\n", "a", ""), Contains("has no"));
  CHECK_THROWS_WITH(docgen::splice("<!-- generated: a -->\n<!-- generated: b -->\n<!-- end generated: a -->\n"
                                   "<!-- end generated: b -->\n",
                                   "a", ""),
                    Contains("contains another block"));
}

TEST_CASE("the key tables come from the parameter table and the base preset's text", "[docgen]") {
  const std::string base = read(kRoot + "/configs/arch2201.yaml");
  const std::string table = docgen::config_keys(preset_from(base), {});
  for (const auto& p : config::params()) CHECK_THAT(table, Contains("| `" + p.key + "` |"));
  CHECK_THAT(table,
             Contains("| `buffers.l1_bytes` | `524288` | bytes | 32 .. 1073741824 (1 GiB), a multiple of "
                      "32 (integer) | L1 size (A1/B1) |"));
  CHECK_THAT(table, Contains("[perf](sources.md#perf)"));
  CHECK_THAT(table, Contains("| `clock_mhz` | `1850` | MHz |"));

  // A key a SoC preset sets points to the SoC table.
  const std::string soc =
      "base: " + kRoot + "/configs/arch2201.yaml\nclock_mhz: 1800  # the SoC's [platform]\n";
  docgen::Preset b = preset_from(soc);
  b.name = "ascend910b2";
  const std::string both = docgen::config_keys(preset_from(base), {b});
  CHECK_THAT(both, Contains("| `clock_mhz` | `1850` (per SoC: [SoC presets](#soc-presets)) | MHz |"));
  CHECK_THAT(both, Contains("| `cube.head_cycles` | `55` |"));
  const std::string socs = docgen::soc_presets({b});
  CHECK_THAT(socs, Contains("| preset | `clock_mhz` |\n|---|---|\n| `ascend910b2` | 1800 |\n"));
  CHECK_THAT(socs, Contains("* `ascend910b2`: `clock_mhz` the SoC's [platform](sources.md#platform).\n"));
}

TEST_CASE("the key tables refuse a preset text that disagrees with the loaded preset", "[docgen]") {
  const std::string base = read(kRoot + "/configs/arch2201.yaml");
  docgen::Preset p = preset_from(base);
  p.text.keys.erase("cube.head_cycles");
  CHECK_THROWS_WITH(docgen::config_keys(p, {}), Contains("has no line for key 'cube.head_cycles'"));
  p = preset_from(base);
  p.text.keys.at("cube.head_cycles").value = "5";
  CHECK_THROWS_WITH(docgen::config_keys(p, {}), Contains("is not the loaded value of cube.head_cycles"));
  docgen::Preset soc = preset_from("base: " + kRoot + "/configs/arch2201.yaml\nclock_mhz: 1800  # x\n");
  soc.text.keys["chip.l3.bytes"] = {"1", "x", 3};
  CHECK_THROWS_WITH(docgen::soc_presets({soc}), Contains("sets 'chip.l3.bytes', which is not a parameter"));
}

TEST_CASE("the instruction tables list every field the parser describes", "[docgen]") {
  const std::string fields = docgen::instruction_fields();
  CHECK_THAT(fields, Contains("### LoadDataWithSparse"));
  CHECK_THAT(fields, Contains("| `srcStride` | u16 | `0` | 0 only |"));
  CHECK_THAT(fields, Contains("| `id` | u8 | **required** | 0..7 |"));
  CHECK_THAT(docgen::instruction_summary(), Contains("| [`SetFlag`](#setflag) |"));
}
