#include "reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "aicore/isa/check.hpp"
#include "aicore/model/fluid_share.hpp"
#include "aicore/model/timing.hpp"
#include "ref_l2.hpp"

namespace ref {

using aicore::isa::Instruction;
using aicore::isa::Pipe;
using aicore::isa::Space;
namespace isa = aicore::isa;
namespace model = aicore::model;

namespace {

struct PipeState {
  std::deque<size_t> queue;        // instruction indexes, in order
  std::vector<uint64_t> start_of;  // by push number
  size_t pushed = 0, started = 0;
  uint64_t local = 0, last_completion = 0;
  // Pacing, in exact (fractional) cycles: when the last instruction's occupancy ended, the
  // earliest start of the next data instruction, the end of the last Mmad (< 0: none).
  double free_exact = 0, allowed = 0, last_mmad_end = -1;
  std::vector<std::pair<uint64_t, uint64_t>> gm_done;  // (end, bytes) of finished GM transfers
  bool in_gm = false;  // a GM transfer of the started instruction is in flight
  size_t gm_instr = 0;
  uint64_t gm_start = 0;
  model::Cost gm_cost;
};

// Whole cycles from exact ones (a value within rounding noise of a cycle is that cycle).
uint64_t whole(double x) {
  return static_cast<uint64_t>(std::ceil(x - 1e-9));
}

// Scalar set-up cycles of an instruction (config key scalar.<kind>).
uint64_t scalar_cost(const isa::Op& op, const aicore::config::Scalar& s) {
  if (std::holds_alternative<isa::DataCopy>(op)) return s.data_copy;
  if (std::holds_alternative<isa::DataCopyNd2Nz>(op)) return s.data_copy_nd2nz;
  if (std::holds_alternative<isa::LoadData>(op)) return s.load_data;
  if (std::holds_alternative<isa::LoadDataWithSparse>(op)) return s.load_data_with_sparse;
  if (std::holds_alternative<isa::LoadData3DV2>(op)) return s.load_data_3dv2;
  if (std::holds_alternative<isa::LoadDataWithTranspose>(op)) return s.load_data_with_transpose;
  if (std::holds_alternative<isa::DataCopyL1ToBT>(op)) return s.data_copy_l1_to_bt;
  if (std::holds_alternative<isa::Mmad>(op)) return s.mmad;
  if (std::holds_alternative<isa::MmadWithSparse>(op)) return s.mmad_with_sparse;
  if (std::holds_alternative<isa::Fixpipe>(op)) return s.fixpipe;
  if (std::holds_alternative<isa::SetFlag>(op)) return s.set_flag;
  if (std::holds_alternative<isa::WaitFlag>(op)) return s.wait_flag;
  if (std::holds_alternative<isa::SyncAll>(op)) return s.sync_all;
  if (std::holds_alternative<isa::SetAtomicAdd>(op) || std::holds_alternative<isa::SetAtomicNone>(op))
    return s.set_atomic;
  return s.pipe_barrier;
}

// GM rows of an ND2NZ copy, counted plainly: each source row is its own run unless it follows
// the previous one in GM.
uint64_t gm_rows(const isa::Op& op) {
  if (const auto* n = std::get_if<isa::DataCopyNd2Nz>(&op)) {
    uint64_t runs = 0;
    uint64_t next = UINT64_MAX;  // element offset right after the previous row
    for (uint64_t d = 0; d < n->ndNum; ++d)
      for (uint64_t r = 0; r < n->nValue; ++r) {
        const uint64_t at = d * n->srcNdMatrixStride + r * n->srcDValue;
        if (n->dValue == 0) continue;
        if (at != next) ++runs;
        next = at + n->dValue;
      }
    return runs;
  }
  return 1;
}

// A GM path's own rate for `bytes` in `rows` runs: each row after the first costs row_cycles.
double row_rate(uint64_t bytes, uint64_t rows, const aicore::config::GmRead& p) {
  if (rows <= 1 || p.row_cycles <= 0 || bytes == 0) return p.bytes_per_cycle;
  const double b = static_cast<double>(bytes);
  return b / (b / p.bytes_per_cycle + static_cast<double>(rows - 1) * p.row_cycles);
}

struct Holder {
  bool valid = false;
  size_t index = 0;
  uint64_t pos = 0, count = 1;
};
struct Granule {
  Holder setter, taker;
};
struct UnitWait {
  size_t producer;
  uint64_t ppos, pcount, pos, count;
};

struct Core {
  const std::vector<Instruction>* prog = nullptr;
  std::vector<Timing> timing;
  std::array<PipeState, isa::kPipeCount> pipes;
  // Scalar unit.
  size_t next = 0;
  double next_issue = 0;
  bool s_waiting = false;  // an S WaitFlag or PIPE_ALL is waiting
  uint64_t s_arrived = 0;
  // Per flag: its pending sets (fire cycle, setting pipe), oldest first, and when a WaitFlag last
  // cleared it. A set behind another one is held: it lands when that one's WaitFlag clears the
  // flag, and a barrier of its pipe waits for that.
  struct Set {
    uint64_t fire;
    size_t pipe;
  };
  struct Flag {
    std::deque<Set> sets;
    uint64_t cleared = 0;
  };
  std::map<std::tuple<int, int, int>, Flag> flags;
  std::array<uint64_t, isa::kPipeCount> held_until{};  // the latest landing of a held set, per pipe
  // Ports: (space, write, bank) -> busy until.
  std::map<std::tuple<int, bool, uint64_t>, uint64_t> busy_until;
  // unitFlag: per L0C granule who set and who cleared its flag; per instruction what it waits on.
  std::map<uint64_t, Granule> unit;
  std::map<size_t, std::vector<UnitWait>> unit_waits;
  std::vector<bool> done;  // the instruction's timing is known
  // MTE2's GM -> L1 copies as [start, end) (end UINT64_MAX while moving): an MTE1 read of L1 whose
  // first possible cycle falls strictly inside one runs at mte1.share_during_l1_write.
  std::vector<std::pair<uint64_t, uint64_t>> l1_writes;
  // SyncAll: this core's arrival cycle at each of its SyncAlls, and whether the current one has
  // arrived (pipes drained) and waits for the other cores. The atomic mode, and per instruction
  // whether it was issued under it.
  std::vector<uint64_t> sync_arrivals;
  bool sync_arrived = false;
  bool atomic = false;
  std::vector<bool> atomic_of;
};

// The memory side's shared capacities: each core's GM port, then the HBM, L2 reads, L2 writes,
// each the lower of the chip figure and the per-core share times the chip's cores.
std::vector<double> capacities(const aicore::config::Config& cfg, size_t cores) {
  const auto& ch = cfg.chip;
  std::vector<double> c(cores, cfg.gm.shared_bytes_per_cycle);
  c.push_back(std::min(ch.hbm.bytes_per_cycle, ch.hbm.bytes_per_cycle_per_core * ch.cores));
  c.push_back(std::min(ch.l2.read_bytes_per_cycle, ch.l2.read_bytes_per_cycle_per_core * ch.cores));
  c.push_back(std::min(ch.l2.write_bytes_per_cycle, ch.l2.write_bytes_per_cycle_per_core * ch.cores));
  return c;
}

class Machine {
 public:
  Machine(const aicore::config::Config& cfg, const std::vector<std::vector<Instruction>>& cores,
          const std::vector<uint64_t>& tensor_bytes)
      : cfg_(cfg), gm_(capacities(cfg, cores.size())), l2_(cfg.chip.l2), bases_(tensor_bases(tensor_bytes)) {
    for (const auto& p : cores) {
      Core c;
      c.prog = &p;
      c.timing.resize(p.size());
      c.done.resize(p.size());
      c.atomic_of.resize(p.size());
      for (auto& ps : c.pipes) ps.start_of.resize(p.size());
      cores_.push_back(std::move(c));
    }
  }

