// Memory instructions against shadow memory. A read checks each byte's last writer and joins the
// buffer's read log; a write checks the last writer and the logged reads, then becomes the bytes'
// only history (if nothing raced, all of those are ordered before it, hence before whatever is
// ordered after it: FastTrack's argument). Conflicting pairs are ordered when the later pipe knew
// the earlier instruction complete, or by the Cube's own interlock for large accumulating Mmads;
// everything else is a race.
#include <algorithm>
#include <type_traits>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "core.hpp"
#include "cross_core.hpp"

namespace aicore::check {

namespace {

uint16_t fractals_of(const isa::Op& op) {
  const isa::MmadCommon* m = nullptr;
  if (const auto* d = std::get_if<isa::Mmad>(&op)) m = d;
  if (const auto* s = std::get_if<isa::MmadWithSparse>(&op)) m = s;
  // Integer division, as the Mmad documentation's rule has it: m = 15 gives 0 fractals.
  return m ? static_cast<uint16_t>((m->m / 16) * (m->n / 16)) : 0;
}

// The L0C cell type an instruction writes (Mmad) or expects to read (Fixpipe; an accumulating
// Mmad reads what it writes).
uint8_t cells_of(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op))
    return m->dtype == isa::DType::Int8 || m->dtype == isa::DType::Int4 ? kInt32Cells : kFloatCells;
  if (std::holds_alternative<isa::MmadWithSparse>(op)) return kInt32Cells;
  if (const auto* f = std::get_if<isa::Fixpipe>(&op))
    return f->dtype == isa::DType::Int32 ? kInt32Cells : kFloatCells;
  return kNoCells;
}

bool is_copy(const isa::Op& op) {
  return std::holds_alternative<isa::LoadData>(op) || std::holds_alternative<isa::LoadDataWithSparse>(op) ||
         std::holds_alternative<isa::LoadData3DV2>(op) ||
         std::holds_alternative<isa::LoadDataWithTranspose>(op) ||
         std::holds_alternative<isa::DataCopyL1ToBT>(op);
}

void push_merged(std::vector<isa::ByteRange>& v, uint64_t lo, uint64_t hi) {
  if (!v.empty() && v.back().end == lo)
    v.back().end = hi;
  else
    v.push_back(isa::ByteRange{lo, hi});
}

// The pipes whose v1 instructions write each memory (MTE2 fills L1, MTE1 the L0 buffers, the Cube
// L0C, Fixpipe GM): a read of it is dead once they all know it complete. Pipes seen writing it
// are added as they come.
uint32_t writers_of(isa::Space s) {
  const auto bit = [](isa::Pipe p) { return 1u << static_cast<int>(p); };
  switch (s) {
    case isa::Space::GM:
      return bit(isa::Pipe::FIX);
    case isa::Space::L1:
      return bit(isa::Pipe::MTE2);
    case isa::Space::L0A:
    case isa::Space::L0B:
    case isa::Space::SparseIndex:
    case isa::Space::BiasTable:
      return bit(isa::Pipe::MTE1);
    case isa::Space::L0C:
      return bit(isa::Pipe::M);
  }
  return 0;
}
}  // namespace

CoreChecker::Buffer& CoreChecker::buffer(isa::Space s) {
  Buffer& b = onchip_[static_cast<size_t>(s)];
  if (b.writers == 0) b.writers = writers_of(s);
  return b;
}

CoreChecker::GmBuffer& CoreChecker::gm(uint32_t tensor) {
  if (tensor >= gm_.size()) gm_.resize(tensor + size_t{1});
  GmBuffer& b = gm_[tensor];
  if (b.writers == 0) b.writers = writers_of(isa::Space::GM);
  return b;
}

