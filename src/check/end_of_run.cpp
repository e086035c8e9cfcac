// What only the end of a run shows: flags still set, and for a deadlock, the waits that can
// never pass with hints at why (a SetFlag with another id, a reverse flag never pre-set).
#include "core.hpp"

namespace aicore::check {

namespace {

// Flags against the data flow: "the consumer is done with the buffer". Kernels pre-set them.
bool is_reverse(isa::EventPair e) {
  using P = isa::Pipe;
  const isa::EventPair kReverse[] = {
      {P::MTE1, P::MTE2}, {P::M, P::MTE1}, {P::FIX, P::M}, {P::M, P::MTE2}, {P::MTE1, P::FIX}};
  for (const auto& r : kReverse)
    if (r.src == e.src && r.dst == e.dst) return true;
  return false;
}

std::string flag_name(const char* what, isa::EventPair e, uint64_t id) {
  return std::string(what) + "<" + event_text(e) + ">(" + std::to_string(id) + ")";
}

}  // namespace

void CoreChecker::end_lints() {
  for (size_t key = 0; key < flags_.size(); ++key)
    for (const FlagEntry& e : flags_[key].pending) {
      const auto src = static_cast<isa::Pipe>(key / isa::kEventIds / isa::kPipeCount);
      const auto dst = static_cast<isa::Pipe>(key / isa::kEventIds % isa::kPipeCount);
      const std::string name = flag_name("SetFlag", {src, dst}, key % isa::kEventIds);
      lint(ReportKind::FlagLeftSet, e.set, name,
           name + " is never waited: the flag is still set when the kernel ends",
           "a pre-set 'buffer free' flag needs a WaitFlag at the end of the kernel (a drain), or the next "
           "kernel's first WaitFlag of it passes at once");
    }
}

const isa::Instruction* CoreChecker::stuck_at(isa::Pipe pipe) const {
  if (pipe == isa::Pipe::S)
    return !program_.empty() && !ready(program_.front()) ? &program_.front() : nullptr;
  const auto& q = queues_[static_cast<size_t>(pipe)];
  return !q.empty() && !ready(q.front().instr) ? &q.front().instr : nullptr;
}

std::string CoreChecker::chain_hint(const isa::Instruction& wait, FileId file) const {
  const isa::Pipe waiting = isa::pipe_of(wait.op), src = std::get<isa::WaitFlag>(wait.op).event.src;
  const isa::Instruction* blocked = stuck_at(src);
  if (!blocked || blocked == &wait) return "";
  std::string s = std::string("its SetFlag would come from ") + isa::to_string(src) +
                  ", which is itself stuck at " + line_of(ref_of(*blocked), file);
  // Follow what each stuck pipe waits for: only a chain that leads back here is a circular wait; a
  // chain that ends at a pipe waiting for a SetFlag nobody issues is reported there.
  std::string path = std::string(isa::to_string(waiting)) + " -> " + isa::to_string(src);
  for (size_t steps = 0; blocked && steps < isa::kPipeCount; ++steps) {
    const auto* w = std::get_if<isa::WaitFlag>(&blocked->op);
    if (!w) break;
    path += std::string(" -> ") + isa::to_string(w->event.src);
    if (w->event.src == waiting) return s + " (a circular wait: " + path + ")";
    blocked = stuck_at(w->event.src);
  }
  return s;
}

void CoreChecker::deadlock_hints() {
  std::vector<const isa::Instruction*> stuck;
  for (const auto& q : queues_)
    if (!q.empty() && !ready(q.front().instr)) stuck.push_back(&q.front().instr);
  if (!program_.empty() && !ready(program_.front()) &&
      std::holds_alternative<isa::WaitFlag>(program_.front().op))
    stuck.push_back(&program_.front());
  for (const isa::Instruction* in : stuck) {
    const auto* w = std::get_if<isa::WaitFlag>(&in->op);
    if (!w) continue;
    const AccessRef at = ref_of(*in);
    const std::string wait = flag_name("WaitFlag", w->event, w->id),
                      set = flag_name("SetFlag", w->event, w->id);
    const Flag& f = flag(w->event, w->id);
    std::vector<std::string> hints;
    for (uint8_t id = 0; id < isa::kEventIds; ++id) {
      if (id == w->id % isa::kEventIds || flag(w->event, id).pending.empty()) continue;
      hints.push_back(flag_name("SetFlag", w->event, id) + " at " +
                      line_of(flag(w->event, id).pending.front().set, at.file) +
                      " is set and nothing waits for it: wrong id?");
    }
    if (std::string h = chain_hint(*in, at.file); !h.empty()) hints.push_back(std::move(h));
    if (f.sets == 0 && is_reverse(w->event))
      hints.push_back(event_text(w->event) +
                      " runs against the data flow (a 'buffer free' flag): pre-set it once with " + set +
                      " at the start of the kernel, and drain it with a WaitFlag at the end");
    else if (f.sets == 0)
      hints.push_back("no " + set + " is issued before the run stopped");
    else
      hints.push_back("all " + std::to_string(f.sets) + " " + set +
                      " issued were taken by earlier WaitFlags: one WaitFlag too many, or a SetFlag missing");
    if (Report* r = lint(ReportKind::Deadlock, at, wait,
                         wait + " can never pass: no " + set + " is left to pair with it", ""))
      for (const std::string& h : hints) r->details.push_back({"hint", h});
  }
}

}  // namespace aicore::check
