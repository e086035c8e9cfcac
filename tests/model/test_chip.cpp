// The chip model driven by programmatic sources (model/source.hpp): no trace files. SystemC
// elaborates one model per process; catch_discover_tests runs each TEST_CASE in its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>

#include "aicore/config/loader.hpp"
#include "aicore/model/chip.hpp"

using namespace aicore;
using isa::Space;

namespace {

// The published figures with calibration off (tests/published.yaml): the rules under test, not the
// fitted preset numbers.
config::Config preset(const std::vector<std::string>& sets = {}) {
  return config::load(AICORE_TEST_CONFIG, sets, config::default_configs_dir());
}

isa::Instruction at_line(isa::Op op, uint32_t line) {
  isa::Instruction in;
  in.op = std::move(op);
  in.line = line;
  in.file = intern_source_file("prog.cpp");
  return in;
}

isa::Mmad mmad(uint64_t dst, uint16_t m, uint16_t n, uint16_t k, bool init = true) {
  isa::Mmad op;
  op.dst = {Space::L0C, 0, dst};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = m;
  op.n = n;
  op.k = k;
  op.cmatrixInitVal = init;
  return op;
}

isa::Fixpipe fixpipe(uint32_t tensor, uint64_t src, uint16_t m, uint16_t n) {
  isa::Fixpipe op;
  op.dst = {Space::GM, tensor, 0};
  op.src = {Space::L0C, 0, src};
  op.mSize = m;
  op.nSize = n;
  op.srcStride = static_cast<uint16_t>((m + 15) / 16 * 16);
  op.dstStride = n;
  return op;
}

isa::DataCopy copy(uint32_t tensor, uint16_t blocks) {
  isa::DataCopy op;
  op.dst = {Space::L1, 0, 0};
  op.src = {Space::GM, tensor, 0};
  op.blockLen = blocks;
  return op;
}

model::TensorDecl tensor(const std::string& name, uint64_t bytes, const std::string& key = "",
                         uint8_t fill = 0) {
  model::TensorDecl d;
  d.name = name;
  d.bytes = bytes;
  d.content_key = key;
  if (!key.empty()) d.load = [bytes, fill](uint8_t* dst) { std::memset(dst, fill, bytes); };
  d.loc = SourceLoc{name + ".src", 1, 1};
  return d;
}

// Every record with its (core, instruction index); the instruction itself is not kept.
struct Keyed : model::Observer {
  std::vector<model::InstrRecord> rows;
  std::vector<std::pair<uint16_t, uint64_t>> keys;
  void on_instruction(const model::InstrRecord& r) override {
    rows.push_back(r);
    keys.emplace_back(r.core.value, r.instr->index);
  }
  const model::InstrRecord& of(uint16_t core, uint64_t index) const {
    for (size_t i = 0; i < rows.size(); ++i)
      if (keys[i] == std::make_pair(core, index)) return rows[i];
    FAIL("no record of core " << core << " instruction " << index);
    return rows.front();
  }
};

}  // namespace

TEST_CASE("chip: Fixpipe drains one L0C half while an accumulating Mmad fills the other",
          "[model][chip][l0c]") {
  // The trace of the model-layer issue, built in C++: Fixpipe must not wait for the later Mmads.
  model::ProgramSource src(
      {tensor("c", 65536)},
      {at_line(mmad(0, 16, 16, 32), 2), at_line(isa::SetFlag{{isa::Pipe::M, isa::Pipe::FIX}, 0}, 3),
       at_line(mmad(0x10000, 128, 128, 256), 4), at_line(mmad(0x10000, 128, 128, 256, false), 5),
       at_line(isa::WaitFlag{{isa::Pipe::M, isa::Pipe::FIX}, 0}, 6), at_line(fixpipe(0, 0, 16, 16), 7)});
  model::Chip chip(preset(), {&src}, true);
  Keyed rec;
  chip.add_observer(&rec);
  const model::ChipSummary s = chip.run();
  REQUIRE(s.completed);
  const auto& fix = rec.of(0, 5);
  CHECK(fix.start_cycle == 7);
  CHECK(fix.busy_end == 7 + 20 + 8);         // the head, then max(256 el / 64, 1024 B / 128 B) = 8
  CHECK(fix.end_cycle == 7 + 20 + 8 + 300);  // + the GM write latency
  CHECK(fix.wait_cycles == 0);
  // The accumulating Mmad after the first big one: that one starts at 6, one cycle after the
  // first Mmad ended (the SetFlag between them), so it pays 1 of the 4 head cycles: 6 + 1 + 512.
  CHECK(rec.of(0, 3).start_cycle == 519);
}

