#include "machine.hpp"

#include "aicore/isa/access.hpp"

#include <array>
#include <cstring>
#include <exception>
#include <random>

#include "aicore/semantics/execute.hpp"
#include "aicore/trace/writer.hpp"

namespace gentest {

using namespace aicore;

namespace {

void fill_garbage(std::vector<uint8_t>& v, std::mt19937_64& rng) {
  for (auto& b : v) b = static_cast<uint8_t>(rng() % 255 + 1);
}

// Per flag, the sets not yet taken by a WaitFlag: in program order at most one (a second is the
// undefined double SetFlag); in an interleaving a set landing on a flag still set is held and
// becomes the flag's state when the WaitFlag clears it, so the sets queue up.
struct Flags {
  std::array<uint32_t, isa::kPipeCount * isa::kPipeCount * isa::kEventIds> bits{};
  uint32_t& at(isa::EventPair e, uint8_t id) {
    return bits[(static_cast<size_t>(e.src) * isa::kPipeCount + static_cast<size_t>(e.dst)) * isa::kEventIds +
                id];
  }
  std::string left_set() const {
    for (size_t i = 0; i < bits.size(); ++i)
      if (bits[i]) {
        const auto src = static_cast<isa::Pipe>(i / isa::kEventIds / isa::kPipeCount);
        const auto dst = static_cast<isa::Pipe>(i / isa::kEventIds % isa::kPipeCount);
        return "flag " + trace::format_event({src, dst}) + " id " + std::to_string(i % isa::kEventIds) +
               " is still set at the end";
      }
    return "";
  }
};

std::string describe(const std::vector<isa::Op>& ops, size_t i) {
  return "op #" + std::to_string(i) + " " + trace::format_instruction(ops[i], {"gm0", "gm1", "gm2", "gm3"});
}

}  // namespace

Machine::Machine(const std::vector<std::vector<uint8_t>>& gm_images, uint64_t garbage_seed)
    : l1(gen::kL1Bytes),
      l0a(gen::kL0ABytes),
      l0b(gen::kL0BBytes),
      l0c(gen::kL0CBytes),
      index(gen::kIndexBufferBytes),
      bias_table(1024),  // the presets' buffers.bias_table_bytes
      gm(gm_images) {
  std::mt19937_64 rng(garbage_seed);
  for (auto* v : {&l1, &l0a, &l0b, &l0c, &index, &bias_table}) fill_garbage(*v, rng);
  view.attach(isa::Space::L1, l1.data(), l1.size());
  view.attach(isa::Space::L0A, l0a.data(), l0a.size());
  view.attach(isa::Space::L0B, l0b.data(), l0b.size());
  view.attach(isa::Space::L0C, l0c.data(), l0c.size());
  view.attach(isa::Space::SparseIndex, index.data(), index.size());
  view.attach(isa::Space::BiasTable, bias_table.data(), bias_table.size());
  for (uint32_t t = 0; t < gm.size(); ++t) view.attach_gm(t, gm[t].data(), gm[t].size());
}

std::vector<isa::Op> ops_of(const std::vector<gen::Emitted>& program) {
  std::vector<isa::Op> ops;
  for (const auto& e : program) ops.push_back(e.op);
  return ops;
}

std::string check_flags_in_order(const std::vector<isa::Op>& ops) {
  Flags f;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (const auto* s = std::get_if<isa::SetFlag>(&ops[i])) {
      if (f.at(s->event, s->id)) return describe(ops, i) + ": flag already set";
      f.at(s->event, s->id) = 1;
    } else if (const auto* w = std::get_if<isa::WaitFlag>(&ops[i])) {
      if (!f.at(w->event, w->id)) return describe(ops, i) + ": waits on a flag that program order never set";
      f.at(w->event, w->id) = 0;
    }
  }
  return f.left_set();
}

void run_in_order(const std::vector<isa::Op>& ops, Machine& m) {
  for (const auto& op : ops) sem::execute(op, m.view);
}

