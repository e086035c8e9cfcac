// Turning findings into reports: what the later pipe knew, the missing edge as an edit, near
// misses (a flag that almost orders the pair), and the end-of-run lints and deadlock hints.
#include "core.hpp"

namespace aicore::check {

namespace {

const char* hazard_name(uint8_t h) {
  static constexpr const char* kNames[] = {"", "RAW", "WAR", "WAW"};
  return kNames[h];
}

std::string pipe_name(isa::Pipe p) {
  return isa::to_string(p);
}

// "12", or "FILE:12" in another file.
std::string number_of(const AccessRef& r, FileId file) {
  if (r.file == file || r.file == 0) return std::to_string(r.line);
  return source_file_name(r.file) + ":" + std::to_string(r.line);
}

std::string lines(const AccessRef& a, const AccessRef& b, FileId file) {
  if (a.line == b.line && a.file == b.file) return line_of(a, file);
  return "lines " + number_of(a, file) + " and " + number_of(b, file);
}

// The edit that orders `first` before `second` (two instructions of one core).
Fix fix_for(const AccessRef& first, const AccessRef& second, FileId file, const std::string& note) {
  Fix f;
  f.after_line = first.line;
  f.before_line = second.line;
  const std::string after = " after " + line_of(first, file), before = " before " + line_of(second, file);
  if (first.pipe == second.pipe) {
    f.kind = Fix::Kind::Barrier;
    f.pipe = first.pipe;
    f.text = "PipeBarrier<PIPE_" + pipe_name(first.pipe) + "> between " + lines(first, second, file) + note;
  } else if (isa::is_legal_event({first.pipe, second.pipe})) {
    f.kind = Fix::Kind::Flag;
    f.event = {first.pipe, second.pipe};
    const std::string e = event_text(f.event);
    f.text = "SetFlag<" + e + ">" + after + " and WaitFlag<" + e + ">" + before;
  } else if (isa::is_legal_event({first.pipe, isa::Pipe::S})) {
    // No direct pair exists (FIX -> MTE2, say): the scalar unit waits, and issues the second
    // instruction only after the first has completed.
    f.kind = Fix::Kind::ViaScalar;
    f.event = {first.pipe, isa::Pipe::S};
    const std::string e = event_text(f.event);
    f.text = "SetFlag<" + e + ">" + after + " and WaitFlag<" + e + ">" + before + " (there is no " +
             pipe_name(first.pipe) + "_" + pipe_name(second.pipe) +
             " flag: the scalar unit waits, then issues the rest)";
  } else {
    f.kind = Fix::Kind::PipeAll;
    f.text = "PipeBarrier<PIPE_ALL> between " + lines(first, second, file);
  }
  return f;
}

std::string via_text(const ViaRef& via, FileId file) {
  if (!via) return "";
  std::string s = sync_text(via->desc.op) + " at " + line_of(via->desc.ref, file);
  if (via->desc.set.valid()) s += " (paired with the SetFlag at " + line_of(via->desc.set, file) + ")";
  return s;
}

// A pair already reported racing one way races another way too ("RAW+WAW").
void merge_hazard(Report& r, uint8_t hazard, bool first_writes, bool second_writes) {
  if (r.hazard.find(hazard_name(hazard)) != std::string::npos) return;
  std::string merged;
  for (uint8_t h = 1; h <= 3; ++h)
    if (h == hazard || r.hazard.find(hazard_name(h)) != std::string::npos)
      merged += (merged.empty() ? "" : "+") + std::string(hazard_name(h));
  r.hazard = merged;
  const auto both = [](std::string& access, bool writes) {
    if (access != (writes ? "writes" : "reads")) access = "reads and writes";
  };
  both(r.at.access, second_writes);
  if (r.other) both(r.other->access, first_writes);
}

}  // namespace

std::string CoreChecker::known_text(const Access& b, const AccessRef& a, FileId file) const {
  const std::string p = pipe_name(static_cast<isa::Pipe>(b.pipe)), r = pipe_name(a.pipe);
  const Bound& k = known_[b.pipe][static_cast<size_t>(a.pipe)];
  const std::string at = "at " + line_of(b.ref, file) + ", ";
  const bool same = a.pipe == static_cast<isa::Pipe>(b.pipe);
  if (!k.last.valid()) {
    if (same)
      return "no PipeBarrier<PIPE_" + p + "> or flag round trip (" + p + " -> another pipe -> " + p +
             ") orders " + p + "'s own instructions before " + line_of(b.ref, file);
    return at + p + " knew of no " + r + " instruction complete: no flag from " + r + " had reached it";
  }
  const std::string whose = same ? "its own" : r + "'s";
  return at + p + " knew " + whose + " instructions complete only up to " + line_of(k.last, file) + " (" +
         op_name(k.last.op) + "), from " + via_text(k.via, file);
}

void CoreChecker::race(const Access& b, const AccessRef& a, bool a_writes, bool b_writes,
                       const isa::OperandAccess& o, uint64_t lo, uint64_t hi, uint16_t a_fractals) {
  // Named by program order, whichever of the two the canonical order reached first.
  const bool a_first = a.index < b.ref.index;
  const AccessRef& first = a_first ? a : b.ref;
  const AccessRef& second = a_first ? b.ref : a;
  const bool first_writes = a_first ? a_writes : b_writes, second_writes = a_first ? b_writes : a_writes;
  const uint8_t hazard = first_writes ? (second_writes ? 3 : 1) : 2;
  // One report per pair of lines and buffer, whatever the hazards (an accumulating Mmad after
  // another races both RAW and WAW).
  const ReportKey key = key_of(ReportKind::DataRace, core_, first, core_, second, o.space, o.tensor);
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  if (!slot.report) return;
  if (!slot.fresh) merge_hazard(*slot.report, hazard, first_writes, second_writes);
  if (slot.fresh) {
    Report& r = *slot.report;
    r.hazard = hazard_name(hazard);
    r.space = o.space;
    r.tensor = o.tensor;
    r.at = instr_ref(core_, second, second_writes ? "writes" : "reads");
    r.other = instr_ref(core_, first, first_writes ? "writes" : "reads");
    const FileId file = second.file;
    const std::string s = std::string(op_name(second.op)) + " (" + pipe_name(second.pipe) + ")";
    const std::string f =
        std::string(op_name(first.op)) + " (" + pipe_name(first.pipe) + ") at " + line_of(first, file);
    if (hazard == 1)
      r.summary = s + " reads bytes that " + f + " writes, and nothing makes the read wait for the write";
    else if (hazard == 2)
      r.summary = s + " overwrites bytes that " + f +
                  " reads, and nothing makes the write wait until the read is done";
    else
      r.summary = s + " writes bytes that " + f + " writes too, and nothing orders the two writes";
    r.details.push_back({"known", known_text(b, a, file)});
    std::string note;
    const uint16_t fractals = a_first ? a_fractals : b.fractals;
    if (first.pipe == second.pipe && o.space == isa::Space::L0C && is_mmad(first.op) && is_mmad(second.op))
      note = " (the earlier Mmad's (m/16)*(n/16) is " + std::to_string(fractals) + ", below the " +
             std::to_string(opt_.mmad_interlock_fractals) +
             " fractals at which the Cube orders accumulation itself)";
    r.fix = fix_for(first, second, file, note);
    if (a_first && a.pipe != second.pipe) {
      // Set too early: the last wait before the reader pairs with a SetFlag before the writer.
      const LastWait& lw = last_wait_[static_cast<size_t>(a.pipe)][b.pipe];
      Watch w{slot.id, a, b.ref, false, lw};
      if (lw.valid && lw.set.index < a.index && lw.wait.index > a.index) {
        w.early = true;
        const std::string e =
            "<" + event_text({a.pipe, static_cast<isa::Pipe>(b.pipe)}) + ">(" + std::to_string(lw.id) + ")";
        r.details.push_back({"near miss", "set too early: SetFlag" + e + " at " + line_of(lw.set, file) +
                                              " comes before " + line_of(a, file) + ", so WaitFlag" + e +
                                              " at " + line_of(lw.wait, file) + " does not wait for " +
                                              line_of(a, file) + ": move the SetFlag after " +
                                              line_of(a, file)});
      }
      watches_[static_cast<size_t>(a.pipe)][b.pipe].push_back(w);
    }
    book_.want_cycles(slot.id, false, core_, first.index);
    book_.want_cycles(slot.id, true, core_, second.index);
  }
  book_.add_range(slot.id, first.index, second.index, lo, hi, hazard);
}

void CoreChecker::resolve_watches(const isa::WaitFlag& w, const AccessRef& wait, const AccessRef& set) {
  auto& list = watches_[static_cast<size_t>(w.event.src)][static_cast<size_t>(w.event.dst)];
  for (const Watch& x : list) {
    // Wait too late: the first wait of the event after the reader pairs with a SetFlag placed
    // between the two accesses.
    if (!(set.index > x.a.index && set.index < x.b.index)) continue;
    Report& r = book_.at(x.report);
    const FileId file = r.at.file;
    const std::string e = "<" + event_text(w.event) + ">";
    r.details.push_back({"near miss", "wait too late: WaitFlag" + e + "(" + std::to_string(w.id) + ") at " +
                                          line_of(wait, file) + " waits for SetFlag" + e + "(" +
                                          std::to_string(w.id) + ") at " + line_of(set, file) + ", after " +
                                          line_of(x.a, file) + ", but comes after " + line_of(x.b, file) +
                                          ": move it before " + line_of(x.b, file)});
    if (x.early && x.early_wait.id != w.id)
      r.details.push_back(
          {"near miss", "ping/pong ids swapped? WaitFlag" + e + "(" + std::to_string(x.early_wait.id) +
                            ") at " + line_of(x.early_wait.wait, file) +
                            " waits for the other slot's SetFlag at " + line_of(x.early_wait.set, file) +
                            ", while id " + std::to_string(w.id) + " is the one set after " +
                            line_of(x.a, file)});
  }
  list.clear();
}

void CoreChecker::uninit(const Access& b, const isa::OperandAccess& o, uint64_t lo, uint64_t hi,
                         const AccessRef& origin) {
  const ReportKey key = key_of(ReportKind::UninitRead, core_, AccessRef{}, core_, b.ref, o.space);
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.space = o.space;
    r.at = instr_ref(core_, b.ref, "reads");
    r.summary = std::string(op_name(b.ref.op)) + " (" + pipe_name(b.ref.pipe) +
                ") reads bytes nothing wrote before it";
    std::string hint;
    if (origin.valid() && o.space == isa::Space::L0C && is_mmad(origin.op))
      hint = "these cells were computed by " + std::string(op_name(origin.op)) + " at " +
             line_of(origin, b.ref.file) + " from bias-table cells nothing wrote";
    else if (origin.valid())
      hint = "these bytes were copied by " + std::string(op_name(origin.op)) + " at " +
             line_of(origin, b.ref.file) + " from bytes nothing wrote";
    else if (o.space == isa::Space::SparseIndex)
      hint =
          "the index buffer is written only by LoadDataWithSparse; a plain LoadData into L0B leaves it "
          "undefined";
    else if (o.space == isa::Space::BiasTable)
      hint =
          "the bias table is written only by DataCopy from L1 (DataCopyL1ToBT): copy the bias into it first";
    else if (o.space == isa::Space::L0C && is_mmad(b.ref.op))
      hint =
          "the Mmad accumulates (cmatrixInitVal=0): the first Mmad into these bytes must set "
          "cmatrixInitVal=1";
    else if (o.space == isa::Space::L0C)
      hint = "no Mmad wrote these L0C bytes before";
    else
      hint = "no instruction wrote these bytes before";
    r.details.push_back({"hint", hint});
    book_.want_cycles(slot.id, true, core_, b.ref.index);
  }
  book_.add_range(slot.id, b.ref.index, b.ref.index, lo, hi);
}

