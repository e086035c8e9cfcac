// Fuzz target: a whole small simulation of a mutated trace, the way `aicore-sim run` does it,
// in full (data) mode and in --timing-only mode, in one process. The SystemC kernel is
// process-global, so after each run the simulation context is discarded and a fresh one made.
// GM data files the trace names are created on the fly (declared size, deterministic bytes whose
// 2-bit fields are never 3, so sparse indexes are valid), so shipped traces run deep.
// Oracles:
//  * the observer timing contract (model/observer.hpp): callbacks in nondecreasing time, no
//    announced cycle in the past, issue <= start <= busy_end <= end;
//  * full and --timing-only runs agree on cycles, instructions and per-pipe work, and on the
//    kind of fault (an invalid sparse index or quantisation word can only be seen in data, so they
//    are exempt).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AICORE_FUZZ_HAS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(AICORE_FUZZ_HAS_ASAN)
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#endif

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <systemc>
#include <variant>
#include <vector>

#include "aicore/check/checker.hpp"
#include "aicore/check/format.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/model/trace_source.hpp"
#include "aicore/report/instr_csv.hpp"
#include "aicore/report/stats.hpp"
#include "aicore/trace/data_file.hpp"
#include "aicore/trace/npy.hpp"
#include "aicore/trace/reader.hpp"
#include "fuzz_util.hpp"

using namespace aicore;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxGmBytes = uint64_t{4} << 20;  // keeps one input's memory small
constexpr uint64_t kMaxDataFile = uint64_t{1} << 20;
constexpr uint64_t kMaxFullRunMacs = uint64_t{1} << 22;

const config::Config& fuzz_config() {
  static const config::Config c = config::load(
      "atlas-a2", {"buffers.gm_max_bytes=" + std::to_string(kMaxGmBytes)}, config::default_configs_dir());
  return c;
}

#if defined(__SANITIZE_ADDRESS__) || defined(AICORE_FUZZ_HAS_ASAN)
// libsystemc maps each coroutine stack with mmap and unmaps it with the kernel that owns it.
// Frames of threads still suspended at that point leave ASan's stack redzones poisoned in the
// shadow, and clang 14's ASan does not clear shadow on munmap: a later mapping at the same
// address (the next run's stacks) would inherit them and trip false "stack-buffer-overflow"
// reports. Clear the shadow of every range SystemC unmaps. (The CLI runs one kernel per process
// and never needs this.)
extern "C" int munmap(void* addr, size_t len) {
  using Fn = int (*)(void*, size_t);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "munmap"));
  __asan_unpoison_memory_region(addr, len);
  return real(addr, len);
}
#endif

// Throws the SystemC kernel away (after its modules are gone) so the next run elaborates anew.
// The context that existed at start-up is kept: libsystemc's own static events (sc_event::none,
// ...) point at it and unregister from it at exit. Later contexts are deleted.
sc_core::sc_simcontext* const g_first_context = sc_core::sc_get_curr_simcontext();

void reset_systemc() {
  if (sc_core::sc_curr_simcontext != g_first_context) delete sc_core::sc_curr_simcontext;
  sc_core::sc_curr_simcontext = nullptr;
  sc_core::sc_default_global_context = nullptr;
}

// Checks the observer timing contract (model/observer.hpp) that streaming writers rely on:
// the time each callback happens at ("now": an instruction's start, a consumed flag's cycle, a
// queue exit's cycle) never decreases, and the cycles a callback announces are never before it.
class ContractObserver : public model::Observer {
 public:
  ContractObserver() { wants_queue_ = true; }
  void on_instruction(const model::InstrRecord& r) override {
    at(r.start_cycle, "instruction start");
    if (r.issue_cycle > r.start_cycle || r.start_cycle > r.busy_end || r.busy_end > r.end_cycle)
      fuzz::oracle_failed("instruction #" + std::to_string(r.instr->index) + ": issue " +
                          std::to_string(r.issue_cycle) + " start " + std::to_string(r.start_cycle) +
                          " busy_end " + std::to_string(r.busy_end) + " end " + std::to_string(r.end_cycle) +
                          " out of order");
  }
  void on_flag(const model::FlagEvent& e) override {
    if (e.set)
      not_before(e.cycle, "flag set");
    else
      at(e.cycle, "flag consumed");
  }
  void on_queue(isa::CoreId, isa::Pipe, uint64_t cycle, int delta) override {
    if (delta > 0)
      not_before(cycle, "queue entry");
    else
      at(cycle, "queue exit");
  }