  void run(uint64_t max_cycles) {
    for (uint64_t t = 0; !done(); ++t) {
      if (t > max_cycles) throw std::runtime_error("reference: no progress (deadlock?)");
      gm_.advance(t);
      for (model::FluidShare::FlowId id : gm_.take_finished()) finish_gm(id, t);
      for (bool changed = true; changed;) {
        changed = false;
        for (Core& c : cores_) {
          for (size_t p = 1; p < isa::kPipeCount; ++p)
            while (try_start(c, static_cast<Pipe>(p), t)) changed = true;
          while (try_issue(c, t)) changed = true;
        }
      }
      start_transfers(t);
    }
  }

  std::vector<std::vector<Timing>> result() const {
    std::vector<std::vector<Timing>> out;
    for (const Core& c : cores_) out.push_back(c.timing);
    return out;
  }

 private:
  bool done() const {
    for (const Core& c : cores_) {
      if (c.next < c.prog->size() || c.s_waiting) return false;
      for (const PipeState& p : c.pipes)
        if (!p.queue.empty() || p.in_gm) return false;
    }
    return true;
  }

  static std::tuple<int, int, int> key(isa::EventPair e, uint8_t id) {
    return {static_cast<int>(e.src), static_cast<int>(e.dst), id};
  }

  void complete(Core& c, PipeState& p, Timing& tm) {
    c.done[static_cast<size_t>(&tm - c.timing.data())] = true;
    p.local = tm.busy_end;
    p.free_exact = static_cast<double>(tm.busy_end);
    p.last_completion = std::max(p.last_completion, tm.end);
  }

