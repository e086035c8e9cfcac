// What the model tells the report layer (design.md layer 6). The model calls observers; it
// never knows about file formats.
#pragma once
#include <cstdint>
#include <string>

#include "aicore/isa/instructions.hpp"

namespace aicore::model {

// Why an instruction started later than it could have.
enum class WaitCause : uint8_t { None, QueueFull, Flag, Barrier, Port };
const char* to_string(WaitCause c);

// One executed instruction. Cycles count from 0 at the start of the run.
struct InstrRecord {
  const isa::Instruction* instr = nullptr;  // valid only during the callback
  isa::Pipe pipe = isa::Pipe::S;
  uint64_t issue_cycle = 0;   // the scalar unit put it in its pipe's queue
  uint64_t start_cycle = 0;   // the pipe began executing it
  uint64_t busy_end = 0;      // start + occupancy: the pipe can take its next instruction
  uint64_t end_cycle = 0;     // busy_end + latency: its result is visible
  uint64_t bytes = 0, macs = 0, dense_macs = 0;
  uint64_t wait_cycles = 0;   // cycles it waited on its pipe before start (flag, barrier, port)
  WaitCause wait_cause = WaitCause::None;
  uint64_t queue_wait_cycles = 0;  // cycles the scalar unit stalled on a full queue before issuing it
  uint8_t flag_id = 0;        // for Flag waits
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_instruction(const InstrRecord& r) = 0;
  // A flag became set (SetFlag fired) or was consumed (WaitFlag released).
  virtual void on_flag(isa::EventPair, uint8_t /*id*/, uint64_t /*cycle*/, bool /*set*/, uint64_t /*instr_index*/) {}
};

}  // namespace aicore::model