void CoreChecker::process_memory(const isa::Instruction& in, size_t pipe) {
  // GM sources as hulls unless cores are compared: most are inputs nothing writes (gm_read).
  acc_ = footprints_.get(in.op, &hash_);
  if (!acc_) return;  // check_fields failed: the model stops at this instruction with a fault
  const isa::AccessList& acc = *acc_;
  for (const isa::OperandAccess& o : acc) {
    // Out of bounds: the model faults here too. (GM tensor ids come from .gm declarations.)
    if (!o.ranges.empty() && o.ranges.back().end > opt_.capacity[static_cast<size_t>(o.space)]) return;
    if (o.space == isa::Space::GM && o.tensor > (1u << 20)) return;
  }
  if (!redundant_[pipe].empty()) report_redundant(pipe);
  source_writes_ = 0;
  for (const isa::OperandAccess& o : acc)
    if (!o.write) source_writes_ += space_writes_[static_cast<size_t>(o.space)];
  recent_[in.index & (recent_.size() - 1)] = {in.index + 1, hash_, source_writes_};
  unit_knowledge(in, pipe);
  Access b{ref_of(in), pipe, fractals_of(in.op), is_copy(in.op), cells_of(in.op), &in.op};
  needed_.fill(false);
  seen_.fill(false);
  for (size_t i = 0; i < acc.size(); ++i) {
    const isa::OperandAccess& o = acc[i];
    undefined_[i].clear();
    if (o.space == isa::Space::GM) {
      GmBuffer& buf = gm(o.tensor);
      if (o.write)
        write(buf, o, b);
      else
        read(buf, o, b, undefined_[i]);
    } else {
      Buffer& buf = buffer(o.space);
      if (o.write)
        write(buf, o, b);
      else
        read(buf, o, b, undefined_[i]);
    }
  }
  if (b.copy) propagate_undefined(in.op);
  for (size_t i = 0; i < acc.size(); ++i)
    if (acc[i].space == isa::Space::L0C && !acc[i].write && !undefined_[i].empty() && !b.copy) {
      std::vector<isa::ByteRange> still = undefined_[i];  // C += A x B of an undefined cell stays undefined
      buffer(isa::Space::L0C).map.update(still, [](ShadowCell& c, uint64_t, uint64_t) { c.defined = false; });
    }
  for (size_t i = 0; i < acc.size(); ++i)
    if (acc[i].space == isa::Space::BiasTable && !acc[i].write && !undefined_[i].empty())
      std::visit(
          [&](const auto& x) {
            if constexpr (std::is_base_of_v<isa::MmadCommon, std::decay_t<decltype(x)>>)
              propagate_bias(x, undefined_[i]);
          },
          in.op);
  for (const isa::OperandAccess& o : acc)
    if (o.write) ++space_writes_[static_cast<size_t>(o.space)];
  if (cross_) {
    const auto* f = std::get_if<isa::Fixpipe>(&in.op);
    cross_->record(core_, acc, b.ref, cross_tag(in.index), f ? isa::output_dtype(*f) : isa::DType::Int32);
  }
  credit(pipe);
  last_mem_[pipe] = b.ref;
}

