// The scalar unit: reads the trace as a stream, handles directives (GM tensors), and issues
// every instruction in program order into its pipe's queue, stalling while that queue is full.
// Scalar-pipe work (SetFlag from S, WaitFlag to S, PipeBarrier<PIPE_ALL>) runs here.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "aicore/model/context.hpp"
#include "aicore/model/engine.hpp"
#include "aicore/model/sync_unit.hpp"
#include "aicore/trace/prefetch_reader.hpp"

namespace aicore::model {

class IssueUnit : public sc_core::sc_module, public TimeSource {
 public:
  IssueUnit(sc_core::sc_module_name name, SimContext& ctx, SyncUnit& sync, trace::PrefetchReader& reader,
            Memory& gm, std::array<Engine*, isa::kPipeCount> engines);

  bool finished() const { return finished_; }
  uint64_t horizon() const override;
  uint64_t instructions() const { return issued_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  uint64_t last_completion() const { return last_completion_; }
  std::string blocked_on() const;
  const std::vector<trace::GmDecl>& tensors() const { return tensors_; }
  const std::vector<trace::OutDecl>& outs() const { return outs_; }
  const std::vector<trace::ExpectDecl>& expects() const { return expects_; }
  // The first bad-input error met while reading the trace (the run stops there).
  const std::optional<InputError>& input_error() const { return input_error_; }

 private:
  void run();
  void declare_gm(const trace::GmDecl& d);
  void issue(const isa::Instruction& instr);
  // Runs scalar-pipe work arriving at `arrived`; returns the cycle the scalar unit is free.
  uint64_t run_scalar(const isa::Instruction& instr, uint64_t arrived);

  SimContext& ctx_;
  SyncUnit& sync_;
  trace::PrefetchReader& reader_;
  std::vector<trace::GmDecl> tensors_;  // the .gm declarations issued so far
  Memory& gm_;
  std::array<Engine*, isa::kPipeCount> engines_;
  std::vector<trace::OutDecl> outs_;
  std::vector<trace::ExpectDecl> expects_;
  std::optional<InputError> input_error_;
  uint64_t gm_total_ = 0;
  double next_issue_ = 0;   // fractional cycles, from the issue rate
  uint64_t next_slot_ = 0;  // next_issue_ rounded up: the earliest cycle of anything issued next
  bool finished_ = false;
  uint64_t issued_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, last_completion_ = 0;
  const isa::Instruction* current_ = nullptr;
};

}  // namespace aicore::model