  double min_interval(Pipe p) const {
    switch (p) {
      case Pipe::MTE2:
        return cfg_.issue.min_interval_mte2;
      case Pipe::MTE1:
        return cfg_.issue.min_interval_mte1;
      case Pipe::M:
        return cfg_.issue.min_interval_m;
      case Pipe::FIX:
        return cfg_.issue.min_interval_fix;
      default:
        return 0;
    }
  }
  uint64_t window(Pipe p) const {
    if (p == Pipe::MTE2) return cfg_.gm.read.window_bytes;
    if (p == Pipe::FIX) return cfg_.gm.write.window_bytes;
    return 0;
  }
  // The bytes of this pipe's GM transfers whose data is not usable at t; whether any is.
  std::pair<uint64_t, bool> in_flight(const PipeState& p, uint64_t t) const {
    uint64_t bytes = 0;
    bool any = false;
    for (const auto& [end, b] : p.gm_done)
      if (end > t) {
        bytes += b;
        any = true;
      }
    return {bytes, any};
  }

  // The plain re-derivation of the GM row rule (reference.hpp): rate, occupancy and L1/L0C port
  // time of an ND2NZ copy or a Fixpipe from its own row count.
  // `atomic`: a Fixpipe under SetAtomicAdd, each byte at gm.write.atomic_share of the write rate.
  model::Cost with_rows(const isa::Op& op, model::Cost c, bool atomic = false) const {
    const uint64_t rows = gm_rows(op);
    if (std::holds_alternative<isa::DataCopyNd2Nz>(op)) {
      const double rate = row_rate(c.gm_bytes, rows, cfg_.gm.read);
      const uint64_t stream = static_cast<uint64_t>(std::ceil(static_cast<double>(c.gm_bytes) / rate));
      c.occupancy = cfg_.gm.read.overhead_cycles + stream;
      c.port_cycles = stream;
      c.gm_rate = rate;
    } else if (const auto* f = std::get_if<isa::Fixpipe>(&op)) {
      // Per byte: the output elements at elements_per_cycle against the bytes at the write rate,
      // each destination run (rows that follow each other in GM, within a matrix) that starts off
      // align_bytes counted unaligned_cost times.
      uint64_t es = 4;
      if (f->quantPre == isa::QuantMode::F322F16 || f->quantPre == isa::QuantMode::F322BF16 ||
          f->quantPre == isa::QuantMode::DEQF16)
        es = 2;
      if (f->quantPre == isa::QuantMode::REQ8 || f->quantPre == isa::QuantMode::QF322B8_PRE) es = 1;
      const uint64_t row = uint64_t{f->nSize} * es;
      uint64_t bytes = 0;
      double weighted = 0;
      for (uint64_t d = 0; d < f->ndNum; ++d) {
        uint64_t run_start = 0, prev_end = 0;
        for (uint64_t j = 0; j < f->mSize; ++j) {
          const uint64_t at = f->dst.offset + (d * f->dstNdStride + j * f->dstStride) * es;
          if (j == 0 || at != prev_end) run_start = at;
          prev_end = at + row;
          bytes += row;
          weighted += static_cast<double>(row) *
                      (run_start % cfg_.gm.write.align_bytes ? cfg_.gm.write.unaligned_cost : 1.0);
        }
      }
      if (atomic) weighted /= cfg_.gm.write.atomic_share;
      const auto produce = static_cast<uint64_t>(std::ceil(
          static_cast<double>(uint64_t{f->ndNum} * f->mSize * f->nSize) / cfg_.fixpipe.elements_per_cycle));
      const auto write = static_cast<uint64_t>(std::ceil(weighted / cfg_.gm.write.bytes_per_cycle));
      c.fixed = cfg_.fixpipe.overhead_cycles + cfg_.gm.write.overhead_cycles;
      c.occupancy = c.fixed + std::max(produce, write);
      c.port_cycles = produce;
      c.gm_bytes = bytes;
      c.gm_rate = bytes ? cfg_.gm.write.bytes_per_cycle * static_cast<double>(bytes) / weighted
                        : cfg_.gm.write.bytes_per_cycle;
    }
    return c;
  }