TEST_CASE("chip: a contended L0C bank serves requests in time order", "[model][chip][l0c]") {
  // One bank: a Fixpipe reading it from cycle 1 for 128 cycles (8192 elements / 64) holds the
  // read port; an accumulating Mmad (which reads L0C) asking at cycle 2 waits until 129.
  model::ProgramSource src({tensor("c", 1 << 20)},
                           {at_line(fixpipe(0, 0, 64, 128), 1), at_line(mmad(0x8000, 16, 16, 32, false), 2)});
  model::Chip chip(preset({"buffers.l0c_banks=1"}), {&src}, true);
  Keyed rec;
  chip.add_observer(&rec);
  REQUIRE(chip.run().completed);
  CHECK(rec.of(0, 0).start_cycle == 0);
  const auto& mm = rec.of(0, 1);
  CHECK(mm.start_cycle == 128);
  CHECK(mm.wait_cycles == 127);
  CHECK(mm.wait_cause == model::WaitCause::Port);
}

TEST_CASE("chip: with 16 banks the same two touch different banks and overlap", "[model][chip][l0c]") {
  model::ProgramSource src({tensor("c", 1 << 20)}, {at_line(fixpipe(0, 0, 64, 128), 1),
                                                    at_line(mmad(0x10000, 16, 16, 32, false), 2)});
  model::Chip chip(preset(), {&src}, true);
  Keyed rec;
  chip.add_observer(&rec);
  REQUIRE(chip.run().completed);
  CHECK(rec.of(0, 1).start_cycle == 1);
  CHECK(rec.of(0, 1).wait_cycles == 0);
}

TEST_CASE("chip: a name two cores declare is one tensor whose sizes must agree", "[model][chip][gm]") {
  model::ProgramSource a({tensor("x", 4096, "file-a", 7)}, {at_line(copy(0, 1), 1)});
  model::ProgramSource b({tensor("x", 8192)}, {at_line(copy(0, 1), 1)});
  model::Chip chip(preset(), {&a, &b}, false);
  const model::ChipSummary s = chip.run();
  REQUIRE(s.input_error);
  CHECK(std::string(s.input_error->what()) ==
        "x.src:1:1: error: .gm x: size 8192 differs from the 4096 bytes it was declared with (declared at "
        "x.src:1:1 and at x.src:1:1); a name several cores declare is one shared tensor");
}

TEST_CASE("chip: two data files for one tensor must hold identical bytes", "[model][chip][gm]") {
  model::ProgramSource a({tensor("x", 4096, "a.bin", 7)}, {at_line(copy(0, 1), 1)});
  model::ProgramSource b({tensor("x", 4096, "b.bin", 8)}, {at_line(copy(0, 1), 1)});
  model::Chip chip(preset(), {&a, &b}, false);
  const model::ChipSummary s = chip.run();
  REQUIRE(s.input_error);
  CHECK(std::string(s.input_error->what()).find(".gm x: data file b.bin differs from a.bin") !=
        std::string::npos);
}

TEST_CASE("chip: identical data under two names of file, or data given by one core only, is fine",
          "[model][chip][gm]") {
  model::ProgramSource a({tensor("x", 4096, "a.bin", 7), tensor("y", 64)}, {at_line(copy(0, 1), 1)});
  model::ProgramSource b({tensor("x", 4096, "copy-of-a.bin", 7), tensor("y", 64, "y.bin", 9)},
                         {at_line(copy(0, 1), 1)});
  model::Chip chip(preset(), {&a, &b}, false);
  const model::ChipSummary s = chip.run();
  REQUIRE(s.completed);
  REQUIRE(chip.tensors().size() == 2);
  CHECK(a.chip_ids() == b.chip_ids());
  CHECK(chip.tensor_data(0)[4095] == 7);
  CHECK(chip.tensor_data(1)[0] == 9);  // core 1 gave y its data before any core ran
}

TEST_CASE("chip: more cores than chip.cores is bad input", "[model][chip]") {
  model::ProgramSource a({}, {}), b({}, {});
  try {
    model::Chip chip(preset({"chip.cores=1"}), {&a, &b}, true);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("the kernel uses 2 cores but chip.cores = 1") != std::string::npos);
  }
}

