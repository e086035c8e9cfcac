// The study parser in-process: what a valid study becomes (axes, ranges, zip groups, gen cases).
#include <catch2/catch.hpp>

#include "aicore/sweep/study.hpp"

using aicore::sweep::parse_study_text;
using aicore::sweep::Study;
using aicore::sweep::StudyErrors;

namespace {
std::vector<std::string> texts(const std::vector<aicore::sweep::Scalar>& v) {
  std::vector<std::string> out;
  for (const auto& s : v) out.push_back(s.text);
  return out;
}
}  // namespace

TEST_CASE("grid keys are axes in file order, zip groups one axis each", "[sweep][parse]") {
  const Study s = parse_study_text(
      "traces: a.trace\n"
      "grid:\n  b.x: [1, 2]\n  a.y: [3, 4, 5]\n"
      "zip:\n  - {c.p: [1, 2], c.q: [3, 4]}\n  - {d.r: [7]}\n"
      "set:\n  e.s: 9\n",
      "dir/s.yaml");
  CHECK(s.name == "s");
  CHECK(s.dir == "dir");
  CHECK(texts(s.traces) == std::vector<std::string>{"a.trace"});
  CHECK(texts(s.configs) == std::vector<std::string>{"atlas-a2"});  // the default
  REQUIRE(s.axes.size() == 4);
  CHECK(s.axes[0].keys[0].text == "b.x");
  CHECK(s.axes[1].keys[0].text == "a.y");
  CHECK(s.axes[1].size() == 3);
  CHECK(s.axes[2].zip);
  CHECK(texts(s.axes[2].keys) == std::vector<std::string>{"c.p", "c.q"});
  CHECK(texts(s.axes[2].values[1]) == std::vector<std::string>{"3", "4"});
  CHECK(s.axes[3].size() == 1);
  REQUIRE(s.sets.size() == 1);
  CHECK(s.sets[0].first.text == "e.s");
  CHECK(s.sets[0].second.loc.str() == "dir/s.yaml:9:8");
  CHECK(s.axes[1].values[0][2].loc.str() == "dir/s.yaml:4:15");
}

TEST_CASE("ranges expand to their values", "[sweep][parse]") {
  const Study s = parse_study_text(
      "traces: a.trace\ngrid:\n  k.a: {from: 32, to: 256, times: 2}\n  k.b: {from: 0, to: 1, step: 0.25}\n"
      "  k.c: {from: 10, to: 35, step: 10}\n",
      "s.yaml");
  REQUIRE(s.axes.size() == 3);
  CHECK(texts(s.axes[0].values[0]) == std::vector<std::string>{"32", "64", "128", "256"});
  CHECK(texts(s.axes[1].values[0]) == std::vector<std::string>{"0", "0.25", "0.5", "0.75", "1"});
  CHECK(texts(s.axes[2].values[0]) == std::vector<std::string>{"10", "20", "30"});
}

TEST_CASE("gen blocks expand to every combination, with columns for what varies", "[sweep][parse]") {
  const Study s = parse_study_text(
      "gen:\n  shape: [[64, 128, 64], [128, 256, 128]]\n  kind: [sparse, dense]\n  tile: [default, [64, 128, "
      "64]]\n",
      "s.yaml");
  REQUIRE(s.gen.size() == 8);
  CHECK(s.gen[0].name == "sparse_64x128x64");
  CHECK(s.gen[1].name == "sparse_64x128x64_t64x128x64");
  CHECK(s.gen[1].tile_k == 128);
  CHECK(s.gen[2].name == "dense_64x128x64");
  CHECK(s.gen_swept == std::vector<std::string>{"gen.shape", "gen.kind", "gen.tile"});
  const Study one = parse_study_text("gen:\n  shape: [64, 128, 64]\n  seed: 7\n", "s.yaml");
  REQUIRE(one.gen.size() == 1);
  CHECK(one.gen[0].name == "sparse_64x128x64_s7");
  CHECK(one.gen_swept.empty());
}

TEST_CASE("every structural problem of a study is reported, not just the first", "[sweep][parse]") {
  try {
    parse_study_text("tracs: a\nconfig: {}\ngrid: [1]\nzip: 3\n", "s.yaml");
    FAIL("no error");
  } catch (const StudyErrors& e) {
    REQUIRE(e.messages().size() == 5);
    CHECK(e.messages()[0] ==
          "s.yaml:1:1: error: unknown study key 'tracs'; did you mean 'traces'? (keys: name, "
          "traces, gen, config, timing_only, timeout, set, grid, zip, run_args)");
    CHECK(e.messages()[1] ==
          "s.yaml:2:9: error: config must be one value or a list of values, not a mapping");
    CHECK(e.messages()[2] == "s.yaml:3:7: error: grid must be a mapping of config keys, not a list");
    CHECK(e.messages()[3].rfind("s.yaml:4:6: error: zip must be a mapping", 0) == 0);
    CHECK(e.messages()[4].rfind("s.yaml:1:1: error: the study names nothing to run", 0) == 0);
  }
}
