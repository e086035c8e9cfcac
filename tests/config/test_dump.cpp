// to_yaml / to_json, and the parameter table those (and the loader) are driven by.
#include <set>

#include "aicore/config/json.hpp"
#include "helpers.hpp"

using namespace aicore::config;

namespace {

void check_equal(Config a, Config b) {
  for (const Param& p : params()) {
    CAPTURE(p.key);
    CHECK(cfgtest::value_of(p, a) == cfgtest::value_of(p, b));
  }
}

}  // namespace

TEST_CASE("to_yaml round-trips through a file", "[config][dump]") {
  SECTION("both presets") {
    const std::string preset = GENERATE(as<std::string>{}, "atlas-a2", "atlas-a3");
    CAPTURE(preset);
    const Config c = load(preset, {}, default_configs_dir());
    cfgtest::TempFile f(to_yaml(c));
    check_equal(c, load(f.path(), {}, default_configs_dir()));
  }
  SECTION("values that decimal text rounds") {
    const Config c = cfgtest::load_text(cfgtest::kFixture,
                                        {"clock_mhz=1234.5678", "gm.read.bytes_per_cycle=0.1",
                                         "issue.instructions_per_cycle=0.333333333333333314829616256247",
                                         "buffers.gm_max_bytes=68719476736"});
    const std::string yaml = to_yaml(c);
    cfgtest::TempFile f(yaml);
    const Config back = load(f.path(), {}, default_configs_dir());
    check_equal(c, back);
    CHECK(back.issue.instructions_per_cycle == 1.0 / 3.0);
    CHECK(back.buffers.gm_max_bytes == 68719476736ull);
  }
}

TEST_CASE("to_yaml has the preset files' key tree", "[config][dump]") {
  const std::string y = to_yaml(load("atlas-a2", {}, default_configs_dir()));
  CHECK(y.rfind("# aicore-sim resolved configuration: atlas-a2\n", 0) == 0);
  CHECK(y.find("\nclock_mhz: 1850 ") != std::string::npos);
  CHECK(y.find("\ngm:\n  read:\n    bytes_per_cycle: 177.3 ") != std::string::npos);
  CHECK(y.find("\nmte1:\n  to_l0a:\n    bytes_per_cycle: 256 ") != std::string::npos);
  CHECK(y.find("\n  shared_bytes_per_cycle: 256 ") != std::string::npos);
  CHECK(y.find("\n  queue_depth_m: 32 ") != std::string::npos);
  CHECK(y.find("# B/cycle: LoadData L1 -> L0A bandwidth") != std::string::npos);
}

TEST_CASE("to_json mirrors the key tree", "[config][dump]") {
  Config c = load("atlas-a2", {}, default_configs_dir());
  const nlohmann::json j = to_json(c);
  CHECK(j["name"] == "atlas-a2");
  CHECK(j["clock_mhz"] == 1850.0);
  CHECK(j["buffers"]["l1_bytes"] == 524288u);
  CHECK(j["gm"]["read"]["bytes_per_cycle"] == 177.3);
  CHECK(j["mte1"]["sparse"]["latency_cycles"] == 30u);
  CHECK(j["issue"]["queue_depth_mte1"] == 32u);
  for (const Param& p : params()) {
    std::string pointer = "/" + p.key;
    for (char& ch : pointer)
      if (ch == '.') ch = '/';
    CAPTURE(p.key);
    REQUIRE(j.contains(nlohmann::json::json_pointer(pointer)));
    CHECK(j[nlohmann::json::json_pointer(pointer)].get<double>() ==
          static_cast<double>(cfgtest::value_of(p, c)));
  }
  const nlohmann::json implicit = c;  // the ADL to_json overload
  CHECK(implicit == j);
}

TEST_CASE("the parameter table covers Config once per field", "[config][table]") {
  // 92 numeric fields in config.hpp: 1 clock + 17 chip (cores, 13 L2, 3 HBM) + 9 buffers + 13 gm + 13 mte1
  // + 8 cube + 3 fixpipe + 12 issue + 15 scalar + 1 check.
  CHECK(params().size() == 92);
  Config c;
  std::set<const void*> addresses;
  std::set<std::string> keys;
  for (const Param& p : params()) {
    CAPTURE(p.key);
    CHECK(keys.insert(p.key).second);
    CHECK(
        addresses.insert(std::visit([](auto* v) { return static_cast<const void*>(v); }, p.field(c))).second);
    CHECK(p.min <= p.max);
    CHECK_FALSE(p.unit.empty());
    CHECK_FALSE(p.description.empty());
  }
  // Keys of one group are contiguous, or to_yaml would open a group twice.
  for (const std::string& g : groups()) {
    CAPTURE(g);
    int runs = 0;
    bool inside = false;
    for (const Param& p : params()) {
      const bool in = p.key.rfind(g + ".", 0) == 0;
      if (in && !inside) ++runs;
      inside = in;
    }
    CHECK(runs == 1);
  }
  CHECK(children("") == std::vector<std::string>{"clock_mhz", "chip", "buffers", "gm", "mte1", "cube",
                                                 "fixpipe", "issue", "scalar", "check"});
  CHECK(children("gm") == std::vector<std::string>{"read", "write", "shared_bytes_per_cycle"});
  CHECK(is_group("mte1.sparse"));
  CHECK_FALSE(is_group("mte1.sparse.latency_cycles"));
  CHECK(find_param("mte1.sparse.latency_cycles") != nullptr);
}