template <class B>
void CoreChecker::read(B& buf, const isa::OperandAccess& hull_or_exact, const Access& b,
                       std::vector<isa::ByteRange>& undefined) {
  constexpr bool kGm = std::is_same_v<B, GmBuffer>;  // GM is its file's bytes or zeros: always defined
  const isa::OperandAccess* op = &hull_or_exact;
  if (kGm && !op->exact) {
    // A GM source given as its hull. While nothing has written the tensor no read of it can
    // race yet: keep the instruction, and its rows only if a write ever comes near.
    if (buf.map.empty()) {
      buf.reads.add_lazy(b.ref, op->ranges.front(), *b.op);
      if (buf.reads.size() >= ReadLog::kFoldAt) prune(buf);
      if (buf.reads.size() >= ReadLog::kFoldAt) fold(buf);
      return;
    }
    isa::exact_accesses(*b.op, exact_);
    for (const isa::OperandAccess& x : exact_)
      if (x.space == isa::Space::GM && !x.write) op = &x;
  }
  const isa::OperandAccess& o = *op;
  // A writer this read is not ordered after (this very instruction's own writes are no race).
  const auto unordered = [&](const ShadowCell& c) {
    return c.writer.valid() && c.writer.index != b.ref.index && !ordered(b, c.writer);
  };
  // Fast path: one defined cell whose writer is ordered (or this very instruction) holds every
  // byte read. Then no piece conflicts and none is undefined; `ordered` only notes the sync it
  // owes that to, the same for every piece, so checking once is the same as per piece.
  // L0C cells read as the type their writer left them (a Fixpipe's dtype, an accumulating Mmad's).
  const bool typed = !kGm && o.space == isa::Space::L0C && b.cells != kNoCells;
  const ShadowCell* whole = nullptr;
  if constexpr (kGm)
    whole = buf.map.covering(o.ranges);
  else
    whole = buf.map.covering(o.ranges.front().begin, o.ranges.back().end);
  if (whole && (kGm || whole->defined) && !unordered(*whole) &&
      (!typed || whole->cells == kNoCells || whole->cells == b.cells)) {
    buf.reads.add(b.ref, b.fractals, o.ranges);
    if (buf.reads.size() < ReadLog::kFoldAt) return;
    prune(buf);
    if (buf.reads.size() >= ReadLog::kFoldAt) fold(buf);
    return;
  }
  if constexpr (kGm) {
    buf.map.inspect(o.ranges, unordered, [&](const ShadowCell& c, uint64_t lo, uint64_t hi) {
      conflict(b, c.writer, true, false, o, lo, hi, c.writer_fractals);
    });
  } else {
    const auto undefined_piece = [&](uint64_t lo, uint64_t hi, const AccessRef& origin) {
      // Carried on, not reported: a copy's bytes; a Mmad's bias cells nothing wrote (propagate_bias:
      // the columns of C they start are undefined, an error only when a Fixpipe writes them out);
      // the C cells an accumulating Mmad reads that an earlier Mmad computed from such a bias.
      if (b.copy || o.space == isa::Space::BiasTable ||
          (o.space == isa::Space::L0C && origin.valid() && is_mmad(b.ref.op) && is_mmad(origin.op)))
        push_merged(undefined, lo, hi);
      else
        uninit(b, o, lo, hi, origin);
    };
    buf.map.inspect(
        o.ranges,
        [&](const ShadowCell& c, uint64_t lo, uint64_t hi) {
          if (unordered(c)) conflict(b, c.writer, true, false, o, lo, hi, c.writer_fractals);
          if (!c.defined) undefined_piece(lo, hi, c.writer);
          if (typed && c.cells != kNoCells && c.cells != b.cells && c.writer.index != b.ref.index)
            type_confusion(b, c.writer, c.cells, lo, hi);
        },
        [&](uint64_t lo, uint64_t hi) { undefined_piece(lo, hi, AccessRef{}); });
  }
  buf.reads.add(b.ref, b.fractals, o.ranges);
  // Normally the next write prunes (after crediting the syncs that order it); a buffer nothing
  // writes any more is pruned here.
  if (buf.reads.size() < ReadLog::kFoldAt) return;
  prune(buf);
  if (buf.reads.size() >= ReadLog::kFoldAt) fold(buf);
}

// No writer catches up with these reads: keep the oldest per byte range instead.
void CoreChecker::fold(Reads& buf) {
  for (ReadLog::Entry& e : buf.reads.take_oldest()) {
    materialize(e);
    buf.folded.update(e.ranges, [&](ReaderCell& c, uint64_t, uint64_t) {
      c.readers[static_cast<size_t>(e.reader.pipe)] = e.reader;
      if (e.reader.pipe == isa::Pipe::M) c.fractals = e.fractals;
    });
  }
}

std::array<uint64_t, isa::kPipeCount> CoreChecker::dead_below(const Reads& buf) const {
  // A read of pipe R is dead below what every writer pipe knows of R.
  std::array<uint64_t, isa::kPipeCount> below;
  below.fill(UINT64_MAX);
  for (size_t w = 0; w < isa::kPipeCount; ++w)
    if (buf.writers >> w & 1u)
      for (size_t r = 0; r < isa::kPipeCount; ++r) below[r] = std::min(below[r], known_[w][r].before);
  return below;
}

void CoreChecker::prune(Reads& buf) {
  const auto below = dead_below(buf);
  buf.reads.prune(
      [&](const ReadLog::Entry& e) { return e.reader.index < below[static_cast<size_t>(e.reader.pipe)]; });
}

