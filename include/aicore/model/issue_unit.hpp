// The scalar unit of one core: pulls the core's instructions from its InstructionSource in
// program order and issues each into its pipe's queue, stalling while that queue is full.
// Scalar-pipe work (SetFlag from S, WaitFlag to S, PipeBarrier<PIPE_ALL>) runs here.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <systemc>

#include "aicore/model/context.hpp"
#include "aicore/model/engine.hpp"
#include "aicore/model/source.hpp"
#include "aicore/model/sync_unit.hpp"

namespace aicore::model {

class IssueUnit : public sc_core::sc_module, public TimeSource {
 public:
  IssueUnit(sc_core::sc_module_name name, CoreContext& ctx, SyncUnit& sync, InstructionSource& source,
            TensorRegistry& gm, std::array<Engine*, isa::kPipeCount> engines, UnitFlags& unit);

  // Before the simulation starts: reads the source up to its first instruction, so that every
  // core's leading GM declarations are made before any core runs. False on bad input
  // (recorded in the chip context).
  bool prime();

  bool finished() const { return finished_; }
  uint64_t horizon() const override;
  uint64_t instructions() const { return issued_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  uint64_t last_completion() const { return last_completion_; }
  std::string blocked_on() const;
  // Whether the scalar unit is stuck in a PipeBarrier<PIPE_ALL> (for deadlock reports).
  const isa::Instruction* at_barrier() const {
    return !finished_ && current_ && std::holds_alternative<isa::PipeBarrier>(current_->op) ? current_
                                                                                            : nullptr;
  }
  // After the run stopped: the next WaitFlag of (e, id) in the source, read on from where the
  // scalar unit stopped (for deadlock reports).
  std::optional<isa::Instruction> next_wait(isa::EventPair e, uint8_t id);

 private:
  void run();
  bool pull(isa::Instruction& out);  // the next instruction; false at the end or on bad input
  void issue(const isa::Instruction& instr);
  // Runs scalar-pipe work arriving at `arrived`; returns the cycle the scalar unit is free.
  uint64_t run_scalar(const isa::Instruction& instr, uint64_t arrived);

  CoreContext& ctx_;
  SyncUnit& sync_;
  InstructionSource& source_;
  TensorRegistry& gm_;
  std::array<Engine*, isa::kPipeCount> engines_;
  UnitFlags& unit_;                         // told every instruction in program order: who hands L0C to whom
  std::optional<isa::Instruction> primed_;  // the first instruction, read by prime()
  bool primed_done_ = false;
  double next_issue_ = 0;   // fractional cycles, from the issue rate
  uint64_t next_slot_ = 0;  // next_issue_ rounded up: the earliest cycle of anything issued next
  bool finished_ = false;
  uint64_t issued_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, last_completion_ = 0;
  const isa::Instruction* current_ = nullptr;
  const isa::WaitFlag* waiting_ = nullptr;  // an S WaitFlag blocked on its flag (see horizon())
  std::optional<isa::DType> atomic_;        // SetAtomicAdd's type until SetAtomicNone
  // Runs SyncAll arriving at `arrived` (every pipe drained): returns when all cores may go on.
  std::optional<uint64_t> sync_all(const isa::Instruction& instr, uint64_t arrived);
  mutable bool in_horizon_ = false;
};

}  // namespace aicore::model
