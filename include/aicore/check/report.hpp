// What the race/sync checker reports (docs/checking.md explains each kind with an example).
// Plain data: check/format.hpp renders it as text and JSON. Everything in a Report except its
// `timing` member follows from the instructions alone, so it is the same under any config.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aicore/common/source_files.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::check {

enum class Severity : uint8_t { Error, Warning };
const char* to_string(Severity s);  // "error", "warning"

enum class ReportKind : uint8_t {
  DataRace,           // two accesses of one core, at least one a write, not ordered
  CrossCoreRace,      // GM bytes one core writes and another core reads or writes
  UninitRead,         // on-chip bytes read before anything wrote them
  Deadlock,           // a WaitFlag that no SetFlag will ever satisfy
  DoubleSetFlag,      // a second SetFlag of a flag with no WaitFlag of it since, in program order
  InterlockBoundary,  // accumulating Mmads at exactly the interlock threshold (warning)
  FlagLeftSet,        // a SetFlag nothing waited on by the end of the run (warning)
  ReservedEventId,    // event id 6 or 7, used by the Ascend C framework itself (warning)
  UselessSync,        // a WaitFlag or PipeBarrier whose ordering was never needed (warning)
  PipeSBarrier,       // PipeBarrier<PIPE_S>: a hardware error on real chips (warning)
  UnitFlagMisuse,     // a unitFlag hand-off of L0C between Mmad and Fixpipe that would hang or skip
  UnitFlagLeftSet,    // L0C unit flags a Mmad set (unitFlag=3) that no Fixpipe took by the end (warning)
  TypeConfusion,      // L0C cells read as another type than the Mmad that wrote them left
  DuplicateWrite,     // a copy repeating an earlier one exactly, unordered with it (warning)
};
const char* to_string(ReportKind k);  // "data race", "uninitialised read", ...
const char* code_of(ReportKind k);    // "race", "uninit", ... (stable names for JSON and tests)

// An instruction a report names.
struct InstrRef {
  uint16_t core = 0;
  uint64_t index = 0;  // position in its core's program
  uint32_t line = 0;
  FileId file = 0;
  isa::Pipe pipe = isa::Pipe::S;
  std::string mnemonic;  // "DataCopy", "WaitFlag<MTE2_MTE1>(0)"
  std::string access;    // "reads", "writes" or ""
};

// The missing happens-before edge, as the edit that adds it.
struct Fix {
  enum class Kind : uint8_t {
    None,
    Flag,       // SetFlag<event> after `after_line`, WaitFlag<event> before `before_line`
    Barrier,    // PipeBarrier<pipe> between the two lines
    ViaScalar,  // no direct pair exists: the scalar unit waits (event = SRC_S) before `before_line`
    PipeAll,    // PipeBarrier<PIPE_ALL> between the two lines
    Separate,   // cores cannot synchronise: give them disjoint bytes
    SyncAll,    // SyncAll on every core, after `after_line` (first core) and before `before_line` (second)
    Atomic,     // SetAtomicAdd<T>() ... SetAtomicNone() around the Fixpipes: `text` says which
    Edit,       // change a field of an instruction (unitFlag, dtype): `text` says which
    Remove,     // delete the instruction at `before_line` (a repeat of the one at `after_line`)
  };
  Kind kind = Kind::None;
  isa::EventPair event;
  isa::Pipe pipe = isa::Pipe::S;
  uint32_t after_line = 0, before_line = 0;
  std::string text;
};
const char* to_string(Fix::Kind k);  // "flag", "barrier", ...

struct Detail {
  std::string label;  // "known", "near miss", "hint", "overlap", "repeats"
  std::string text;
};

// Facts of this run's schedule. They change with latencies and bandwidths, unlike the rest.
struct Timing {
  bool first_known = false, second_known = false;
  uint64_t first_start = 0, first_end = 0;    // cycles of Report::other
  uint64_t second_start = 0, second_end = 0;  // cycles of Report::at
  // Whether the hazard showed in this run: the later instruction started before the earlier
  // one finished (so with real hardware timing the result could differ).
  bool observed_known() const { return first_known && second_known; }
  bool observed() const { return second_start < first_end; }
};

struct Report {
  ReportKind kind = ReportKind::DataRace;
  Severity severity = Severity::Error;
  InstrRef at;                    // the line an editor should jump to (the later one of a pair)
  std::optional<InstrRef> other;  // the earlier instruction of a pair, in program order
  std::string hazard;             // RAW, WAR, WAW (by program order); "" when not a race
  bool has_range = false;
  isa::Space space = isa::Space::GM;
  uint32_t tensor = 0;             // GM tensor (declaration index)
  uint64_t lo = 0, hi = 0;         // first byte range concerned, within the buffer or tensor
  uint64_t bytes = 0, ranges = 0;  // every byte and contiguous range concerned, all instances
  uint64_t instances = 1;          // instruction pairs (or instructions) merged into this report
  std::string summary;             // the headline after "error: " / "warning: "
  std::vector<Detail> details;
  Fix fix;
  Timing timing;
};

struct Summary {
  uint64_t errors = 0, warnings = 0;  // every report, stored or not
  uint64_t unstored = 0;              // reports past CheckOptions::max_reports: counted, not kept
  bool complete = true;               // false: the run stopped early (fault, deadlock, bad input)
};

}  // namespace aicore::check
