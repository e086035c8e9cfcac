// unitFlag (docs/checking.md, "unitFlag"): L0C carries one unit flag per 512-byte granule. A Mmad
// with unitFlag=3 sets the flags of the cells it writes (hands them to Fixpipe); a Fixpipe with
// unitFlag 2 or 3 waits for them (3 clears them again); a Mmad with unitFlag 2 or 3 waits until
// they are clear. Followed here in program order, which is the order in which silicon hands the
// cells over, so that a hand-off that would hang (or not wait) is reported with both lines and
// the edit that fixes it; a correct one orders the two accesses (unit_ordered).
#include "aicore/common/error.hpp"
#include "aicore/isa/access.hpp"
#include "aicore/isa/check.hpp"
#include "core.hpp"

namespace aicore::check {

namespace {

uint8_t unit_flag(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op)) return m->unitFlag;
  if (const auto* m = std::get_if<isa::MmadWithSparse>(&op)) return m->unitFlag;
  if (const auto* f = std::get_if<isa::Fixpipe>(&op)) return f->unitFlag;
  return 0;
}

bool accumulates(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op)) return m->accumulates();
  if (const auto* m = std::get_if<isa::MmadWithSparse>(&op)) return m->accumulates();
  return false;
}

}  // namespace

bool CoreChecker::unit_ordered(const AccessRef& first, const AccessRef& second) {
  if (first.unit_flag < isa::kUnitFlagKeep || second.unit_flag < isa::kUnitFlagKeep) return false;
  // Accumulating Mmads into the same cells are the Cube's business (the interlock rule), even
  // when both take part in a hand-off.
  return !(is_mmad(first.op) && is_mmad(second.op) && first.unit_flag == isa::kUnitFlagKeep);
}

void CoreChecker::unit_flags(const isa::Instruction& in) {
  const bool mmad =
      std::holds_alternative<isa::Mmad>(in.op) || std::holds_alternative<isa::MmadWithSparse>(in.op);
  if (!mmad && !std::holds_alternative<isa::Fixpipe>(in.op)) return;
  try {
    isa::check_fields(in.op);  // the model faults at a malformed instruction: no hand-off to follow
  } catch (const Fault&) {
    return;
  }
  const uint8_t uf = unit_flag(in.op);
  const AccessRef at = ref_of(in);
  const FileId file = in.file;
  const std::vector<uint32_t> granules = isa::unit_flag_granules(in.op);
  for (const uint32_t g : granules) {
    if (g >= opt_.capacity[static_cast<size_t>(isa::Space::L0C)] / isa::kUnitFlagBytes) return;  // faults
    if (g >= unit_.size()) unit_.resize(g + size_t{1});
    UnitGranule& u = unit_[g];
    if (mmad) {
      if (uf >= isa::kUnitFlagKeep && u.set) {
        if (accumulates(in.op) && u.setter.index == u.mmad.index)
          unit_misuse(
              at, u.setter,
              "Mmad with unitFlag=" + std::to_string(uf) +
                  " accumulates into L0C cells whose unit flags the Mmad at " + line_of(u.setter, file) +
                  " already set (unitFlag=3 hands the cells to Fixpipe): it would wait for Fixpipe "
                  "to clear them, and hang",
              "unitFlag=2 on " + line_of(u.setter, file) + " (3 only on the last accumulating step)", g);
        else
          unit_misuse(at, u.setter,
                      "Mmad with unitFlag=" + std::to_string(uf) + " writes L0C cells that the Mmad at " +
                          line_of(u.setter, file) +
                          " handed to Fixpipe (unitFlag=3) and no Fixpipe with unitFlag=3 took before it: it "
                          "would wait for their unit flags to clear, and hang",
                      "a Fixpipe with unitFlag=3 of these cells between " + line_of(u.setter, file) +
                          " and " + line_of(at, file),
                      g);
      }
      u.mmad = at;
      if (uf == isa::kUnitFlagFlip) {
        u.set = true;
        u.setter = at;
      }
      continue;
    }
    // Fixpipe.
    if (uf >= isa::kUnitFlagKeep && !u.set) {
      const std::string head =
          "Fixpipe with unitFlag=" + std::to_string(uf) + " waits for L0C unit flags that ";
      if (u.taker.valid() && (!u.mmad.valid() || u.taker.index > u.mmad.index))
        unit_misuse(
            at, u.taker,
            head + "the Fixpipe at " + line_of(u.taker, file) +
                " (unitFlag=3) already cleared, and no Mmad with unitFlag=3 set again: it would hang",
            "unitFlag=2 on " + line_of(u.taker, file) + " (it keeps them for this one), or one Fixpipe", g);
      else if (!u.mmad.valid())
        unit_misuse(
            at, AccessRef{}, head + "no Mmad with unitFlag=3 before it sets: it would hang",
            "unitFlag=3 on the last Mmad of these cells, or unitFlag=0 here with SetFlag/WaitFlag<M_FIX> "
            "after the Mmad",
            g);
      else if (u.mmad.unit_flag == isa::kUnitFlagKeep)
        unit_misuse(
            at, u.mmad,
            head + "the last Mmad of these cells, at " + line_of(u.mmad, file) +
                ", does not set: it has unitFlag=2, and only unitFlag=3 hands them over; it would hang",
            "unitFlag=3 on " + line_of(u.mmad, file) + " (the last accumulating step)", g);
      else
        unit_misuse(at, u.mmad,
                    head + "the Mmad at " + line_of(u.mmad, file) +
                        " that wrote these cells does not set (it has unitFlag=0): it would hang",
                    "unitFlag=3 on " + line_of(u.mmad, file) +
                        ", or unitFlag=0 here with SetFlag/WaitFlag<M_FIX> between the two",
                    g);
    } else if (uf == 0 && u.set) {
      unit_misuse(
          at, u.setter,
          "Fixpipe with unitFlag=0 reads L0C cells the Mmad at " + line_of(u.setter, file) +
              " hands over by unitFlag=3: their unit flags stay set, so the next Mmad with unitFlag into "
              "them would wait forever (Mmad and Fixpipe must both enable unitFlag)",
          "unitFlag=3 on " + line_of(at, file), g);
    }
    if (uf == isa::kUnitFlagFlip) {
      u.set = false;
      u.taker = at;
    }
  }
}