template <class B>
void CoreChecker::write(B& buf, const isa::OperandAccess& o, const Access& b) {
  buf.writers |= 1u << b.pipe;
  // Reads still logged: WAR unless ordered (crediting the sync that ordered it); then the
  // overwritten bytes are forgotten, and reads every writer knows complete are dropped.
  const auto below = dead_below(buf);
  const uint64_t lo = o.ranges.front().begin, hi = o.ranges.back().end;
  bool drop = false;
  for (ReadLog::Entry& e : buf.reads.entries()) {
    const bool dead = e.reader.index < below[static_cast<size_t>(e.reader.pipe)];
    drop = drop || dead;
    if (e.hi <= lo || e.lo >= hi) continue;
    materialize(e);
    if (!overlap(e, o.ranges)) continue;
    // One ordering check per read: `ordered` answers the same for every piece (and only notes
    // which sync it owes that to); the pieces matter only for a race.
    if (e.reader.index != b.ref.index && !ordered(b, e.reader))
      for_each_overlap(e.ranges, o.ranges, [&](uint64_t x, uint64_t y) {
        conflict(b, e.reader, false, true, o, x, y, e.fractals);
      });
    if (!dead) {
      subtract(e, o.ranges);
      drop = drop || e.ranges.empty();
    }
  }
  if (drop || buf.reads.size() >= ReadLog::kPruneAt)
    buf.reads.prune(
        [&](const ReadLog::Entry& e) { return e.reader.index < below[static_cast<size_t>(e.reader.pipe)]; });
  if (!buf.folded.empty()) {
    buf.folded.inspect(o.ranges, [&](const ReaderCell& c, uint64_t x, uint64_t y) {
      for (const AccessRef& r : c.readers)
        if (r.valid() && r.index != b.ref.index && !ordered(b, r))
          conflict(b, r, false, true, o, x, y, r.pipe == isa::Pipe::M ? c.fractals : 0);
    });
    buf.folded.assign(o.ranges, ReaderCell{});
  }
  ShadowCell n;
  n.writer = b.ref;
  n.writer_fractals = b.fractals;
  n.defined = true;
  if (o.space == isa::Space::L0C) n.cells = b.cells;
  // The last writers of the bytes, checked as they are replaced (nothing in between reads the map).
  const auto unordered = [&](const ShadowCell& c) {
    return c.writer.valid() && c.writer.index != b.ref.index && !ordered(b, c.writer);
  };
  const auto race_with = [&](const ShadowCell& c, uint64_t x, uint64_t y) {
    conflict(b, c.writer, true, true, o, x, y, c.writer_fractals);
  };
  if constexpr (std::is_same_v<B, GmBuffer>)
    buf.map.exchange(o.ranges, n, unordered, race_with);
  else
    buf.map.exchange(o.ranges, n, [&](const ShadowCell& c, uint64_t x, uint64_t y) {
      if (unordered(c)) race_with(c, x, y);
    });
}

void CoreChecker::conflict(const Access& b, const AccessRef& a, bool a_writes, bool b_writes,
                           const isa::OperandAccess& o, uint64_t lo, uint64_t hi, uint16_t a_fractals) {
  const size_t r = static_cast<size_t>(a.pipe);
  const uint32_t threshold = opt_.mmad_interlock_fractals;
  if (r == b.pipe && o.space == isa::Space::L0C && is_mmad(a.op) && is_mmad(b.ref.op) &&
      a_fractals >= threshold) {
    if (a_fractals == threshold)
      interlock_boundary(b, a, lo, hi, a_fractals, b_writes ? (a_writes ? 3 : 2) : 1);
    return;  // the Cube interlocks accumulation into the same L0C cells itself
  }
  // Mmad and Fixpipe with unitFlag hand L0C to each other at the granule, with no M_FIX / FIX_M
  // flags: such pairs are ordered (a hand-off that would hang is a unitFlag misuse, reported in
  // program order by unit_flags.cpp).
  if (o.space == isa::Space::L0C && (a.index < b.ref.index ? unit_ordered(a, b.ref) : unit_ordered(b.ref, a)))
    return;
  if (a_writes && b_writes && repeats(a, b)) return duplicate(b, a, o, lo, hi);
  race(b, a, a_writes, b_writes, o, lo, hi, a_fractals);
}

void CoreChecker::credit(size_t pipe) {
  for (size_t r = 0; r < isa::kPipeCount; ++r) {
    const ViaRef& via = known_[pipe][r].via;
    if (!via) continue;
    if (needed_[r]) via->needed = true;
    if (seen_[r]) via->conflict = true;
  }
}

}  // namespace aicore::check