void CoreChecker::type_confusion(const Access& b, const AccessRef& writer, uint8_t written, uint64_t lo,
                                 uint64_t hi) {
  const ReportKey key = key_of(ReportKind::TypeConfusion, core_, writer, core_, b.ref, isa::Space::L0C);
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.space = isa::Space::L0C;
    r.at = instr_ref(core_, b.ref, "reads");
    r.other = instr_ref(core_, writer, "writes");
    const FileId file = b.ref.file;
    const bool as_float = b.cells == kFloatCells;
    const char* read_as = as_float ? "float" : "int32";
    const char* left = written == kFloatCells ? "float" : "int32";
    const std::string w = std::string(op_name(writer.op)) + " (M) at " + line_of(writer, file);
    const std::string what =
        written == kFloatCells ? " (a half/bf16 Mmad: fp32 results)" : " (an int8 Mmad: int32 results)";
    r.summary = std::string(op_name(b.ref.op)) + " (" + pipe_name(b.ref.pipe) + ") reads L0C cells as " +
                read_as + " that " + w + " left as " + left + what +
                ": every value would be reinterpreted bits";
    std::string fix;
    if (is_fixpipe(b.ref.op)) {
      fix = written == kFloatCells
                ? "dtype=float on " + line_of(b.ref, file) + " (quantPre=F322F16 for fp16 C)"
                : "dtype=int32 on " + line_of(b.ref, file) +
                      " (quantPre=DEQF16 or REQ8 to "
                      "convert)";
      if (written == kInt32Cells && is_mmad(writer.op))
        fix += ", or dtype=half (or bf16) on the Mmad at " + line_of(writer, file) +
               " if A and B are fp16: the Mmad default is int8";
    } else {
      fix = "the same dtype on both Mmads (" + lines(writer, b.ref, file) + "), or cmatrixInitVal=1 on " +
            line_of(b.ref, file) + " to start a new C";
    }
    r.details.push_back(
        {"hint", std::string("L0C holds int32 cells after an int8 Mmad or MmadWithSparse and ") +
                     "float cells after a half or bf16 Mmad; Fixpipe's dtype names the cells it reads"});
    r.fix.kind = Fix::Kind::Edit;
    r.fix.after_line = writer.line;
    r.fix.before_line = b.ref.line;
    r.fix.text = fix;
    book_.want_cycles(slot.id, false, core_, writer.index);
    book_.want_cycles(slot.id, true, core_, b.ref.index);
  }
  book_.add_range(slot.id, writer.index, b.ref.index, lo, hi);
}