 private:
  void at(uint64_t now, const char* what) {
    not_before(now, what);
    last_ = now;
  }
  void not_before(uint64_t cycle, const char* what) const {
    if (cycle < last_)
      fuzz::oracle_failed(std::string("observer contract: ") + what + " at cycle " + std::to_string(cycle) +
                          " reported after cycle " + std::to_string(last_));
  }
  uint64_t last_ = 0;
};

struct Outcome {
  model::ChipSummary s;
  bool parse_or_data_error = false;
};

// One byte per 4 two-bit fields in 0..2.
uint8_t valid_byte(uint64_t x) {
  uint8_t b = 0;
  for (int f = 0; f < 4; ++f) {
    b = static_cast<uint8_t>(b | ((x % 3) << (2 * f)));
    x /= 3;
  }
  return b;
}

bool simple_name(const std::string& f) {
  return !f.empty() && f.size() < 64 && f.find('/') == std::string::npos && f != "." && f != "..";
}

void make_data_file(const std::string& dir, const std::string& file, uint64_t size) {
  if (!simple_name(file) || size == 0 || size > kMaxDataFile) return;
  std::vector<uint8_t> bytes(size);
  uint64_t x = std::hash<std::string>{}(file);
  for (uint8_t& b : bytes) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = valid_byte(x >> 33);
  }
  const std::string path = dir + "/" + file;
  if (trace::is_npy_path(file))
    trace::write_npy(path, "|i1", {size}, bytes.data(), size);
  else
    fuzz::write_file(path, bytes.data(), size);
}

// Creates the files the trace's .gm and .expect lines name (as far as the trace parses) and
// returns the Cube work it asks for (multiply-accumulates), to keep each input cheap.
uint64_t prepare_inputs(const std::string& dir, const std::string& text) {
  std::istringstream in(text);
  trace::Reader r(in, "pre.trace", "");
  trace::Statement st;
  uint64_t macs = 0;
  try {
    while (r.next(st)) {
      if (st.kind == trace::Statement::Kind::Gm && !st.gm.file.empty())
        make_data_file(dir, st.gm.file, st.gm.size);
      if (st.kind == trace::Statement::Kind::Expect)
        make_data_file(dir, st.expect.file, r.tensors()[st.expect.tensor].size);
      if (st.kind != trace::Statement::Kind::Instr) continue;
      if (const auto* m = std::get_if<isa::Mmad>(&st.instr.op)) macs += uint64_t{m->m} * m->n * m->k;
      if (const auto* m = std::get_if<isa::MmadWithSparse>(&st.instr.op))
        macs += uint64_t{m->m} * m->n * m->k;
    }
  } catch (const InputError&) {
  }
  return macs;
}

// The race checker as `run` feeds it (on this thread): it must survive any instruction stream.
struct CheckFeed : model::Observer {
  CheckFeed() { wants_issue_ = true; }
  check::Checker checker{check::options_from(fuzz_config())};
  void on_issue(const model::IssueRecord& r) override { checker.issue(r.core, *r.instr); }
  void on_instruction(const model::InstrRecord& r) override {
    checker.executed(isa::CoreId{0}, r.instr->index, r.start_cycle, r.end_cycle);
  }
};