  // unitFlag, plainly: per 512-byte L0C granule the Mmad (unitFlag=3) that set its flag and the
  // Fixpipe (unitFlag=3) that cleared it, with the position of the granule among theirs; each
  // Mmad or Fixpipe with unitFlag 2 or 3 waits for those of the granules it touches.
  static std::vector<uint64_t> granules_of(const isa::Op& op) {
    std::set<uint64_t> g;
    const isa::MmadCommon* m = nullptr;
    if (const auto* x = std::get_if<isa::Mmad>(&op)) m = x;
    if (const auto* x = std::get_if<isa::MmadWithSparse>(&op)) m = x;
    if (m && m->m && m->n && m->k) {
      const uint64_t end = m->dst.offset + ((m->m + 15) / 16) * ((m->n + 15) / 16) * 1024;
      for (uint64_t b = m->dst.offset; b < end; ++b) g.insert(b / 512);
    }
    if (const auto* f = std::get_if<isa::Fixpipe>(&op))
      for (uint64_t d = 0; d < f->ndNum; ++d)
        for (uint64_t c = 0; c < f->nSize / 16u; ++c)
          for (uint64_t j = 0; j < f->mSize; ++j)
            g.insert((f->src.offset + d * f->srcNdStride * 1024 + (c * f->srcStride + j) * 64) / 512);
    return {g.begin(), g.end()};
  }

  void unit_issue(Core& c, size_t i) {
    const isa::Op& op = (*c.prog)[i].op;
    uint8_t uf = 0;
    bool fix = false;
    if (const auto* m = std::get_if<isa::Mmad>(&op)) uf = m->unitFlag;
    if (const auto* m = std::get_if<isa::MmadWithSparse>(&op)) uf = m->unitFlag;
    if (const auto* f = std::get_if<isa::Fixpipe>(&op)) uf = f->unitFlag, fix = true;
    if (uf != 2 && uf != 3) return;
    const std::vector<uint64_t> gs = granules_of(op);
    const uint64_t n = gs.size();
    for (uint64_t pos = 0; pos < n; ++pos) {
      Granule& h = c.unit[gs[pos]];
      const Holder from = fix ? h.setter : h.taker;
      if (from.valid) c.unit_waits[i].push_back(UnitWait{from.index, from.pos, from.count, pos, n});
      if (fix && uf == 3) {
        h.setter = Holder{};
        h.taker = Holder{true, i, pos, n};
      } else if (!fix) {
        h.taker = Holder{};
        if (uf == 3) h.setter = Holder{true, i, pos, n};
      }
    }
  }

  // The earliest start unit flags allow, or nullopt while a producer has not run yet.
  std::optional<uint64_t> unit_start(const Core& c, size_t i, uint64_t offset, uint64_t duration) const {
    const auto it = c.unit_waits.find(i);
    if (it == c.unit_waits.end()) return 0;
    int64_t best = 0;
    for (const UnitWait& w : it->second) {
      if (!c.done[w.producer]) return std::nullopt;
      const Timing& p = c.timing[w.producer];
      // Producer granule `ppos` is ready at start + (ppos + 1)(busy_end - start) / pcount; the
      // consumer reaches its granule `pos` at s + offset + pos * duration / count.
      const double ready =
          static_cast<double>(p.start) +
          static_cast<double>((w.ppos + 1) * (p.busy_end - p.start)) / static_cast<double>(w.pcount);
      const double s = ready - static_cast<double>(offset) -
                       static_cast<double>(w.pos * duration) / static_cast<double>(w.count);
      best = std::max<int64_t>(best, static_cast<int64_t>(std::ceil(s - 1e-9)));
    }
    return static_cast<uint64_t>(best);
  }

