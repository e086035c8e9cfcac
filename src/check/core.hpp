// The checker's view of one core. Instructions arrive in program order and are processed in a
// canonical order computed from program order alone: each pipe takes its own instructions in
// order; a WaitFlag waits until its paired SetFlag (the i-th wait of a flag pairs with its i-th
// set) has been processed, PIPE_ALL until everything before it has, and nothing is dispatched
// past a scalar-pipe wait. Any happens-before-ordered pair is processed in order, and the
// shadow memory ends up the same whatever the simulated timing.
#pragma once
#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "aicore/check/checker.hpp"
#include "aicore/isa/access.hpp"
#include "cross_core.hpp"
#include "footprint_cache.hpp"
#include "interval_map.hpp"
#include "knowledge.hpp"
#include "read_log.hpp"
#include "report_book.hpp"
#include "strided_map.hpp"

namespace aicore::check {

class CrossCore;

// Shadow memory, FastTrack style: per byte range its last writer (and whether its bytes are
// defined: GM always is); the reads since, per buffer, in a ReadLog. Reads the log gave up on
// (no writer caught up) are kept per byte range too, with the last reader on each pipe.
// L0C cell types, as a Mmad leaves them and a Fixpipe or an accumulating Mmad reads them.
enum CellType : uint8_t { kNoCells = 0, kInt32Cells = 1, kFloatCells = 2 };

struct ShadowCell {
  AccessRef writer;
  uint16_t writer_fractals = 0;  // (m/16)*(n/16) of a Mmad writer, for the interlock rule
  bool defined = false;
  uint8_t cells = kNoCells;  // L0C: the type the writer left (CellType)
  bool same(const ShadowCell& o) const {
    return writer.index == o.writer.index && defined == o.defined && writer_fractals == o.writer_fractals &&
           cells == o.cells;
  }
};
struct ReaderCell {
  std::array<AccessRef, isa::kPipeCount> readers{};
  uint16_t fractals = 0;  // of the M reader
  bool same(const ReaderCell& o) const {
    for (size_t i = 0; i < readers.size(); ++i)
      if (readers[i].index != o.readers[i].index) return false;
    return fractals == o.fractals;
  }
};
using Shadow = IntervalMap<ShadowCell>;
using GmShadow = StridedMap<ShadowCell>;

class CoreChecker {
 public:
  CoreChecker(uint16_t core, const CheckOptions& options, ReportBook& book, CrossCore* cross);
  ~CoreChecker();
  void issue(const isa::Instruction& in);
  void finish(const RunEnd& end);
  bool stuck() const;  // instructions wait for a SetFlag that was never issued

 private:
  struct Queued {
    isa::Instruction instr;
    std::shared_ptr<const Knowledge> stamp;  // the scalar unit's knowledge when it dispatched it
  };
  struct FlagEntry {
    Release rel;
    AccessRef set;
  };
  struct Flag {
    std::deque<FlagEntry> pending;  // processed SetFlags no WaitFlag has paired with yet
    uint64_t sets = 0;
  };
  struct LastWait {
    bool valid = false;
    AccessRef wait, set;
    uint8_t id = 0;
  };
  // A race whose "wait too late" near miss is decided by the next WaitFlag of its event.
  struct Watch {
    uint32_t report;
    AccessRef a, b;
    bool early = false;  // a "set too early" near miss was found, with this wait
    LastWait early_wait;
  };
  // The instruction being checked.
  struct Access {
    AccessRef ref;
    size_t pipe = 0;
    uint16_t fractals = 0;     // Mmad: (m/16)*(n/16)
    bool copy = false;         // MTE1 load: copies undefined bytes on rather than reporting them
    uint8_t cells = kNoCells;  // L0C: the cell type it writes (Mmad) or reads (Fixpipe, accumulating Mmad)
    const isa::Op* op = nullptr;
  };
  // The unit flags of L0C, one per 512-byte granule, followed in program order (unit_flags.cpp).
  struct UnitGranule {
    bool set = false;         // a Mmad with unitFlag=3 handed it over and no Fixpipe took it
    AccessRef setter, taker;  // that Mmad; the last Fixpipe with unitFlag=3 that took it
    AccessRef mmad;           // the last Mmad that wrote it (any unitFlag)
  };

