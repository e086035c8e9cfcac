// Dispatcher: events reach the observers in (now, arrival) order, each as soon as it is final
// (below every source's horizon) and not before. Checked against a plain reference (what is
// held in an ordered map) on random streams, small windows and deep ones alike.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "aicore/model/dispatch.hpp"

using namespace aicore;
using model::Dispatcher;
using model::FlagEvent;
using model::InstrRecord;

namespace {

struct Source : model::TimeSource {
  uint64_t h = 0;
  uint64_t horizon() const override { return h; }
};

// What an observer saw: kind, then the fields that identify the event.
using Seen = std::tuple<char, uint64_t, uint64_t, uint64_t, int64_t>;

struct Recorder : model::Observer {
  explicit Recorder(bool queue) { wants_queue_ = queue; }
  std::vector<Seen> seen;
  void on_instruction(const InstrRecord& r) override {
    // The instruction is the one reported, alive during the callback.
    seen.emplace_back('I', r.start_cycle, r.instr->index, r.issue_cycle + r.instr->line,
                      static_cast<int64_t>(r.bytes));
  }
  void on_flag(const FlagEvent& e) override {
    seen.emplace_back('F', e.cycle, e.instr_index, e.set_index, e.set ? 1 : 0);
  }
  void on_queue(isa::CoreId, isa::Pipe pipe, uint64_t cycle, int delta) override {
    seen.emplace_back('Q', cycle, static_cast<uint64_t>(pipe), 0, delta);
  }
};

// The specification, spelled out: deliver at once when final and earlier than everything
// held; otherwise hold; then pass on, in (now, seq) order, everything held below the horizon.
struct Reference {
  std::map<std::pair<uint64_t, uint64_t>, Seen> held;  // by (now, seq)
  std::vector<Seen> seen, seen_no_queue;
  uint64_t seq = 0;

  void emit(const Seen& s) {
    seen.push_back(s);
    if (std::get<0>(s) != 'Q') seen_no_queue.push_back(s);
  }
  void event(uint64_t now, uint64_t h, const Seen& s) {
    if (now < h && (held.empty() || now < held.begin()->first.first)) {
      ++seq;
      emit(s);
    } else {
      held.emplace(std::make_pair(now, seq++), s);
    }
    release(h);
  }
  void release(uint64_t h) {
    while (!held.empty() && held.begin()->first.first < h) {
      emit(held.begin()->second);
      held.erase(held.begin());
    }
  }
};

// Random stream: `sources` threads whose horizons creep up; events at or after the smallest
// horizon, spread over `spread` cycles (the window); queue events made as the model makes them
// (cycle == now, delta +-1) and otherwise.
void run_random(uint32_t seed, int sources, uint64_t spread, int events) {
  std::mt19937_64 rng(seed);
  std::vector<Source> src(static_cast<size_t>(sources));
  Dispatcher d;
  Recorder all(true), no_queue(false);
  d.add_observer(&all);
  d.add_observer(&no_queue);
  for (Source& s : src) d.add_source(&s);
  REQUIRE(d.active());
  REQUIRE(d.wants_queue());
  Reference ref;
  auto horizon = [&] {
    uint64_t h = UINT64_MAX;
    for (const Source& s : src) h = std::min(h, s.h);
    return h;
  };
  for (int i = 0; i < events; ++i) {
    // Move one thread's clock ahead (sometimes far, sometimes finish it for a while).
    Source& s = src[rng() % src.size()];
    const uint64_t r = rng() % 100;
    if (r < 60)
      s.h += rng() % 4;
    else if (r < 62)
      s.h += spread;
    const uint64_t h = horizon();
    const uint64_t base = h == UINT64_MAX ? 0 : h;
    uint64_t now = base + (spread ? rng() % spread : 0);
    if (rng() % 50 == 0 && now > 0) now -= rng() % std::min<uint64_t>(now, 8) + 1;  // even an early one
    const uint64_t kind = rng() % 4;
    if (kind == 0) {
      isa::Instruction instr;
      instr.index = static_cast<uint64_t>(i);
      instr.line = static_cast<uint32_t>(rng() % 1000);
      InstrRecord rec;
      rec.instr = &instr;
      rec.start_cycle = now;
      rec.issue_cycle = now - std::min<uint64_t>(now, rng() % 5);
      rec.bytes = rng() % 4096;
      d.instruction(rec);
      ref.event(now, h,
                Seen('I', now, instr.index, rec.issue_cycle + instr.line, static_cast<int64_t>(rec.bytes)));
      instr.index = ~0ull;  // the dispatcher kept its own copy if it held the event
    } else if (kind == 1) {
      FlagEvent f;
      f.cycle = now + rng() % 3;
      f.instr_index = static_cast<uint64_t>(i);
      f.set_index = rng() % 100;
      f.set = rng() % 2;
      d.flag(f, now);
      ref.event(now, h, Seen('F', f.cycle, f.instr_index, f.set_index, f.set ? 1 : 0));
    } else {
      const auto pipe = static_cast<isa::Pipe>(rng() % isa::kPipeCount);
      const bool usual = rng() % 8 != 0;
      const uint64_t cycle = usual ? now : now + rng() % 10;
      const int delta = usual ? (rng() % 2 ? 1 : -1) : static_cast<int>(rng() % 5) - 2;
      d.queue(isa::CoreId{}, pipe, cycle, delta, now);
      ref.event(now, h, Seen('Q', cycle, static_cast<uint64_t>(pipe), 0, delta));
    }
    // Not only the same order: each event as soon as the reference passes it on.
    REQUIRE(all.seen.size() == ref.seen.size());
  }
  d.flush_all();
  ref.release(UINT64_MAX);
  REQUIRE(ref.held.empty());
  CHECK(all.seen == ref.seen);
  CHECK(no_queue.seen == ref.seen_no_queue);
  d.flush_all();  // nothing left: a second flush passes on nothing
  CHECK(all.seen.size() == ref.seen.size());
}

}  // namespace

