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
    const size_t src = static_cast<size_t>(w->event.src);
    if (!queues_[src].empty() && !ready(queues_[src].front().instr) && &queues_[src].front().instr != in)
      hints.push_back(std::string("its SetFlag would come from ") + isa::to_string(w->event.src) +
                      ", which is itself stuck at " + line_of(ref_of(queues_[src].front().instr), at.file) +
                      " (a circular wait)");
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