TEST_CASE("chip: two cores share the chip's HBM bandwidth", "[model][chip][gm]") {
  // Each core copies 16 KiB of its own tensor at its 150 B/cycle path rate; alone that takes
  // ceil(16384/150) = 110. Every line misses the L2, so an HBM bandwidth of 200 gives each 100
  // B/cycle: 164 cycles.
  model::ProgramSource a({tensor("x", 65536)}, {at_line(copy(0, 512), 1)});
  model::ProgramSource b({tensor("y", 65536)}, {at_line(copy(0, 512), 1)});
  model::Chip chip(preset({"chip.hbm.bytes_per_cycle=200"}), {&a, &b}, true);
  Keyed rec;
  chip.add_observer(&rec);
  const model::ChipSummary s = chip.run();
  REQUIRE(s.completed);
  CHECK(rec.of(0, 0).busy_end == 164);
  CHECK(rec.of(1, 0).busy_end == 164);
  CHECK(rec.of(0, 0).port_stall_cycles == 164 - 110);
  CHECK(s.cores.size() == 2);
  CHECK(s.cores[0].pipes[static_cast<size_t>(isa::Pipe::MTE2)].busy_cycles == 110);
  CHECK(s.cores[0].pipes[static_cast<size_t>(isa::Pipe::MTE2)].stall_cycles == 54);
  CHECK(rec.of(0, 0).l2_misses == 32);  // 16 KiB in 512-byte lines
  CHECK(rec.of(0, 0).hbm_bytes == 16384);
  CHECK(s.l2.counts.read_misses == 64);
  CHECK(s.cores[1].l2.hbm_read_bytes == 16384);
}

TEST_CASE("chip: issue events come at once, per core in program order, each before its instruction's record",
          "[model][chip][observer]") {
  // Two cores of GM copies (core 1's longer): the scalar units run ahead of the pipes, so issue
  // events are handed over as they happen, not held back into the time order of the rest.
  std::vector<isa::Instruction> p0, p1;
  for (uint32_t i = 0; i < 40; ++i) p0.push_back(at_line(copy(0, 16), i + 1));
  for (uint32_t i = 0; i < 25; ++i) p1.push_back(at_line(copy(0, 64), i + 1));
  model::ProgramSource a({tensor("x", 65536)}, p0), b({tensor("x", 65536)}, p1);
  model::Chip chip(preset(), {&a, &b}, false);
  struct Seen : model::Observer {
    Seen() { wants_issue_ = true; }
    struct Event {
      bool issue;
      uint16_t core;
      uint64_t index, cycle;
    };
    std::vector<Event> events;
    void on_issue(const model::IssueRecord& r) override {
      events.push_back({true, r.core.value, r.instr->index, r.issue_cycle});
    }
    void on_instruction(const model::InstrRecord& r) override {
      events.push_back({false, r.core.value, r.instr->index, r.start_cycle});
    }
  } seen;
  chip.add_observer(&seen);
  REQUIRE(chip.run().completed);
  std::array<uint64_t, 2> next_issue{}, next_record{};
  uint64_t last_start = 0;
  bool ahead = false;  // an issue event came before a record that started earlier than it
  uint64_t latest_issue = 0;
  for (const auto& e : seen.events) {
    if (e.issue) {
      CHECK(e.index == next_issue[e.core]++);  // program order, none missing
      latest_issue = std::max(latest_issue, e.cycle);
    } else {
      CHECK(e.index < next_issue[e.core]);  // after its own issue event
      CHECK(e.index == next_record[e.core]++);
      CHECK(e.cycle >= last_start);  // records keep the time order
      last_start = e.cycle;
      ahead = ahead || e.cycle < latest_issue;
    }
  }
  CHECK(next_issue[0] == 40);
  CHECK(next_issue[1] == 25);
  CHECK(next_record[0] == 40);
  CHECK(next_record[1] == 25);
  CHECK(ahead);
}