TEST_CASE("dispatcher: random streams match the reference order and timing", "[dispatch]") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    run_random(seed, 6, 200, 20000);  // the usual window: tens of events held
  }
}

TEST_CASE("dispatcher: deep windows (thousands held) match the reference", "[dispatch]") {
  for (uint32_t seed = 11; seed <= 13; ++seed) {
    INFO("seed " << seed);
    run_random(seed, 3, 20000, 30000);  // thousands held at once
  }
}

TEST_CASE("dispatcher: ties in time keep arrival order", "[dispatch]") {
  run_random(21, 2, 0, 5000);  // every event at the horizon itself
  run_random(22, 4, 2, 5000);
}

TEST_CASE("dispatcher: without sources every event is final at once", "[dispatch]") {
  Dispatcher d;
  Recorder r(true);
  d.add_observer(&r);
  isa::Instruction instr;
  instr.index = 7;
  InstrRecord rec;
  rec.instr = &instr;
  rec.start_cycle = 5;
  d.instruction(rec);
  d.queue(isa::CoreId{}, isa::Pipe::M, 3, +1, 3);
  d.flag(FlagEvent{isa::CoreId{}, {isa::Pipe::MTE2, isa::Pipe::M}, 1, 4, true, 9, 9}, 4);
  REQUIRE(r.seen.size() == 3);
  CHECK(std::get<0>(r.seen[0]) == 'I');
  CHECK(std::get<0>(r.seen[1]) == 'Q');
  CHECK(std::get<0>(r.seen[2]) == 'F');
}

TEST_CASE("dispatcher: without observers nothing is kept", "[dispatch]") {
  Dispatcher d;
  Source s;
  d.add_source(&s);
  CHECK_FALSE(d.active());
  CHECK_FALSE(d.wants_queue());
  InstrRecord rec;  // no instruction: must not be read
  d.instruction(rec);
  d.flag(FlagEvent{}, 0);
  d.queue(isa::CoreId{}, isa::Pipe::M, 0, 1, 0);
  d.flush_all();
}
