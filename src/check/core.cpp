// Canonical processing order and the synchronisation rules (happens-before: "a completes
// before b starts"):
//   SetFlag s on P   releases P's knowledge plus every earlier P memory instruction;
//   WaitFlag w on Q  joins the release of its paired SetFlag into Q's knowledge (so a P->Q->P
//                    round trip also orders P's own instructions, with no special case);
//   PipeBarrier<P>   every earlier P instruction is known complete on P;
//   PIPE_ALL         every earlier instruction is known complete on every pipe;
//   dispatch         an instruction inherits what the scalar unit knew when it dispatched it
//                    (after a WaitFlag<X_S> the scalar unit issues nothing before X's work is done).
#include "core.hpp"

#include <algorithm>
#include <iterator>

#include "cross_core.hpp"

namespace aicore::check {

namespace {
constexpr size_t kS = static_cast<size_t>(isa::Pipe::S);

size_t pipe_index(const isa::Instruction& in) {
  return static_cast<size_t>(isa::pipe_of(in.op));
}

bool is_memory(const isa::Op& op) {
  return !isa::is_sync(op);
}

// What a SetFlag, PipeBarrier or PIPE_ALL at program index `at` knows of a pipe whose last
// memory instruction so far is `last`: all of its instructions before `at`, sync ones included
// (a WaitFlag among them matters for the double-SetFlag check).
Known completed(uint64_t at, const AccessRef& last) {
  return Known{at, last};
}
}  // namespace

CoreChecker::CoreChecker(uint16_t core, const CheckOptions& options, ReportBook& book, CrossCore* cross)
    : core_(core),
      opt_(options),
      book_(book),
      cross_(cross),
      pool_([this](const SyncUse& u) { judge_sync(u); }),
      flags_(size_t{isa::kPipeCount} * isa::kPipeCount * isa::kEventIds),
      open_sets_(flags_.size()),
      footprints_(cross != nullptr) {}

CoreChecker::~CoreChecker() {
  pool_.close(false);  // the remaining references go with the members, silently
}

size_t CoreChecker::flag_key(isa::EventPair e, uint8_t id) {
  // Hardware keeps only the low 3 bits of an event id; the model rejects ids above 7 anyway.
  return (static_cast<size_t>(e.src) * isa::kPipeCount + static_cast<size_t>(e.dst)) * isa::kEventIds +
         (id % isa::kEventIds);
}

CrossTag CoreChecker::cross_tag(uint64_t index) const {
  // The last change at or before `index` (few: one per SyncAll and atomic-mode switch).
  const auto it =
      std::upper_bound(cross_tags_.begin(), cross_tags_.end(), index,
                       [](uint64_t i, const std::pair<uint64_t, CrossTag>& c) { return i < c.first; });
  return it == cross_tags_.begin() ? CrossTag{} : std::prev(it)->second;
}

void CoreChecker::program_order(const isa::Instruction& in) {
  if (cross_ &&
      (std::holds_alternative<isa::SyncAll>(in.op) || std::holds_alternative<isa::SetAtomicAdd>(in.op) ||
       std::holds_alternative<isa::SetAtomicNone>(in.op))) {
    CrossTag t = cross_tags_.empty() ? CrossTag{} : cross_tags_.back().second;
    if (std::holds_alternative<isa::SyncAll>(in.op)) ++t.epoch;
    if (const auto* a = std::get_if<isa::SetAtomicAdd>(&in.op)) t.atomic = CrossTag::atomic_of(a->dtype);
    if (std::holds_alternative<isa::SetAtomicNone>(in.op)) t.atomic = 0;
    cross_tags_.emplace_back(in.index, t);
  }
  // The documented undefined case, decided in program order (timing cannot hide it): a second
  // SetFlag of a flag with no WaitFlag of it issued in between. Otherwise a set that lands on a
  // flag still set is held until a WaitFlag clears it (docs/checking.md), which is no error.
  if (const auto* s = std::get_if<isa::SetFlag>(&in.op)) {
    AccessRef& open = open_sets_[flag_key(s->event, s->id)];
    if (open.valid()) double_set(in, open);
    open = ref_of(in);
  } else if (const auto* w = std::get_if<isa::WaitFlag>(&in.op)) {
    open_sets_[flag_key(w->event, w->id)] = AccessRef{};
  }
}

void CoreChecker::issue(const isa::Instruction& in) {
  if (finished_) return;
  unit_flags(in);  // unit-flag hand-offs follow program order, not the canonical order
  program_order(in);
  const size_t p = pipe_index(in);
  // The common case, nothing held: process it at once.
  if (program_.empty() && p != kS && queues_[p].empty() && ready(in)) {
    process(in, scalar_snapshot_);
    if (queued_ > 0) pump();  // it may have readied a held WaitFlag
    return;
  }
  program_.push_back(in);
  pump();
}

bool CoreChecker::ready(const isa::Instruction& in) const {
  if (const auto* w = std::get_if<isa::WaitFlag>(&in.op)) return !flag(w->event, w->id).pending.empty();
  if ((std::holds_alternative<isa::PipeBarrier>(in.op) && isa::pipe_of(in.op) == isa::Pipe::S) ||
      std::holds_alternative<isa::SyncAll>(in.op)) {
    for (const auto& q : queues_)
      if (!q.empty()) return false;  // PIPE_ALL: everything before it first
  }
  return true;
}

void CoreChecker::pump() {
  for (;;) {
    bool progress = false;
    // Dispatch in program order, up to a scalar-pipe instruction that cannot run yet.
    while (!program_.empty()) {
      const isa::Instruction& in = program_.front();
      const size_t p = pipe_index(in);
      if (p == kS) {
        if (!ready(in)) break;
        process_scalar(in);
        progress = true;
      } else {
        queues_[p].push_back(Queued{in, scalar_snapshot_});
        ++queued_;
      }
      program_.pop_front();
    }
    // Then the pipes, always the ready head with the smallest index first.
    while (queued_ > 0) {
      size_t best = isa::kPipeCount;
      uint64_t best_index = UINT64_MAX;
      for (size_t p = 0; p < queues_.size(); ++p) {
        if (queues_[p].empty()) continue;
        const isa::Instruction& head = queues_[p].front().instr;
        if (head.index < best_index && ready(head)) {
          best = p;
          best_index = head.index;
        }
      }
      if (best == isa::kPipeCount) break;
      const Queued q = std::move(queues_[best].front());
      queues_[best].pop_front();
      --queued_;
      process(q.instr, q.stamp);
      progress = true;
    }
    if (!progress || program_.empty()) break;
  }
}

void CoreChecker::process(const isa::Instruction& in, const std::shared_ptr<const Knowledge>& stamp) {
  const size_t p = pipe_index(in);
  if (stamp) {
    Knowledge& k = known_[p];
    for (size_t r = 0; r < k.size(); ++r) {
      const Bound& s = (*stamp)[r];
      if (s.before <= k[r].before) continue;
      k[r].prev = k[r].before;
      k[r].before = s.before;
      k[r].last = s.last;
      k[r].via = s.via;
    }
  }
  if (is_memory(in.op))
    process_memory(in, p);
  else
    process_sync(in, p);
}

void CoreChecker::process_scalar(const isa::Instruction& in) {
  process_sync(in, kS);
}

void CoreChecker::process_sync(const isa::Instruction& in, size_t pipe) {
  if (const auto* s = std::get_if<isa::SetFlag>(&in.op)) return set_flag(in, *s, pipe);
  if (const auto* w = std::get_if<isa::WaitFlag>(&in.op)) return wait_flag(in, *w, pipe);
  // SyncAll drains every pipe of the core (as PIPE_ALL) before the cores meet; what it orders
  // across cores is the cross-core check's (cross_core.hpp). The atomic mode orders nothing.
  if (std::holds_alternative<isa::SyncAll>(in.op)) return pipe_all(in);
  if (!std::holds_alternative<isa::PipeBarrier>(in.op)) return;
  const auto& b = std::get<isa::PipeBarrier>(in.op);
  if (b.all || b.pipe == isa::Pipe::S) return pipe_all(in);
  barrier(in, pipe);
}

void CoreChecker::raise(Bound& b, const Known& k, const ViaRef& via, bool& raised) {
  if (k.before <= b.before) return;
  // "Raised" counts memory instructions newly known complete (what the lints judge); a bound
  // that only moves past sync instructions still orders those.
  if (k.last.valid() && (!b.last.valid() || k.last.index > b.last.index)) raised = true;
  b.prev = b.before;
  b.before = k.before;
  b.last = k.last;
  b.via = via;
}

void CoreChecker::scalar_changed() {
  bool any = false;
  for (const Bound& b : known_[kS]) any = any || b.before > 0;
  scalar_snapshot_ = any ? std::make_shared<const Knowledge>(known_[kS]) : nullptr;
}

void CoreChecker::set_flag(const isa::Instruction& in, const isa::SetFlag& s, size_t pipe) {
  FlagEntry e;
  for (size_t r = 0; r < e.rel.size(); ++r) e.rel[r] = Known{known_[pipe][r].before, known_[pipe][r].last};
  const Known own = completed(in.index, last_mem_[pipe]);
  if (own.before > e.rel[pipe].before) e.rel[pipe] = own;
  e.set = ref_of(in);
  // Pairing is FIFO per flag (the i-th WaitFlag takes the i-th SetFlag), as msSanitizer pairs
  // them: a set landing before the previous one's wait is held, not lost.
  Flag& f = flag(s.event, s.id);
  f.pending.push_back(std::move(e));
  ++f.sets;
  lint_event_id(in, s.id);
}

void CoreChecker::wait_flag(const isa::Instruction& in, const isa::WaitFlag& w, size_t pipe) {
  Flag& f = flag(w.event, w.id);
  if (f.pending.empty()) return;  // not ready: never called so
  const FlagEntry e = std::move(f.pending.front());
  f.pending.pop_front();
  const AccessRef wait = ref_of(in);
  const bool library = in.origin == isa::Origin::Library;
  const ViaRef via(&pool_, pool_.make(SyncDesc{wait, e.set, in.op, library}));
  bool raised = false;
  for (size_t r = 0; r < e.rel.size(); ++r) raise(known_[pipe][r], e.rel[r], via, raised);
  via->raised = raised && w.event.src != isa::Pipe::S;  // (see below)
  if (pipe == kS && raised) scalar_changed();
  // A SetFlag with something to release whose wait learns nothing: the waiting pipe knew it
  // all already. (A pre-set "buffer free" flag releases nothing: its first wait is normal.)
  // Reported once the pipe accesses memory again: a drain at the end of a kernel is normal.
  // Flags from the scalar unit are left alone: its own work (scalar GM stores, which v1 does not
  // model) is what they order, and what it dispatches is ordered anyway. So are the library's:
  // TPipe/TQue synchronise every buffer hand-off whether or not this kernel needs it.
  bool releases = false;
  for (const Known& k : e.rel) releases = releases || k.last.valid();
  if (releases && !raised && w.event.src != isa::Pipe::S && !library)
    redundant_[pipe].push_back(Redundant{wait, e.set, in.op});
  const size_t src = static_cast<size_t>(w.event.src), dst = static_cast<size_t>(w.event.dst);
  last_wait_[src][dst] = LastWait{true, wait, e.set, w.id};
  resolve_watches(w, wait, e.set);
  lint_event_id(in, w.id);
}

void CoreChecker::report_redundant(size_t pipe) {
  for (const Redundant& r : redundant_[pipe])
    lint(ReportKind::UselessSync, r.wait, sync_text(r.op),
         sync_text(r.op) + " ordered nothing: " + isa::to_string(static_cast<isa::Pipe>(pipe)) +
             " already knew everything its SetFlag at " + line_of(r.set, r.wait.file) + " releases",
         "remove the pair, or check that it synchronises what was meant");
  redundant_[pipe].clear();
}

void CoreChecker::barrier(const isa::Instruction& in, size_t pipe) {
  const ViaRef via(&pool_,
                   pool_.make(SyncDesc{ref_of(in), AccessRef{}, in.op, in.origin == isa::Origin::Library}));
  bool raised = false;
  raise(known_[pipe][pipe], completed(in.index, last_mem_[pipe]), via, raised);
  via->raised = raised;
}

void CoreChecker::pipe_all(const isa::Instruction& in) {
  const AccessRef at = ref_of(in);
  const ViaRef via(&pool_, pool_.make(SyncDesc{at, AccessRef{}, in.op, in.origin == isa::Origin::Library}));
  bool raised = false;
  for (Knowledge& k : known_)
    for (size_t r = 0; r < k.size(); ++r) raise(k[r], completed(in.index, last_mem_[r]), via, raised);
  via->raised = raised;
  scalar_changed();
  const auto* b = std::get_if<isa::PipeBarrier>(&in.op);
  if (b && !b->all)
    lint(ReportKind::PipeSBarrier, at, sync_text(in.op),
         "PipeBarrier<PIPE_S> is a hardware error on real chips (the simulator runs it as PIPE_ALL)",
         "use PipeBarrier<PIPE_ALL>, or a flag to the pipe that must wait");
}

void CoreChecker::lint_event_id(const isa::Instruction& in, uint8_t id) {
  // The ids TPipe/TQue pick are the library's to pick: only hand-written flags are linted.
  if ((id != 6 && id != 7) || in.origin == isa::Origin::Library) return;
  lint(ReportKind::ReservedEventId, ref_of(in), sync_text(in.op),
       "event id " + std::to_string(id) +
           " is reserved: the Ascend C framework's own synchronisation (TPipe/TQue) uses ids 6 and 7",
       "use ids 0-5 in hand-written flags, or the two can pair with each other's SetFlags");
}

bool CoreChecker::stuck() const {
  bool any = !program_.empty();
  for (const auto& q : queues_) any = any || !q.empty();
  return any;
}

void CoreChecker::finish(const RunEnd& end) {
  if (finished_) return;
  finished_ = true;
  // Instructions still held wait for SetFlags that never came: a deadlock, whether or not a
  // model ran the program (a programmatic run has none to tell).
  const bool completed = end.completed && !stuck();
  if (completed) {
    end_lints();
    unit_flags_left_set();
  }
  if (end.deadlock || stuck()) deadlock_hints();
  // Unused-sync judgements need the whole program: a run that stopped early has not shown
  // what its last syncs order.
  pool_.close(completed);
  for (uint64_t fl : needed_syncs_) {
    if (!fl) continue;
    AccessRef at;
    at.file = static_cast<FileId>(fl >> 32);
    at.line = static_cast<uint32_t>(fl);
    at.index = 0;
    book_.withdraw(key_of(ReportKind::UselessSync, core_, AccessRef{}, core_, at));
  }
}

}  // namespace aicore::check