  // Canonical order (core.cpp).
  void program_order(const isa::Instruction& in);  // the double-SetFlag rule, at issue
  // What the cross-core check needs of a GM access, decided in program order: how many SyncAlls
  // come before it and the atomic mode (SetAtomicAdd) it runs in.
  CrossTag cross_tag(uint64_t index) const;
  void pump();
  bool ready(const isa::Instruction& in) const;
  void process(const isa::Instruction& in, const std::shared_ptr<const Knowledge>& stamp);
  void process_scalar(const isa::Instruction& in);
  void process_sync(const isa::Instruction& in, size_t pipe);
  void set_flag(const isa::Instruction& in, const isa::SetFlag& s, size_t pipe);
  void wait_flag(const isa::Instruction& in, const isa::WaitFlag& w, size_t pipe);
  void barrier(const isa::Instruction& in, size_t pipe);
  void pipe_all(const isa::Instruction& in);
  void raise(Bound& b, const Known& k, const ViaRef& via, bool& raised);
  void scalar_changed();
  Flag& flag(isa::EventPair e, uint8_t id) { return flags_[flag_key(e, id)]; }
  const Flag& flag(isa::EventPair e, uint8_t id) const { return flags_[flag_key(e, id)]; }
  static size_t flag_key(isa::EventPair e, uint8_t id);
  void lint_event_id(const isa::Instruction& in, uint8_t id);
  void report_redundant(size_t pipe);

  // unitFlag hand-offs and their misuse (unit_flags.cpp), in program order.
  void unit_flags(const isa::Instruction& in);
  void unit_misuse(const AccessRef& at, const AccessRef& other, const std::string& summary,
                   const std::string& fix, uint32_t granule);
  void unit_flags_left_set();
  // Whether unit flags order the L0C accesses `first` and `second` (program order).
  static bool unit_ordered(const AccessRef& first, const AccessRef& second);
  // What a hand-off teaches the waiting pipe (canonical order, before the access is checked).
  void unit_knowledge(const isa::Instruction& in, size_t pipe);
  // The knowledge a unitFlag=3 Mmad (to FIX) or Fixpipe (to M) hands over with its granules.
  struct UnitHand {
    std::shared_ptr<const Release> to_fix, to_m;
    AccessRef from_mmad, from_fix;
  };

  // Memory hazards (hazards.cpp).
  void process_memory(const isa::Instruction& in, size_t pipe);
  // One buffer (or GM tensor): writers in the shadow map, recent reads in the log.
  struct Reads {
    IntervalMap<ReaderCell> folded;
    ReadLog reads;
    uint32_t writers = 0;  // pipes whose writes the reads must be ordered before (bit per pipe)
  };
  template <class Map>
  struct BufferOf : Reads {
    Map map;
  };
  using Buffer = BufferOf<Shadow>;      // on chip: defined bytes tracked
  using GmBuffer = BufferOf<GmShadow>;  // a GM tensor: always defined, written in strided tiles
  Buffer& buffer(isa::Space s);
  GmBuffer& gm(uint32_t tensor);
  template <class B>
  void read(B& buf, const isa::OperandAccess& o, const Access& b, std::vector<isa::ByteRange>& undefined);
  template <class B>
  void write(B& buf, const isa::OperandAccess& o, const Access& b);
  void prune(Reads& buf);
  std::array<uint64_t, isa::kPipeCount> dead_below(const Reads& buf) const;
  void fold(Reads& buf);
  // Whether b's pipe knows `a` complete; if so, notes which sync it owes that to (for the
  // unneeded-sync lint). Inline: every access meets a few of these.
  bool ordered(const Access& b, const AccessRef& a) {
    const size_t r = static_cast<size_t>(a.pipe);
    const Bound& k = known_[b.pipe][r];
    if (a.index >= k.before) return false;
    (a.index >= k.prev ? needed_ : seen_)[r] = true;
    return true;
  }
  // A conflict `ordered` did not clear: the Mmad interlock, or a race.
  void conflict(const Access& b, const AccessRef& a, bool a_writes, bool b_writes,
                const isa::OperandAccess& o, uint64_t lo, uint64_t hi, uint16_t a_fractals);
  void propagate_undefined(const isa::Op& op);
  // A Mmad's bias cells nothing wrote make its C cells of those columns undefined (a padding
  // column's bias is harmless until a Fixpipe reads the column).
  void propagate_bias(const isa::MmadCommon& mm, const std::vector<isa::ByteRange>& undefined);
  void credit(size_t pipe);