Outcome simulate(const std::string& trace_path, const std::string& out_dir, bool timing_only) {
  Outcome o;
  {
    model::TraceSource source(trace_path);
    model::Chip sim(fuzz_config(), {&source}, timing_only);
    report::StatsCollector stats;
    ContractObserver contract;
    CheckFeed check;
    sim.add_observer(&stats);
    sim.add_observer(&contract);
    sim.add_observer(&check);
    {
      report::InstrCsvWriter csv(out_dir + "/instr.csv");
      sim.add_observer(&csv);
      o.s = sim.run();
    }
    check.checker.finish(check::RunEnd{o.s.completed, o.s.fault && o.s.fault->kind() == FaultKind::Deadlock});
    (void)check::format_text(check.checker.reports(), check.checker.summary(), {});
    (void)check::to_json(check.checker.reports(), check.checker.summary(), {}).dump();
    report::RunInfo info{trace_path, timing_only, o.s.completed ? "completed" : "fault", ""};
    (void)report::stats_json(o.s, stats, fuzz_config(), info).dump(2);
    (void)report::summary_text(o.s, stats, fuzz_config());
    if (o.s.input_error) o.parse_or_data_error = true;
    if (o.s.completed && !timing_only) {
      try {
        for (const auto& out : source.outs()) {
          const auto& t = sim.tensors()[out.tensor];
          if (simple_name(out.file))
            trace::write_tensor_file(out_dir + "/" + out.file, sim.tensor_data(out.tensor), t.bytes,
                                     out.dtype, out.shape);
        }
        for (const auto& e : source.expects())
          if (const auto m =
                  trace::compare_expect(e, sim.tensor_data(e.tensor), sim.tensors()[e.tensor].bytes))
            for (const auto& first : m->first) (void)trace::index_text(std::get<0>(first), m->shape);
      } catch (const InputError&) {
        o.parse_or_data_error = true;
      }
    }
  }
  reset_systemc();
  return o;
}

std::string describe(const Outcome& o) {
  if (o.s.input_error) return std::string("input error: ") + o.s.input_error->what();
  if (o.s.fault) return std::string("fault: ") + o.s.fault->what();
  return "completed at cycle " + std::to_string(o.s.cycles) + " after " + std::to_string(o.s.instructions) +
         " instructions";
}

void compare(const Outcome& full, const Outcome& timing) {
  if (full.s.input_error || timing.s.input_error) return;  // data files are only read in full runs
  // Faults seen only in data: a sparse index of 3, a per-channel quantisation word out of its rules.
  if (full.s.fault && (full.s.fault->kind() == FaultKind::InvalidSparseIndex ||
                       full.s.fault->kind() == FaultKind::InvalidQuantWord))
    return;
  const bool same_end = full.s.completed == timing.s.completed &&
                        (!full.s.fault || full.s.fault->kind() == timing.s.fault->kind());
  bool same = same_end && full.s.instructions == timing.s.instructions;
  if (same && full.s.completed) {
    same = full.s.cycles == timing.s.cycles;
    for (size_t p = 0; p < full.s.cores[0].pipes.size(); ++p)
      same = same && full.s.cores[0].pipes[p].busy_cycles == timing.s.cores[0].pipes[p].busy_cycles &&
             full.s.cores[0].pipes[p].instructions == timing.s.cores[0].pipes[p].instructions;
  }
  if (!same)
    fuzz::oracle_failed("full and --timing-only runs differ:\n  full:        " + describe(full) +
                        "\n  timing-only: " + describe(timing));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  (void)fuzz_config();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string dir = fuzz::scratch_file("sim");
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir + "/out");
  const std::string trace = dir + "/t.trace";
  fuzz::write_file(trace, text.data(), text.size());
  const uint64_t macs = prepare_inputs(dir, text);
  const Outcome timing = simulate(trace, dir + "/out", true);
  // Full runs compute every product: past this much Cube work an input would slow the fuzzer
  // down more than it teaches it, so it runs timing-only.
  if (macs > kMaxFullRunMacs) return 0;
  const Outcome full = simulate(trace, dir + "/out", false);
  compare(full, timing);
  return 0;
}

// libsystemc's own main() needs an sc_main to link; this target never runs it.
int sc_main(int, char*[]) {
  return 0;
}
