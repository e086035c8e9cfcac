// SignalTracker from synthetic callbacks: pipes reporting out of step still give batches in
// time order, the heap stays small, windows start with the values holding at their first
// cycle, flags and queues count, and a broken timing contract is counted, not hidden.
#include <catch2/catch.hpp>
#include <deque>
#include <map>

#include "aicore/report/signals.hpp"

using aicore::isa::Pipe;
using namespace aicore;
using report::SignalTracker;

namespace {

struct Batch {
  uint64_t cycle;
  std::map<std::string, uint64_t> values;  // "MTE2.busy" -> value
  bool initial;
};

class Recorder : public report::SignalSink {
 public:
  std::vector<Batch> batches;
  const SignalTracker* tracker = nullptr;
  explicit Recorder(const SignalTracker* t = nullptr) : tracker(t) {}
  void on_values(uint64_t cycle, const std::vector<report::SignalValue>& values, bool initial) override {
    Batch b{cycle, {}, initial};
    for (const auto& v : values) {
      const auto& s = tracker->signals()[v.signal];
      b.values[s.scope + "." + s.name] = v.value;
    }
    batches.push_back(b);
  }
};

struct Feed {
  SignalTracker t;
  Recorder rec{&t};
  std::deque<isa::Instruction> instrs;  // records point into it
  explicit Feed(report::CycleWindow w = {}, bool waves = true) : t(w, waves) { t.add_sink(rec); }
  void run(Pipe p, isa::Op op, uint64_t index, uint64_t issue, uint64_t start, uint64_t busy_end,
           uint64_t bytes = 0) {
    if (p != Pipe::S) {
      t.on_queue(isa::CoreId{}, p, issue, +1);
      t.on_queue(isa::CoreId{}, p, start, -1);
    }
    instrs.push_back(isa::Instruction{op, index, static_cast<uint32_t>(index + 1)});
    model::InstrRecord r;
    r.instr = &instrs.back();
    r.pipe = p;
    r.issue_cycle = issue;
    r.start_cycle = start;
    r.busy_end = busy_end;
    r.end_cycle = busy_end;
    r.bytes = bytes;
    t.on_instruction(r);
  }
};

isa::Op copy() {
  return isa::DataCopy{};
}
isa::Op mmad() {
  return isa::Mmad{};
}

}  // namespace

TEST_CASE("changes leave in time order although pipes report out of step", "[report][signals]") {
  Feed f;
  f.t.on_queue(isa::CoreId{}, Pipe::MTE2, 0, +1);
  f.t.on_queue(isa::CoreId{}, Pipe::M, 1, +1);
  // The Cube reports first although the MTE2 copy started earlier: nothing may leave yet.
  f.t.on_queue(isa::CoreId{}, Pipe::M, 50, -1);
  f.instrs.push_back(isa::Instruction{mmad(), 1, 2});
  model::InstrRecord m;
  m.instr = &f.instrs.back();
  m.pipe = Pipe::M;
  m.issue_cycle = 1;
  m.start_cycle = 50;
  m.busy_end = m.end_cycle = 80;
  f.t.on_instruction(m);
  CHECK(f.rec.batches.empty());
  f.t.on_queue(isa::CoreId{}, Pipe::MTE2, 0, -1);
  f.instrs.push_back(isa::Instruction{copy(), 0, 1});
  model::InstrRecord c = m;
  c.instr = &f.instrs.back();
  c.pipe = Pipe::MTE2;
  c.issue_cycle = 0;
  c.start_cycle = 0;
  c.busy_end = c.end_cycle = 100;
  c.bytes = 1000;
  f.t.on_instruction(c);
  f.t.finish(100);
  REQUIRE(f.rec.batches.size() == 5);
  const uint64_t cycles[] = {0, 1, 50, 80, 100};
  for (size_t i = 0; i < 5; ++i) CHECK(f.rec.batches[i].cycle == cycles[i]);
  const Batch& first = f.rec.batches[0];
  CHECK(first.initial);
  CHECK(first.values.at("MTE2.busy") == 1);
  CHECK(first.values.at("MTE2.instr_index") == 0);
  CHECK(first.values.at("MTE2.queue_depth") == 0);  // in and out at cycle 0
  CHECK(first.values.at("CUBE.instr_index") == report::kUnknown);
  CHECK(report::real_value(first.values.at("paths.GM_to_L1")) == 10.0);
  CHECK(f.rec.batches[1].values == std::map<std::string, uint64_t>{{"CUBE.queue_depth", 1}});
  CHECK(f.rec.batches[2].values.at("CUBE.busy") == 1);
  CHECK(f.rec.batches[2].values.at("CUBE.queue_depth") == 0);
  CHECK(f.rec.batches[3].values.at("CUBE.busy") == 0);
  CHECK(f.rec.batches[4].values.at("MTE2.busy") == 0);
  CHECK(f.t.late_changes() == 0);
}