namespace {

isa::LoadData load_a(uint64_t l1, uint8_t fractals) {
  isa::LoadData op;
  op.dst = {Space::L0A, 0, 0};
  op.src = {Space::L1, 0, l1};
  op.repeatTimes = fractals;
  op.srcStride = 1;
  return op;
}

// A GM -> L1 copy of `blocks` 32-byte blocks at 128 B/cycle alone (blocks / 4 cycles) and loads
// L1 -> L0A at 256 B/cycle (2 cycles a fractal), every other cost 0; MTE1 reads under a copy at
// `share` of their rate.
config::Config l1_conflict(const std::string& share, const std::string& mte1_interval = "0") {
  return preset({"mte1.share_during_l1_write=" + share, "gm.read.bytes_per_cycle=128",
                 "gm.read.overhead_cycles=0", "gm.read.latency_cycles=0", "gm.read.window_bytes=0",
                 "gm.read.row_cycles=0", "mte1.to_l0a.overhead_cycles=0", "mte1.to_l0a.latency_cycles=0",
                 "issue.min_interval_mte1=" + mte1_interval, "issue.sync_cycles=0", "scalar.data_copy=0",
                 "scalar.load_data=0"});
}

Keyed run_one(const config::Config& cfg, std::vector<isa::Instruction> prog) {
  model::ProgramSource src({tensor("x", 65536)}, std::move(prog));
  model::Chip chip(cfg, {&src}, true);
  Keyed rec;
  chip.add_observer(&rec);
  REQUIRE(chip.run().completed);
  return rec;
}

// Load 0 runs [0, 32) on MTE1 and releases the copy, which starts at 32 (MTE1_MTE2 flag); load 1
// starts at 32 (its copy's first cycle) or, `mte1_interval` = 33 after load 0, at 33.
std::vector<isa::Instruction> copy_after_load() {
  const isa::EventPair e{isa::Pipe::MTE1, isa::Pipe::MTE2};
  return {at_line(load_a(0x10000, 16), 1), at_line(isa::SetFlag{e, 0}, 2), at_line(load_a(0x18000, 1), 3),
          at_line(isa::WaitFlag{e, 0}, 4), at_line(copy(0, 264), 5)};
}

}  // namespace

TEST_CASE("chip: an MTE1 read of L1 that starts while MTE2 copies into L1 runs at mte1.share_during_l1_write",
          "[model][chip][l1]") {
  // Copy issued at 0 runs [0, 66); the load issued at 1 starts at 1, inside it: 16 fractals at half
  // rate, 64 cycles instead of 32.
  model::ProgramSource src({tensor("x", 65536)}, {at_line(copy(0, 264), 1), at_line(load_a(0x10000, 16), 2)});
  model::Chip chip(l1_conflict("0.5"), {&src}, true);
  Keyed rec;
  chip.add_observer(&rec);
  REQUIRE(chip.run().completed);
  CHECK(rec.of(0, 0).start_cycle == 0);
  CHECK(rec.of(0, 0).busy_end == 66);
  CHECK(rec.of(0, 1).start_cycle == 1);
  CHECK(rec.of(0, 1).busy_end == 1 + 64);
}

TEST_CASE("chip: L1 conflict edge: a load starting in its copy's first cycle runs at full rate",
          "[model][chip][l1]") {
  const Keyed r = run_one(l1_conflict("0.5"), copy_after_load());
  REQUIRE(r.of(0, 4).start_cycle == 32);
  CHECK(r.of(0, 2).start_cycle == 32);
  CHECK(r.of(0, 2).busy_end == 32 + 2);
}

TEST_CASE("chip: L1 conflict edge: a load starting a cycle into its copy runs at the share (t-1 / t)",
          "[model][chip][l1]") {
  const Keyed r = run_one(l1_conflict("0.5", "33"), copy_after_load());
  REQUIRE(r.of(0, 4).start_cycle == 32);
  CHECK(r.of(0, 2).start_cycle == 33);
  CHECK(r.of(0, 2).busy_end == 33 + 4);
}

// Load 0 runs [1, 65) at half rate (16 fractals), load 1 starts at 65: a copy of 264 blocks ends
// at 66, one of 260 at 65.
std::vector<isa::Instruction> loads_under(uint16_t blocks) {
  return {at_line(copy(0, blocks), 1), at_line(load_a(0x10000, 16), 2), at_line(load_a(0x18000, 1), 3)};
}

TEST_CASE("chip: L1 conflict edge: a load starting in its copy's last cycle runs at the share",
          "[model][chip][l1]") {
  const Keyed r = run_one(l1_conflict("0.5"), loads_under(264));
  REQUIRE(r.of(0, 0).busy_end == 66);
  CHECK(r.of(0, 2).start_cycle == 65);
  CHECK(r.of(0, 2).busy_end == 65 + 4);
}

TEST_CASE("chip: L1 conflict edge: a load starting in the cycle its copy ends runs at full rate (t-1 / t)",
          "[model][chip][l1]") {
  const Keyed r = run_one(l1_conflict("0.5"), loads_under(260));
  REQUIRE(r.of(0, 0).busy_end == 65);
  CHECK(r.of(0, 1).busy_end == 1 + 64);
  CHECK(r.of(0, 2).start_cycle == 65);
  CHECK(r.of(0, 2).busy_end == 65 + 2);
}

TEST_CASE("chip: L1 conflict: share 1 slows nothing", "[model][chip][l1]") {
  const Keyed r = run_one(l1_conflict("1"), loads_under(264));
  CHECK(r.of(0, 1).busy_end == 1 + 32);
}