std::string run_interleaved(const std::vector<isa::Op>& ops, Machine& m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::array<std::vector<size_t>, isa::kPipeCount> queue;
  std::vector<size_t> barriers;  // PIPE_ALL: nothing after it starts before everything before it ended
  for (size_t i = 0; i < ops.size(); ++i) {
    queue[static_cast<size_t>(isa::pipe_of(ops[i]))].push_back(i);
    const auto* b = std::get_if<isa::PipeBarrier>(&ops[i]);
    if (b && b->all) barriers.push_back(i);
  }
  std::array<uint64_t, isa::kPipeCount> weight{};
  for (auto& w : weight) w = uint64_t{1} << (rng() % 11);
  std::array<size_t, isa::kPipeCount> head{};
  std::vector<bool> done(ops.size(), false);
  size_t finished = 0;
  Flags f;
  // unitFlag, a whole instruction at a time: a Fixpipe with unitFlag 2 or 3 runs once every granule
  // it reads is set (a Mmad with unitFlag=3 set it), a Mmad with unitFlag 2 or 3 once every granule
  // it writes is clear (a Fixpipe with unitFlag=3 cleared it).
  std::vector<bool> unit_set(128 * 1024 / isa::kUnitFlagBytes, false);
  const auto unit_flag = [](const isa::Op& op) -> uint8_t {
    if (const auto* x = std::get_if<isa::Mmad>(&op)) return x->unitFlag;
    if (const auto* x = std::get_if<isa::MmadWithSparse>(&op)) return x->unitFlag;
    if (const auto* x = std::get_if<isa::Fixpipe>(&op)) return x->unitFlag;
    return 0;
  };
  const auto runnable = [&](size_t p) {
    if (head[p] >= queue[p].size()) return false;
    const size_t i = queue[p][head[p]];
    for (size_t b : barriers) {
      if (b < i && !done[b]) return false;
      if (b == i)
        for (size_t j = 0; j < i; ++j)
          if (!done[j]) return false;
    }
    if (const auto* w = std::get_if<isa::WaitFlag>(&ops[i])) return f.at(w->event, w->id) > 0;
    if (unit_flag(ops[i]) >= isa::kUnitFlagKeep) {
      const bool fix = std::holds_alternative<isa::Fixpipe>(ops[i]);
      for (const uint32_t g : isa::unit_flag_granules(ops[i]))
        if (unit_set.at(g) != fix) return false;
    }
    return true;
  };
  while (finished < ops.size()) {
    uint64_t total = 0;
    for (size_t p = 0; p < isa::kPipeCount; ++p) total += runnable(p) ? weight[p] : 0;
    if (total == 0) {
      std::string msg = "deadlock:";
      for (size_t p = 0; p < isa::kPipeCount; ++p)
        if (head[p] < queue[p].size()) msg += " [" + describe(ops, queue[p][head[p]]) + "]";
      return msg;
    }
    uint64_t pick = rng() % total;
    size_t p = 0;
    for (;; ++p) {
      const uint64_t w = runnable(p) ? weight[p] : 0;
      if (pick < w) break;
      pick -= w;
    }
    const size_t i = queue[p][head[p]++];
    if (const auto* s = std::get_if<isa::SetFlag>(&ops[i])) {
      ++f.at(s->event, s->id);  // held behind an earlier set if the flag is still set
    } else if (const auto* w = std::get_if<isa::WaitFlag>(&ops[i])) {
      --f.at(w->event, w->id);
    } else {
      try {
        sem::execute(ops[i], m.view);
      } catch (const std::exception& e) {
        return describe(ops, i) + ": fault: " + e.what();
      }
      if (unit_flag(ops[i]) == isa::kUnitFlagFlip) {
        const bool fix = std::holds_alternative<isa::Fixpipe>(ops[i]);
        for (const uint32_t g : isa::unit_flag_granules(ops[i])) unit_set.at(g) = !fix;
      }
    }
    done[i] = true;
    ++finished;
  }
  return f.left_set();
}

std::vector<int32_t> as_i32(const std::vector<uint8_t>& bytes) {
  std::vector<int32_t> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

}  // namespace gentest