  // Reports (diagnose.cpp).
  void race(const Access& b, const AccessRef& a, bool a_writes, bool b_writes, const isa::OperandAccess& o,
            uint64_t lo, uint64_t hi, uint16_t a_fractals);
  void uninit(const Access& b, const isa::OperandAccess& o, uint64_t lo, uint64_t hi,
              const AccessRef& origin);
  void type_confusion(const Access& b, const AccessRef& writer, uint8_t written, uint64_t lo, uint64_t hi);
  // An unordered same-pipe WAW of two identical copies whose sources nothing wrote in between: the
  // bytes are the same whatever the order, so a warning, not a race (diagnose.cpp).
  bool repeats(const AccessRef& a, const Access& b) const;
  void duplicate(const Access& b, const AccessRef& a, const isa::OperandAccess& o, uint64_t lo, uint64_t hi);
  void interlock_boundary(const Access& b, const AccessRef& a, uint64_t lo, uint64_t hi, uint16_t fractals,
                          uint8_t hazard);
  void resolve_watches(const isa::WaitFlag& w, const AccessRef& wait, const AccessRef& set);
  void judge_sync(const SyncUse& u);
  // A one-instruction report; returns it when new (to add details), else nullptr.
  Report* lint(ReportKind kind, const AccessRef& at, const std::string& mnemonic, const std::string& summary,
               const std::string& hint);
  void end_lints();
  void deadlock_hints();
  // The instruction `pipe` is stuck at when the run ends (nullptr when it is not stuck).
  const isa::Instruction* stuck_at(isa::Pipe pipe) const;
  // The hint for a WaitFlag whose SetFlag's pipe is itself stuck ("" when it is not).
  std::string chain_hint(const isa::Instruction& wait, FileId file) const;
  void double_set(const isa::Instruction& in, const AccessRef& previous);
  std::string known_text(const Access& b, const AccessRef& a, FileId file) const;

  uint16_t core_;
  const CheckOptions& opt_;
  ReportBook& book_;
  CrossCore* cross_;
  // Declared before everything holding a ViaRef, so it is destroyed after them.
  SyncPool pool_;

  std::deque<isa::Instruction> program_;  // issued, not yet dispatched (behind a scalar-pipe wait)
  std::array<std::deque<Queued>, isa::kPipeCount> queues_;  // dispatched, not yet processed
  size_t queued_ = 0;                                       // in all queues_
  std::array<Knowledge, isa::kPipeCount> known_;            // [pipe][of pipe]
  std::shared_ptr<const Knowledge> scalar_snapshot_;        // known_[S] for dispatch stamps
  std::array<AccessRef, isa::kPipeCount> last_mem_{};       // last memory instruction per pipe
  std::vector<Flag> flags_;
  std::vector<AccessRef> open_sets_;  // per flag: the SetFlag issued since its last WaitFlag, if any
  std::array<std::array<LastWait, isa::kPipeCount>, isa::kPipeCount> last_wait_{};  // [src][dst]
  std::array<std::array<std::vector<Watch>, isa::kPipeCount>, isa::kPipeCount> watches_;
  // WaitFlags that taught their pipe nothing, reported if the pipe accesses memory again.
  struct Redundant {
    AccessRef wait, set;
    isa::Op op;
  };
  std::array<std::vector<Redundant>, isa::kPipeCount> redundant_;
  // Source lines (file << 32 | line; 0 = empty) of syncs of which some instance was needed: their
  // "unneeded synchronisation" lints are withdrawn at the end (the lint is about a line that never
  // ordered anything; in a loop, a wait that orders nothing in its first round but is needed in
  // later ones is not one to remove). Direct-mapped and bounded: a trace's lines never repeat, and
  // a kernel's loops re-mark their few sync lines every round.
  static constexpr size_t kNeededSyncSlots = 4096;
  std::vector<uint64_t> needed_syncs_ = std::vector<uint64_t>(kNeededSyncSlots);

  std::vector<UnitGranule> unit_;  // L0C unit flags (grown on use)
  std::vector<UnitHand> hands_;    // per granule, in canonical order (unit_knowledge)
  std::array<Buffer, isa::kSpaceCount> onchip_;
  std::vector<GmBuffer> gm_;  // per GM tensor
  FootprintCache footprints_;
  // The last memory instructions by index (mod 256): their hash_op and the count of writes into the
  // spaces they read, as it was when they ran (repeats()).
  struct Recent {
    uint64_t index_plus1 = 0, hash = 0, source_writes = 0;
  };
  std::array<Recent, 256> recent_{};
  uint64_t hash_ = 0, source_writes_ = 0;                  // of the memory instruction being processed
  std::array<uint64_t, isa::kSpaceCount> space_writes_{};  // writes into each memory so far
  const isa::AccessList* acc_ = nullptr;  // the memory instruction's footprint (in footprints_)
  isa::AccessList exact_;                 // a GM source enumerated after all
  std::array<std::vector<isa::ByteRange>, 6> undefined_;  // per operand of acc_
  std::array<bool, isa::kPipeCount> needed_{}, seen_{};
  bool finished_ = false;
  // Program indexes at which the cross-core tag changed (a SyncAll, SetAtomicAdd/None), in order.
  std::vector<std::pair<uint64_t, CrossTag>> cross_tags_;
};

}  // namespace aicore::check