TEST_CASE("back-to-back instructions keep busy high and change only the index", "[report][signals]") {
  Feed f;
  f.run(Pipe::MTE2, copy(), 0, 0, 0, 10, 100);
  f.run(Pipe::MTE2, copy(), 1, 0, 10, 30, 100);
  f.t.finish(30);
  REQUIRE(f.rec.batches.size() == 3);
  CHECK(f.rec.batches[1].cycle == 10);
  CHECK(f.rec.batches[1].values.count("MTE2.busy") == 0);
  CHECK(f.rec.batches[1].values.at("MTE2.instr_index") == 1);
  CHECK(report::real_value(f.rec.batches[1].values.at("paths.GM_to_L1")) == 5.0);
}

TEST_CASE("the held changes stay bounded over a long run", "[report][signals]") {
  Feed f;
  size_t most = 0;
  // Issue trails start by a few instructions, as a bounded queue makes it.
  for (uint64_t i = 0; i < 20000; ++i) {
    const uint64_t issue = i >= 4 ? 10 * (i - 4) : 0;
    f.run(i % 2 ? Pipe::M : Pipe::MTE2, i % 2 ? mmad() : copy(), i, issue, 10 * i, 10 * i + 15, 64);
    most = std::max(most, f.t.held());
  }
  f.t.finish(200100);
  CHECK(most < 64);
  CHECK(f.t.late_changes() == 0);
  for (size_t i = 1; i < f.rec.batches.size(); ++i)
    REQUIRE(f.rec.batches[i].cycle > f.rec.batches[i - 1].cycle);
}

TEST_CASE("a window starts with the values holding at its first cycle and drops what follows",
          "[report][signals]") {
  Feed f(report::CycleWindow{100, 200});
  f.run(Pipe::MTE2, copy(), 0, 0, 50, 150, 100);
  f.run(Pipe::MTE2, copy(), 1, 1, 150, 250, 100);
  f.run(Pipe::MTE2, copy(), 2, 2, 250, 300, 100);
  f.t.finish(300);
  REQUIRE(f.rec.batches.size() == 2);
  CHECK(f.rec.batches[0].initial);
  CHECK(f.rec.batches[0].cycle == 100);
  CHECK(f.rec.batches[0].values.at("MTE2.busy") == 1);
  CHECK(f.rec.batches[0].values.at("MTE2.instr_index") == 0);
  CHECK(f.rec.batches[1].cycle == 150);
  CHECK(f.rec.batches[1].values.at("MTE2.instr_index") == 1);
}

TEST_CASE("a window with no change inside still gets its initial values", "[report][signals]") {
  Feed f(report::CycleWindow{20, 30});
  f.run(Pipe::MTE2, copy(), 0, 0, 0, 100, 100);
  f.t.finish(100);
  REQUIRE(f.rec.batches.size() == 1);
  CHECK(f.rec.batches[0].cycle == 20);
  CHECK(f.rec.batches[0].values.at("MTE2.busy") == 1);
}

TEST_CASE("flags count pending sets, a change for a released cycle is counted late",
          "[report][signals][sync]") {
  Feed f;
  const isa::EventPair e{Pipe::MTE2, Pipe::MTE1};
  f.t.on_flag(model::FlagEvent{isa::CoreId{}, e, 3, 10, true, 0, 0});
  f.t.on_flag(model::FlagEvent{isa::CoreId{}, e, 3, 15, true, 1, 1});
  f.t.on_flag(model::FlagEvent{isa::CoreId{}, e, 3, 20, false, 2, 0});
  f.t.on_flag(model::FlagEvent{isa::CoreId{}, e, 3, 30, false, 3, 1});
  f.t.on_queue(isa::CoreId{}, Pipe::MTE2, 40, +1);  // issue reached 40: everything before is final
  f.t.on_flag(model::FlagEvent{isa::CoreId{}, e, 3, 35, true, 4, 4});  // too late
  f.t.finish(50);
  CHECK(f.t.late_changes() == 1);
  std::vector<std::pair<uint64_t, uint64_t>> got;
  for (const auto& b : f.rec.batches)
    if (b.values.count("flags.MTE2_MTE1_3")) got.emplace_back(b.cycle, b.values.at("flags.MTE2_MTE1_3"));
  CHECK(got == std::vector<std::pair<uint64_t, uint64_t>>{{0, 0}, {10, 1}, {30, 0}, {40, 1}});
}

TEST_CASE("without waves only queue depths and paths are tracked", "[report][signals]") {
  SignalTracker t({}, false);
  // 5 queues, 6 paths, and the two GM paths' L2 hit rate and HBM rate.
  CHECK(t.signals().size() == 5 + 6 + 4);
  CHECK(t.signals()[static_cast<size_t>(t.l2_signal(report::Path::GmToL1, true))].name == "GM_to_L1_HBM");
  CHECK(t.signals()[static_cast<size_t>(t.l2_signal(report::Path::L0CToGm, false))].name ==
        "L0C_to_GM_hit_rate");
  CHECK(t.l2_signal(report::Path::L1ToL0A, false) < 0);
  CHECK(t.queue_signal(Pipe::S) < 0);
  CHECK(t.queue_signal(Pipe::MTE1) >= 0);
  CHECK(t.signals()[static_cast<size_t>(t.path_signal(report::Path::L0CToGm))].name == "L0C_to_GM");
}
