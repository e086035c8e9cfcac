// BackgroundObservers: the wrapped observers get exactly the calls the model made, in the
// same order, on the worker thread; .gm declarations reach them in step; an observer's
// exception comes back from finish(); dropping it mid-run neither hangs nor crashes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "aicore/report/background.hpp"

using namespace aicore;

namespace {

// Records every call as text (with the tensors it could see), and the thread it ran on.
struct Recorder : model::Observer {
  explicit Recorder(const std::vector<model::TensorInfo>* tensors = nullptr, bool queue = true)
      : tensors(tensors) {
    wants_queue_ = queue;
  }
  void on_instruction(const model::InstrRecord& r) override {
    threads.push_back(std::this_thread::get_id());
    std::string s = "I" + std::to_string(r.instr->index) + "@" + std::to_string(r.start_cycle) + "/" +
                    std::to_string(r.instr->line);
    if (tensors) s += " gm=" + std::to_string(tensors->size());
    calls.push_back(s);
  }
  void on_flag(const model::FlagEvent& e) override {
    calls.push_back("F" + std::to_string(e.instr_index) + (e.set ? "s" : "c"));
  }
  void on_queue(isa::CoreId, isa::Pipe p, uint64_t cycle, int delta) override {
    calls.push_back("Q" + std::to_string(static_cast<int>(p)) + "@" + std::to_string(cycle) +
                    (delta > 0 ? "+" : "-"));
  }
  const std::vector<model::TensorInfo>* tensors;
  std::vector<std::string> calls;
  std::vector<std::thread::id> threads;
};

struct Thrower : model::Observer {
  void on_instruction(const model::InstrRecord& r) override {
    if (r.instr->index == 5000) throw std::runtime_error("disk on fire");
  }
};

// Reports n instructions (each with a queue entry/exit and a flag), declaring a tensor every
// 1000 instructions; the same calls go to `direct` (the reference) and `bg`.
void drive(uint64_t n, std::vector<model::TensorInfo>& live, model::Observer& direct, model::Observer& bg) {
  for (uint64_t i = 0; i < n; ++i) {
    if (i % 1000 == 0) live.push_back(model::TensorInfo{"t" + std::to_string(i), 64, "", {}, {}});
    isa::Instruction in{isa::SetFlag{}, i, static_cast<uint32_t>(i + 3)};
    model::InstrRecord r;
    r.instr = &in;
    r.start_cycle = 2 * i;
    for (model::Observer* o : {&direct, &bg}) {
      o->on_queue(isa::CoreId{}, isa::Pipe::MTE2, i, +1);
      o->on_queue(isa::CoreId{}, isa::Pipe::MTE2, 2 * i, -1);
      o->on_instruction(r);
      o->on_flag(
          model::FlagEvent{isa::CoreId{}, {isa::Pipe::MTE2, isa::Pipe::MTE1}, 0, 2 * i, i % 2 == 0, i, i});
    }
  }
}

}  // namespace

TEST_CASE("background observers get the same calls in the same order, with tensors in step",
          "[report][background]") {
  std::vector<model::TensorInfo> live;
  report::BackgroundObservers bg(live);
  Recorder a(&bg.tensors()), b(&bg.tensors(), false);
  bg.add(a);
  bg.add(b);
  CHECK(bg.wants_queue());  // one of them wants queue events
  std::vector<model::TensorInfo> live_ref;
  Recorder ref(&live), ref_b(&live, false);
  struct Both : model::Observer {  // the reference: same calls, same thread, no worker
    Recorder &x, &y;
    Both(Recorder& x, Recorder& y) : x(x), y(y) {}
    void on_instruction(const model::InstrRecord& r) override { x.on_instruction(r), y.on_instruction(r); }
    void on_flag(const model::FlagEvent& e) override { x.on_flag(e), y.on_flag(e); }
    void on_queue(isa::CoreId, isa::Pipe p, uint64_t c, int d) override {
      x.on_queue(isa::CoreId{}, p, c, d);
    }
  } both(ref, ref_b);
  drive(20000, live, both, bg);  // several batches
  bg.finish();
  REQUIRE(a.calls.size() == 20000 * 4);
  CHECK(a.calls == ref.calls);
  CHECK(b.calls == ref_b.calls);  // no queue calls for the observer that does not want them
  CHECK(a.calls[4 * 1000 + 2] == "I1000@2000/1003 gm=2");
  REQUIRE(bg.tensors().size() == live.size());
  CHECK(bg.tensors()[19].name == "t19000");
  for (const auto& t : a.threads) CHECK(t != std::this_thread::get_id());
}

TEST_CASE("an observer's exception comes back from finish, later events are dropped",
          "[report][background]") {
  std::vector<model::TensorInfo> live;
  report::BackgroundObservers bg(live);
  Thrower t;
  Recorder r;
  bg.add(t);
  bg.add(r);
  Recorder ref;
  drive(20000, live, ref, bg);
  CHECK_THROWS_WITH(bg.finish(), "disk on fire");
  // r (after the thrower) saw every call before instruction 5000's, and nothing from then on.
  const auto stop = std::find(ref.calls.begin(), ref.calls.end(), "I5000@10000/5003");
  REQUIRE(stop != ref.calls.end());
  CHECK(r.calls == std::vector<std::string>(ref.calls.begin(), stop));
}

TEST_CASE("destroying background observers without finish stops the worker", "[report][background]") {
  std::vector<model::TensorInfo> live;
  Recorder r, ref;
  {
    report::BackgroundObservers bg(live);
    bg.add(r);
    drive(30000, live, ref, bg);
  }  // must not hang, and the worker must be gone: r is read below without a lock
  // What was delivered before the stop is an in-order prefix of the calls, in whole batches
  // (the last, partial batch was never handed over).
  REQUIRE(r.calls.size() < ref.calls.size());
  CHECK(r.calls == std::vector<std::string>(ref.calls.begin(), ref.calls.begin() + r.calls.size()));
}

TEST_CASE("finish with no events and finish twice are harmless", "[report][background]") {
  std::vector<model::TensorInfo> live;
  report::BackgroundObservers bg(live);
  Recorder r;
  bg.add(r);
  bg.finish();
  bg.finish();
  CHECK(r.calls.empty());
}