  // Ports a data instruction holds: (space, write, bank) for every bank of every on-chip extent.
  std::vector<std::tuple<int, bool, uint64_t>> ports_of(const isa::Footprint& fp) const {
    std::vector<std::tuple<int, bool, uint64_t>> out;
    for (const isa::Extent& x : fp) {
      if (x.space == Space::GM || x.end <= x.begin) continue;
      uint64_t bank_bytes = 0;
      if (x.space == Space::L1) bank_bytes = cfg_.buffers.l1_bytes / cfg_.buffers.l1_banks;
      if (x.space == Space::L0C) bank_bytes = cfg_.buffers.l0c_bytes / cfg_.buffers.l0c_banks;
      if (bank_bytes == 0) {
        out.emplace_back(static_cast<int>(x.space), x.write, 0);
        continue;
      }
      for (uint64_t b = x.begin / bank_bytes; b <= (x.end - 1) / bank_bytes; ++b)
        out.emplace_back(static_cast<int>(x.space), x.write, b);
    }
    return out;
  }

  void started(PipeState& p, uint64_t t) {
    p.start_of[p.started++] = t;
    p.queue.pop_front();
  }

  bool try_start(Core& c, Pipe pipe, uint64_t t) {
    PipeState& p = c.pipes[static_cast<size_t>(pipe)];
    if (p.queue.empty() || p.in_gm) return false;
    const size_t i = p.queue.front();
    Timing& tm = c.timing[i];
    if (t < std::max(p.local, tm.issue)) return false;
    const isa::Op& op = (*c.prog)[i].op;
    const uint64_t sync = cfg_.issue.sync_cycles;
    if (const auto* s = std::get_if<isa::SetFlag>(&op)) {
      const uint64_t fire = std::max(t + sync, p.last_completion);
      push_set(c, *s, fire);
      tm.start = t;
      tm.busy_end = t + sync;
      tm.end = fire;
    } else if (const auto* w = std::get_if<isa::WaitFlag>(&op)) {
      if (!take_set(c, *w, t)) return false;
      tm.start = t;
      tm.busy_end = tm.end = t + sync;
    } else if (std::holds_alternative<isa::PipeBarrier>(op)) {
      const size_t me = static_cast<size_t>(pipe);
      if (held_behind(c, me) || t < std::max(p.last_completion, c.held_until[me])) return false;
      tm.start = t;
      tm.busy_end = tm.end = t + sync;
    } else {
      return start_data(c, p, pipe, i, t);
    }
    started(p, t);
    complete(c, p, tm);
    return true;
  }

  static bool touches_l1(const isa::Footprint& fp, bool write) {
    for (const isa::Extent& x : fp)
      if (x.space == isa::Space::L1 && x.write == write) return true;
    return false;
  }