bool CoreChecker::repeats(const AccessRef& a, const Access& b) const {
  // Copies only (MTE2 GM -> L1, MTE1 L1 -> L0): they never read what they write, so the same
  // fields on the same unchanged sources write the same bytes.
  if (a.pipe != b.ref.pipe || a.op != b.ref.op || (a.pipe != isa::Pipe::MTE1 && a.pipe != isa::Pipe::MTE2))
    return false;
  const Recent& r = recent_[a.index & (recent_.size() - 1)];
  return r.index_plus1 == a.index + 1 && r.hash == hash_ && r.source_writes == source_writes_;
}

void CoreChecker::duplicate(const Access& b, const AccessRef& a, const isa::OperandAccess& o, uint64_t lo,
                            uint64_t hi) {
  const ReportKey key = key_of(ReportKind::DuplicateWrite, core_, a, core_, b.ref, o.space, o.tensor);
  const ReportBook::Slot slot = book_.find(key, Severity::Warning);
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.hazard = "WAW";
    r.space = o.space;
    r.tensor = o.tensor;
    r.at = instr_ref(core_, b.ref, "writes");
    r.other = instr_ref(core_, a, "writes");
    const FileId file = b.ref.file;
    const std::string p = pipe_name(a.pipe);
    r.summary = std::string(op_name(b.ref.op)) + " (" + p + ") repeats " + op_name(a.op) + " at " +
                line_of(a, file) +
                " exactly (the same fields and operands, and nothing wrote its source in between): the two "
                "writes are not ordered, but they write the same bytes";
    r.details.push_back({"hint", "the repeat only costs " + p +
                                     " time; if it was meant to copy other data, " +
                                     "its operands are wrong"});
    r.fix.kind = Fix::Kind::Remove;
    r.fix.after_line = a.line;
    r.fix.before_line = b.ref.line;
    r.fix.text = "remove " + line_of(b.ref, file) + " (it repeats " + line_of(a, file) + ")";
    book_.want_cycles(slot.id, false, core_, a.index);
    book_.want_cycles(slot.id, true, core_, b.ref.index);
  }
  book_.add_range(slot.id, a.index, b.ref.index, lo, hi, 3);
}

