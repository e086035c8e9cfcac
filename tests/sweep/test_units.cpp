// The sweep library's small parts: resume hashes, records, the CSV cell rule, stats.json metrics,
// the sensitivity table.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "aicore/sweep/hash.hpp"
#include "aicore/sweep/record.hpp"
#include "aicore/sweep/results.hpp"
#include "aicore/sweep/summary.hpp"

namespace fs = std::filesystem;
using namespace aicore::sweep;

namespace {

struct Dir {
  fs::path path;
  Dir() {
    std::string t = (fs::temp_directory_path() / "aicore-sweep-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~Dir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

}  // namespace

TEST_CASE("Hasher is FNV-1a 64 over length-prefixed strings", "[sweep][hash]") {
  // FNV-1a 64 of the empty input is its offset basis; of "a" a published test vector.
  CHECK(Hasher().hex() == "cbf29ce484222325");
  CHECK(Hasher().add("a", 1).hex() == "af63dc4c8601ec8c");
  CHECK(Hasher().add(std::string("ab")).add(std::string("c")).hex() !=
        Hasher().add(std::string("a")).add(std::string("bc")).hex());
}

TEST_CASE("a trace's hash covers its statements and data files, not its comments", "[sweep][hash]") {
  Dir d;
  d.write("a.bin", "12345678");
  d.write("g.bin", "golden");
  const std::string t =
      d.write("t.trace", ".gm a size=8 file=a.bin\n.expect a file=g.bin\nSetFlag event=M_FIX id=0\n");
  const std::string h = input_hash(t);
  d.write("t.trace",
          "# comment\n.gm a size=8 file=a.bin   # why\n\n.expect a file=g.bin\nSetFlag event=M_FIX id=0\n");
  CHECK(input_hash(t) == h);
  d.write("a.bin", "12345679");
  const std::string h2 = input_hash(t);
  CHECK(h2 != h);
  d.write("g.bin", "golden!");
  CHECK(input_hash(t) != h2);
  d.write("t.trace", ".gm a size=8 file=a.bin\n.expect a file=g.bin\nSetFlag event=M_FIX id=1\n");
  CHECK(input_hash(t) != h2);
  CHECK(input_hash((d.path / "missing.trace").string()) != input_hash(t));
}

TEST_CASE("a manifest's hash covers the files its values name", "[sweep][hash]") {
  Dir d;
  d.write("a.bin", "x");
  d.write("core0.trace", ".gm a size=1 file=a.bin\n");
  const std::string m = d.write("kernel.yaml", "cores:\n  - trace: core0.trace\n    note: not a file\n");
  const std::string h = input_hash(m);
  d.write("a.bin", "y");  // named by a trace the manifest names
  const std::string h2 = input_hash(m);
  CHECK(h2 != h);
  d.write("kernel.yaml", "cores:\n  - trace: core0.trace\n    note: another\n");
  CHECK(input_hash(m) != h2);
  d.write("loop.yaml", "again: loop.yaml\n");  // names itself: hashed once, no endless walk
  CHECK(input_hash((d.path / "loop.yaml").string()).size() == 16);
}

TEST_CASE("CSV cells are quoted only when they must be", "[sweep][results]") {
  CHECK(csv_cell("plain") == "plain");
  CHECK(csv_cell("a,b") == "\"a,b\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("metrics come from stats.json's top-level fields; stalls are summed over pipes",
          "[sweep][record]") {
  const auto st = nlohmann::json::parse(R"({
    "cycles": 100, "time_us": 0.05, "instructions": 7, "summary": {"bound_pipe": "MTE2"},
    "pipes": {"MTE2": {"busy_cycles": 90, "busy_ratio": 0.9, "wait_cycles": {"flag": 3, "port": 1}},
              "M": {"busy_ratio": 0.5, "wait_cycles": {"flag": 4}}},
    "cube": {"mac_utilisation": 0.25}, "paths": {"GM->L1": {"bytes": 4096}},
    "cores": [{"cycles": 100}]})");
  const auto m = metrics_from_stats(st);
  CHECK(m["cycles"] == 100);
  CHECK(m["bound_pipe"] == "MTE2");
  CHECK(m["busy_ratio.MTE2"] == 0.9);
  CHECK(m["busy_cycles.MTE2"] == 90);
  CHECK_FALSE(m.contains("busy_cycles.M"));  // absent from its stats.json: left out
  CHECK(m["stall_cycles.flag"] == 7);
  CHECK(m["stall_cycles.port"] == 1);
  CHECK(m["mac_utilisation"] == 0.25);
  CHECK(m["bytes.GM->L1"] == 4096);
  CHECK_FALSE(m.contains("cores"));
  CHECK(metrics_from_stats(nlohmann::json::parse(R"({"cycles": "x", "pipes": 3})")).empty());
}

TEST_CASE("records round-trip through point.json; crashes and timeouts are not final", "[sweep][record]") {
  Dir d;
  Record r;
  r.id = "0123456789abcdef";
  r.status = Status::Fault;
  r.exit_code = 3;
  r.message = "t.trace:3: LoadData: out-of-bounds";
  r.values = {{"cube.head_cycles", "4"}};
  r.metrics = {{"cycles", 822}};
  write_record(d.path.string(), r);
  const auto back = read_record(d.path.string());
  REQUIRE(back);
  CHECK(back->status == Status::Fault);
  CHECK(back->message == r.message);
  CHECK(back->metrics["cycles"] == 822);
  CHECK(is_final(*back));
  r.status = Status::Timeout;
  CHECK_FALSE(is_final(r));
  r.status = Status::Crashed;
  CHECK_FALSE(is_final(r));
  d.write("point.json", "{\"id\": 3}");
  CHECK_FALSE(read_record(d.path.string()));
  for (const char* s : {"ok", "mismatch", "bad_input", "fault", "check_error", "crashed", "timeout"})
    CHECK(to_string(*status_from_string(s)) == std::string(s));
}

TEST_CASE("sensitivity: the spread of mean cycles across a key's values", "[sweep][summary]") {
  Plan plan;
  plan.swept = {"a", "b"};
  Table t;
  // cycles = 100 * a + b: a moves the mean from 110 to 310, b from 200 to 220.
  for (int a : {1, 3})
    for (int b : {0, 20})
      t.rows.push_back(
          {{"status", "ok"}, {"cycles", 100 * a + b}, {"a", std::to_string(a)}, {"b", std::to_string(b)}});
  t.rows.push_back({{"status", "fault"}, {"cycles", 1}, {"a", "9"}, {"b", "0"}});  // not counted
  const auto s = sensitivities(plan, t);
  REQUIRE(s.size() == 2);
  CHECK(s[0].values == 2);
  CHECK(s[0].low == 110);
  CHECK(s[0].low_at == "1");
  CHECK(s[0].high == 310);
  CHECK(s[0].spread() == Approx(200.0 / 110));
  CHECK(s[1].low == 200);
  CHECK(s[1].high == 220);
  CHECK(s[1].high_at == "20");
}