  bool start_data(Core& c, PipeState& p, Pipe pipe, size_t i, uint64_t t) {
    const isa::Op& op = (*c.prog)[i].op;
    const isa::Footprint fp = isa::footprint(op);
    const model::Cost cost =
        with_rows(op, model::cost_of(op, cfg_, isa::bytes_moved(op, fp)), c.atomic_of[i]);
    Timing& tm = c.timing[i];
    // Exact start: pipe free and issued, at least min_interval after the last data start.
    const double ready = std::max(static_cast<double>(tm.issue), p.free_exact);
    const double exact = std::max(ready, p.allowed);
    const uint64_t first = whole(exact);
    if (t < first) return false;
    // unitFlag: a Fixpipe reaches its first granule after its head, a Mmad spends its occupancy
    // past the head on its granules.
    const bool is_cube =
        std::holds_alternative<isa::Mmad>(op) || std::holds_alternative<isa::MmadWithSparse>(op);
    const auto unit =
        unit_start(c, i, is_cube ? 0 : cost.fixed,
                   is_cube ? cost.occupancy - cfg_.cube.head_cycles : cost.occupancy - cost.fixed);
    if (!unit || t < *unit) return false;
    const bool gm = cost.gm_rate > 0;
    if (gm && window(pipe)) {  // room for its bytes beside the transfers still in flight
      const auto [bytes, any] = in_flight(p, t);
      if (any && bytes + cost.gm_bytes > window(pipe)) return false;
    }
    const bool cube =
        std::holds_alternative<isa::Mmad>(op) || std::holds_alternative<isa::MmadWithSparse>(op);
    double occupancy = static_cast<double>(cost.occupancy);
    if (cube) {  // cold-start head: min(head, cycles idle since the last Mmad ended)
      const double head = cfg_.cube.head_cycles;
      const double idle = p.last_mmad_end < 0 ? head : std::max(ready - p.last_mmad_end, 0.0);
      occupancy = static_cast<double>(cost.occupancy - cfg_.cube.head_cycles) + std::min(head, idle) +
                  cfg_.cube.fixed_cycles;
    }
    if (pipe == Pipe::MTE1 && cfg_.mte1.share_during_l1_write < 1 && touches_l1(fp, false))
      for (const auto& [from, to] : c.l1_writes)
        if (from < first && first < to) {
          occupancy /= cfg_.mte1.share_during_l1_write;
          break;
        }
    const uint64_t hold = gm ? cost.port_cycles : whole(exact + occupancy) - first;
    const auto ports = ports_of(fp);
    for (const auto& port : ports)
      if (c.busy_until[port] > t) return false;  // wait for the bank to come free
    for (const auto& port : ports) c.busy_until[port] = t + hold;
    const double exact_start = exact + static_cast<double>(t - first);
    p.allowed = exact_start + min_interval(pipe);
    tm.start = t;
    started(p, t);
    if (gm && cost.gm_bytes > 0) {  // it reaches the memory side at the end of the cycle
      if (touches_l1(fp, true)) c.l1_writes.emplace_back(t, UINT64_MAX);
      p.in_gm = true;
      p.gm_instr = i;
      p.gm_start = t;
      p.gm_cost = cost;
      starting_.push_back({static_cast<int>(pipe), static_cast<int>(&c - cores_.data()), &p});
      return true;
    }
    tm.busy_end = t + (gm ? cost.occupancy : hold);
    if (gm) tm.busy_end = std::max(tm.busy_end, t + cost.fixed + cost.port_cycles);
    tm.end = tm.busy_end + cost.latency;
    complete(c, p, tm);
    if (!gm) p.free_exact = exact_start + occupancy;
    if (cube) p.last_mmad_end = p.free_exact;
    return true;
  }

  // The GM transfers that started in cycle t meet the L2 in pipe order, then core order (the
  // order the model's phases give them), each looked up before the next.
  void start_transfers(uint64_t t) {
    std::sort(starting_.begin(), starting_.end(), [](const Starting& a, const Starting& b) {
      return a.pipe != b.pipe ? a.pipe < b.pipe : a.core < b.core;
    });
    const auto& l2 = cfg_.chip.l2;
    const uint32_t n = static_cast<uint32_t>(cores_.size());
    for (const Starting& s : starting_) {
      PipeState& p = *s.p;
      const isa::Op& op = (*cores_[s.core].prog)[p.gm_instr].op;
      const model::Cost& cost = p.gm_cost;
      const bool write = std::holds_alternative<isa::Fixpipe>(op);
      // Alone it takes its fixed cycles plus its data at the lower of its rate and the core's port.
      const double port = std::min(cost.gm_rate, cfg_.gm.shared_bytes_per_cycle);
      const uint64_t lone = cost.fixed + std::max(cost.occupancy - cost.fixed,
                                                  static_cast<uint64_t>(std::ceil(cost.gm_bytes / port)));
      const Ranges runs = gm_ranges(op, bases_);
      const PlainL2::Found f = l2_.access(runs, write, s.core, t, t + lone);
      const double bytes = static_cast<double>(cost.gm_bytes);
      const bool nd2nz = std::holds_alternative<isa::DataCopyNd2Nz>(op);
      // A read run starting off the granule: its first line's bytes count unaligned_read_cost times.
      double extra = 0;
      if (!write)
        for (const auto& [from, to] : runs)
          if (from % l2.unaligned_granule_bytes != 0)
            extra += static_cast<double>(std::min<uint64_t>(to - from, l2.line_bytes));
      const double odd = 1.0 + (l2.unaligned_read_cost - 1.0) * extra / bytes;
      std::vector<model::FluidShare::Use> uses = {{static_cast<uint32_t>(s.core), 1.0}};
      uses.push_back({write ? n + 2 : n + 1, odd * (nd2nz ? 1.0 / l2.nd2nz_read_share : 1.0)});
      if (f.hbm_bytes) uses.push_back({n, odd * static_cast<double>(f.hbm_bytes) / bytes});
      if (write && l2.write_read_cost > 0) uses.push_back({n + 1, l2.write_read_cost});  // the read pool too
      double cap = bytes / static_cast<double>(lone);  // its lone rate, fixed cycles included
      if (f.shared)
        cap /= 1.0 + l2.same_address_penalty * static_cast<double>(f.shared) / static_cast<double>(f.lines);
      flows_[gm_.add(cap, cost.gm_bytes, uses.data(), uses.size())] = {&cores_[s.core], &p};
    }
    starting_.clear();
  }