void CoreChecker::interlock_boundary(const Access& b, const AccessRef& a, uint64_t lo, uint64_t hi,
                                     uint16_t fractals, uint8_t hazard) {
  const ReportKey key = key_of(ReportKind::InterlockBoundary, core_, a, core_, b.ref, isa::Space::L0C);
  const ReportBook::Slot slot = book_.find(key, Severity::Warning);
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.space = isa::Space::L0C;
    r.at = instr_ref(core_, b.ref, "writes");
    r.other = instr_ref(core_, a, "writes");
    const FileId file = b.ref.file;
    r.summary = std::string(op_name(b.ref.op)) + " accumulates into L0C bytes that " + op_name(a.op) +
                " at " + line_of(a, file) + " writes, with (m/16)*(n/16) = " + std::to_string(fractals) +
                ": exactly the threshold at which the Cube orders them itself";
    r.details.push_back({"hint", "the Ascend C docs say >= " + std::to_string(fractals) +
                                     " fractals need no barrier; CANN kernels add one up to " +
                                     std::to_string(fractals) + " (check.mmad_interlock_fractals)"});
    r.fix = fix_for(a, b.ref, file, " to be safe");
    book_.want_cycles(slot.id, false, core_, a.index);
    book_.want_cycles(slot.id, true, core_, b.ref.index);
  }
  book_.add_range(slot.id, a.index, b.ref.index, lo, hi, hazard);
}