// A hand-off is a wait as well as an order: a Fixpipe with unitFlag starts only once the Mmad with
// unitFlag=3 before it has written its cells, and a Mmad with unitFlag only once the Fixpipe with
// unitFlag=3 has drained them. So the waiting pipe learns what the other knew, as from a flag
// (not that the other pipe's earlier instructions are complete: the hand-off is per granule).
// Without it a unitFlag kernel, which has no M_FIX / FIX_M flags at all, would never let FIX learn
// that MTE2 read its GM inputs, and those reads would pile up against every later GM write.
void CoreChecker::unit_knowledge(const isa::Instruction& in, size_t pipe) {
  const uint8_t uf = unit_flag(in.op);
  const bool fix = pipe == static_cast<size_t>(isa::Pipe::FIX);
  if (uf < isa::kUnitFlagKeep || (!fix && pipe != static_cast<size_t>(isa::Pipe::M))) return;
  const std::vector<uint32_t> granules = isa::unit_flag_granules(in.op);
  const uint32_t limit =
      static_cast<uint32_t>(opt_.capacity[static_cast<size_t>(isa::Space::L0C)] / isa::kUnitFlagBytes);
  const AccessRef at = ref_of(in);
  const Release* learnt = nullptr;
  for (const uint32_t g : granules) {
    if (g >= limit) return;  // the model faults here
    if (g >= hands_.size()) hands_.resize(g + size_t{1});
    UnitHand& h = hands_[g];
    std::shared_ptr<const Release>& from = fix ? h.to_fix : h.to_m;
    const AccessRef& who = fix ? h.from_mmad : h.from_fix;
    if (!from || who.index >= at.index) continue;  // nothing handed over (yet, in program order)
    if (from.get() != learnt) {
      const ViaRef via(&pool_, pool_.make(SyncDesc{at, AccessRef{}, in.op, true}));
      bool raised = false;
      for (size_t r = 0; r < from->size(); ++r) raise(known_[pipe][r], (*from)[r], via, raised);
      via->raised = raised;
      learnt = from.get();
    }
    from.reset();  // learnt once: later steps of the same cells know it already
  }
  if (uf != isa::kUnitFlagFlip) return;
  auto rel = std::make_shared<Release>();
  for (size_t r = 0; r < rel->size(); ++r) (*rel)[r] = Known{known_[pipe][r].before, known_[pipe][r].last};
  for (const uint32_t g : granules) {
    if (g >= hands_.size()) hands_.resize(g + size_t{1});
    UnitHand& h = hands_[g];
    (fix ? h.to_m : h.to_fix) = rel;
    (fix ? h.from_fix : h.from_mmad) = at;
  }
}

void CoreChecker::unit_misuse(const AccessRef& at, const AccessRef& other, const std::string& summary,
                              const std::string& fix, uint32_t granule) {
  const ReportKey key = key_of(ReportKind::UnitFlagMisuse, core_, other, core_, at, isa::Space::L0C);
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  const uint64_t lo = uint64_t{granule} * isa::kUnitFlagBytes, hi = lo + isa::kUnitFlagBytes;
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.space = isa::Space::L0C;
    r.at = instr_ref(core_, at, is_mmad(at.op) ? "writes" : "reads");
    if (other.valid()) r.other = instr_ref(core_, other, is_mmad(other.op) ? "writes" : "reads");
    r.summary = summary;
    r.fix.kind = Fix::Kind::Edit;
    r.fix.after_line = other.valid() ? other.line : at.line;
    r.fix.before_line = at.line;
    r.fix.text = fix;
    if (other.valid()) book_.want_cycles(slot.id, false, core_, other.index);
    book_.want_cycles(slot.id, true, core_, at.index);
  }
  book_.add_range(slot.id, other.valid() ? other.index : at.index, at.index, lo, hi);
}

void CoreChecker::unit_flags_left_set() {
  uint64_t last = AccessRef::kNone;  // one warning per Mmad, not per granule
  for (const UnitGranule& u : unit_)
    if (u.set && u.setter.index != last) {
      last = u.setter.index;
      lint(
          ReportKind::UnitFlagLeftSet, u.setter, op_name(u.setter.op),
          std::string(op_name(u.setter.op)) +
              " with unitFlag=3 hands L0C cells to Fixpipe that no Fixpipe with unitFlag takes before the "
              "end: "
              "their unit flags stay set",
          "the next kernel's first Mmad with unitFlag into them would wait forever: read them with a Fixpipe "
          "with unitFlag=3, or use unitFlag=2 on this Mmad");
    }
}

}  // namespace aicore::check