  void finish_gm(model::FluidShare::FlowId id, uint64_t t) {
    auto [c, p] = flows_.at(id);
    flows_.erase(id);
    Timing& tm = c->timing[p->gm_instr];
    const model::Cost& cost = p->gm_cost;
    if (!c->l1_writes.empty() && c->l1_writes.back().second == UINT64_MAX &&
        touches_l1(isa::footprint((*c->prog)[p->gm_instr].op), true))
      c->l1_writes.back().second = t;
    tm.busy_end = std::max(p->gm_start + cost.occupancy, t);
    tm.end = tm.busy_end + cost.latency;
    p->in_gm = false;
    p->gm_done.emplace_back(tm.end, cost.gm_bytes);
    complete(*c, *p, tm);
  }

  void push_set(Core& c, const isa::SetFlag& s, uint64_t fire) {
    Core::Flag& f = c.flags[key(s.event, s.id)];
    const size_t src = static_cast<size_t>(s.event.src);
    if (f.sets.empty() && fire < f.cleared) {  // landed while the flag was still set: held
      fire = f.cleared;
      c.held_until[src] = std::max(c.held_until[src], fire);
    }
    f.sets.push_back(Core::Set{fire, src});
  }

  // A WaitFlag at t takes the oldest set if it has landed; the next one lands no earlier than t.
  bool take_set(Core& c, const isa::WaitFlag& w, uint64_t t) {
    Core::Flag& f = c.flags[key(w.event, w.id)];
    if (f.sets.empty() || f.sets.front().fire > t) return false;
    f.sets.pop_front();
    f.cleared = t;
    if (!f.sets.empty() && f.sets.front().fire < t) {
      f.sets.front().fire = t;
      c.held_until[f.sets.front().pipe] = std::max(c.held_until[f.sets.front().pipe], t);
    }
    return true;
  }

  // Whether a set of `pipe` (kPipeCount: any) waits behind another one: a barrier waits for it.
  static bool held_behind(const Core& c, size_t pipe) {
    for (const auto& kv : c.flags)
      for (size_t i = 1; i < kv.second.sets.size(); ++i)
        if (pipe == static_cast<size_t>(isa::kPipeCount) || kv.second.sets[i].pipe == pipe) return true;
    return false;
  }

  bool drained(const Core& c) const {
    for (size_t p = 1; p < isa::kPipeCount; ++p)
      if (!c.pipes[p].queue.empty() || c.pipes[p].in_gm) return false;
    return true;
  }

  void after_scalar(Core& c, uint64_t busy_end) {
    c.next_issue = static_cast<double>(busy_end) + 1.0 / cfg_.issue.instructions_per_cycle;
    ++c.next;
  }