Report* CoreChecker::lint(ReportKind kind, const AccessRef& at, const std::string& mnemonic,
                          const std::string& summary, const std::string& hint) {
  const ReportKey key = key_of(kind, core_, AccessRef{}, core_, at);
  const ReportBook::Slot slot =
      book_.find(key, kind == ReportKind::Deadlock ? Severity::Error : Severity::Warning);
  if (!slot.report) return nullptr;
  if (!slot.fresh) {
    ++slot.report->instances;
    return nullptr;
  }
  Report& r = *slot.report;
  r.at = instr_ref(core_, at, mnemonic, "");
  r.summary = summary;
  if (!hint.empty()) r.details.push_back({"hint", hint});
  return &r;
}

void CoreChecker::judge_sync(const SyncUse& u) {
  if (u.desc.library) return;
  if (u.raised && u.needed && u.desc.ref.line) {
    const uint64_t fl = uint64_t{u.desc.ref.file} << 32 | u.desc.ref.line;
    needed_syncs_[(fl * 0x9E3779B97F4A7C15ull) >> 52] = fl;  // 4096 slots
  }
  if (!(u.raised && u.conflict && !u.needed)) return;
  lint(ReportKind::UselessSync, u.desc.ref, sync_text(u.desc.op),
       sync_text(u.desc.op) +
           " ordered nothing: every later access it could order was already ordered without it",
       "remove it, or check that it synchronises what was meant");
}

void CoreChecker::double_set(const isa::Instruction& in, const AccessRef& previous) {
  const AccessRef at = ref_of(in);
  const ReportKey key = key_of(ReportKind::DoubleSetFlag, core_, previous, core_, at);
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  if (!slot.report) return;
  if (!slot.fresh) {
    ++slot.report->instances;
    return;
  }
  Report& r = *slot.report;
  const std::string name = sync_text(in.op);
  r.at = instr_ref(core_, at, name, "");
  r.other = instr_ref(core_, previous, "SetFlag", "");
  r.summary =
      name + " sets the flag again with no WaitFlag of it since the SetFlag at " + line_of(previous, at.file);
  r.details.push_back({"hint",
                       "a WaitFlag of the flag must come between two of its SetFlags in program order; the "
                       "hardware's behaviour is undefined otherwise (a later PipeBarrier<PIPE_ALL> hangs)"});
}

}  // namespace aicore::check
