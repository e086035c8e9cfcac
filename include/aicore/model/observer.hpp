// What the model tells the report layer (docs/design.md, layer report). The model calls observers; it
// never knows about file formats.
//
// Timing contract (what lets a writer stream time-ordered files such as VCD): on_instruction,
// on_flag and on_queue come in nondecreasing simulated time `now`, across all cores of the chip:
// on_instruction at now == r.start_cycle; a consumed flag and a queue exit are reported at now ==
// their cycle; every other cycle a callback carries is >= now, except InstrRecord::issue_cycle
// (in the past for waits). So an observer may finalise everything earlier than the latest `now`
// it has seen. on_issue is outside that order: it comes the moment a scalar unit issues, which
// runs ahead of the other events (per core in program order; the cores interleaved as the model
// runs them), and before the same instruction's on_instruction. Its one user, the race checker,
// needs only program order per core; holding every issue event back to sort it into time order
// cost the model a few hundred host instructions per instruction.
#pragma once
#include <cstdint>
#include <string>

#include "aicore/isa/instructions.hpp"

namespace aicore::model {

// Why an instruction started later than it could have.
enum class WaitCause : uint8_t { None, QueueFull, Flag, Barrier, Port, UnitFlag };
const char* to_string(WaitCause c);

// One executed instruction. Cycles count from 0 at the start of the run.
struct InstrRecord {
  const isa::Instruction* instr = nullptr;  // valid only during the callback
  isa::CoreId core;
  isa::Pipe pipe = isa::Pipe::S;
  uint64_t issue_cycle = 0;  // the scalar unit put it in its pipe's queue
  uint64_t start_cycle = 0;  // the pipe began executing it
  uint64_t busy_end = 0;     // start + occupancy: the pipe can take its next instruction
  uint64_t end_cycle = 0;    // busy_end + latency: its result is visible
  uint64_t bytes = 0, macs = 0, dense_macs = 0;
  uint64_t wait_cycles = 0;  // cycles it waited (flag, barrier, port) before start, plus port_stall_cycles
  WaitCause wait_cause = WaitCause::None;
  // Cycles of [start, busy_end) the pipe was slowed by a shared port (GM bandwidth taken by
  // other transfers): stall, not busy, time. Counted in wait_cycles too (cause Port).
  uint64_t port_stall_cycles = 0;
  uint64_t queue_wait_cycles = 0;  // cycles the scalar unit stalled on a full queue before issuing it
  // Cycles of wait_cycles spent waiting, at the L0C granule, for the unit flags of another
  // instruction (cause UnitFlag; a port wait after it may follow): a Fixpipe with unitFlag waiting
  // for its Mmad, or a Mmad for the Fixpipe still reading its cells. `unit_flag_from` names the
  // instruction waited for last (its index in the core's program).
  uint64_t unit_flag_cycles = 0;
  uint64_t unit_flag_from = 0;
  // GM transfers: the L2 lines it hit and missed, and the HBM bytes it moved (fills and
  // write-backs of the dirty lines it evicted).
  uint64_t l2_hits = 0, l2_misses = 0, hbm_bytes = 0;
  uint8_t flag_id = 0;  // for Flag waits
};

// A flag became set (a SetFlag fired) or was consumed (a WaitFlag released).
struct FlagEvent {
  isa::CoreId core;
  isa::EventPair event;
  uint8_t id = 0;
  uint64_t cycle = 0;  // set: when the flag becomes 1 (>= now); consumed: now
  bool set = false;
  uint64_t instr_index = 0;  // the SetFlag (set) or the WaitFlag (consumed)
  uint64_t set_index = 0;    // consumed: the SetFlag whose set the WaitFlag took (flow arrows)
};

// The scalar unit of `core` put an instruction into its pipe's queue (or ran it, for S work).
struct IssueRecord {
  const isa::Instruction* instr = nullptr;  // valid only during the callback
  isa::CoreId core;
  uint64_t issue_cycle = 0;
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_instruction(const InstrRecord& r) = 0;
  virtual void on_flag(const FlagEvent& /*e*/) {}
  // An instruction entered (+1, at its issue cycle, >= now) or left (-1, at now) the queue of
  // its pipe. Two calls per instruction, so the model makes them only for observers that set
  // wants_queue_.
  virtual void on_queue(isa::CoreId /*core*/, isa::Pipe /*pipe*/, uint64_t /*cycle*/, int /*delta*/) {}
  // Every instruction in program order, as it is issued (not in time order: see above); only
  // for observers that set wants_issue_ (the race checker).
  virtual void on_issue(const IssueRecord& /*r*/) {}
  bool wants_queue() const { return wants_queue_; }
  bool wants_issue() const { return wants_issue_; }

 protected:
  bool wants_queue_ = false;
  bool wants_issue_ = false;
};

}  // namespace aicore::model