  bool try_issue(Core& c, uint64_t t) {
    if (c.next >= c.prog->size()) return false;
    const Instruction& in = (*c.prog)[c.next];
    Timing& tm = c.timing[c.next];
    const uint64_t sync = cfg_.issue.sync_cycles;
    if (c.s_waiting) {  // an S WaitFlag, PIPE_ALL or SyncAll that arrived at s_arrived
      uint64_t start = 0;
      uint64_t cost = sync;
      if (const auto* w = std::get_if<isa::WaitFlag>(&in.op)) {
        if (!take_set(c, *w, t)) return false;
        start = t;
      } else if (!c.sync_arrived) {  // PIPE_ALL, or the first half of SyncAll: every pipe drained
        if (!drained(c) || held_behind(c, isa::kPipeCount)) return false;
        start = c.s_arrived;
        for (size_t p = 1; p < isa::kPipeCount; ++p) start = std::max(start, c.pipes[p].last_completion);
        for (const uint64_t h : c.held_until) start = std::max(start, h);
      }
      if (std::holds_alternative<isa::SyncAll>(in.op)) {
        // Every core leaves its n-th SyncAll at the last arrival, then pays issue.sync_all_cycles.
        if (!c.sync_arrived) c.sync_arrivals.push_back(start);
        c.sync_arrived = true;
        const size_t n = c.sync_arrivals.size() - 1;
        start = 0;
        for (const Core& o : cores_) {
          if (o.sync_arrivals.size() <= n) return false;
          start = std::max(start, o.sync_arrivals[n]);
        }
        c.sync_arrived = false;
        cost = cfg_.issue.sync_all_cycles;
      }
      c.s_waiting = false;
      tm.start = start;
      tm.busy_end = tm.end = start + cost;
      after_scalar(c, tm.busy_end);
      return true;
    }
    // The scalar set-up of the call comes before its issue slot.
    const uint64_t slot =
        static_cast<uint64_t>(std::ceil(c.next_issue - 1e-9)) + scalar_cost(in.op, cfg_.scalar);
    if (t < slot) return false;
    const Pipe pipe = isa::pipe_of(in.op);
    if (pipe == Pipe::S) {
      tm.issue = slot;
      if (const auto* s = std::get_if<isa::SetFlag>(&in.op)) {
        push_set(c, *s, slot + sync);
        tm.start = slot;
        tm.busy_end = tm.end = slot + sync;
        after_scalar(c, tm.busy_end);
        return true;
      }
      if (std::holds_alternative<isa::SetAtomicAdd>(in.op) ||
          std::holds_alternative<isa::SetAtomicNone>(in.op)) {
        c.atomic = std::holds_alternative<isa::SetAtomicAdd>(in.op);
        tm.start = slot;
        tm.busy_end = tm.end = slot + sync;
        after_scalar(c, tm.busy_end);
        return true;
      }
      c.s_waiting = true;
      c.s_arrived = slot;
      return true;
    }
    PipeState& p = c.pipes[static_cast<size_t>(pipe)];
    const uint32_t depth = depth_of(pipe);
    if (p.pushed >= depth && (p.started <= p.pushed - depth)) return false;  // queue full at t
    uint64_t at = slot;
    if (p.pushed >= depth) at = std::max(slot, p.start_of[p.pushed - depth]);
    if (t < at) return false;
    tm.issue = at;
    unit_issue(c, c.next);
    c.atomic_of[c.next] = c.atomic && std::holds_alternative<isa::Fixpipe>(in.op);
    p.queue.push_back(c.next);
    ++p.pushed;
    c.next_issue = static_cast<double>(at) + 1.0 / cfg_.issue.instructions_per_cycle;
    ++c.next;
    return true;
  }

  uint32_t depth_of(Pipe p) const {
    switch (p) {
      case Pipe::MTE2:
        return cfg_.issue.queue_depth_mte2;
      case Pipe::MTE1:
        return cfg_.issue.queue_depth_mte1;
      case Pipe::M:
        return cfg_.issue.queue_depth_m;
      case Pipe::FIX:
        return cfg_.issue.queue_depth_fix;
      default:
        return cfg_.issue.queue_depth_mte3;
    }
  }

  struct Starting {
    int pipe, core;
    PipeState* p;
  };
  const aicore::config::Config& cfg_;
  model::FluidShare gm_;
  PlainL2 l2_;
  std::vector<uint64_t> bases_;
  std::vector<Starting> starting_;
  std::vector<Core> cores_;
  std::map<model::FluidShare::FlowId, std::pair<Core*, PipeState*>> flows_;
};

}  // namespace

std::vector<std::vector<Timing>> schedule(const aicore::config::Config& cfg,
                                          const std::vector<std::vector<Instruction>>& cores,
                                          const std::vector<uint64_t>& tensor_bytes, uint64_t max_cycles) {
  Machine m(cfg, cores, tensor_bytes);
  m.run(max_cycles);
  return m.result();
}

}  // namespace ref
