// One execution pipe (MTE2, MTE1, M, FIX, MTE3): a bounded in-order queue filled by the issue
// unit and a thread that runs it. Data instructions become TLM transactions to the memories
// (timing, port contention) plus one semantics call (the bytes); sync instructions go to the
// SyncUnit. Consecutive instructions overlap: the next starts when this one's occupancy ends,
// while its latency only delays SetFlag and PipeBarrier.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <systemc>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "aicore/isa/instructions.hpp"
#include "aicore/model/context.hpp"
#include "aicore/model/memory.hpp"
#include "aicore/model/sync_unit.hpp"

namespace aicore::model {

struct QueueEntry {
  isa::Instruction instr;
  uint64_t issue_cycle = 0;
  uint64_t queue_wait_cycles = 0;
};

class Engine : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<Engine> socket;

  Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, SimContext& ctx, SyncUnit& sync);

  // Elaboration: this engine reads or writes `m`.
  void connect(Memory& m);

  // Issue side.
  bool full() const { return queue_.size() >= depth_; }
  void push(QueueEntry&& e);
  void close();  // no more instructions will come
  // Block the calling thread (the issue unit) until the queue has room / the pipe is idle.
  // Events are notified only while someone waits on them: most instructions need no notify.
  void wait_for_space();
  void wait_idle();
  bool idle() const { return queue_.empty() && !running_; }
  uint64_t last_completion() const { return last_completion_; }
  bool finished() const { return finished_; }
  // For deadlock reports: what this pipe is stuck on, or "" when it is not stuck.
  std::string blocked_on() const;

  isa::Pipe pipe() const { return pipe_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  uint64_t instructions() const { return instructions_; }
  uint32_t queue_size() const { return static_cast<uint32_t>(queue_.size()); }

 private:
  void run();
  void execute(const QueueEntry& e);
  void execute_data(const QueueEntry& e, uint64_t start);
  uint64_t transport(const isa::Op& op, uint64_t path_cycles, uint64_t moved);  // ports' finish cycle
  void record(InstrRecord& r);

  isa::Pipe pipe_;
  uint32_t depth_;
  SimContext& ctx_;
  SyncUnit& sync_;
  std::deque<QueueEntry> queue_;
  sc_core::sc_event pushed_, popped_, drained_;
  bool closed_ = false, running_ = false, finished_ = false;
  bool waiting_push_ = false;
  uint32_t space_waiters_ = 0, idle_waiters_ = 0;
  std::array<int, isa::kSpaceCount> port_of_{};  // socket index per memory space, -1 = none
  const isa::Instruction* current_ = nullptr;
  std::string current_wait_;
  uint64_t last_completion_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, instructions_ = 0;
  tlm::tlm_generic_payload trans_;
};

}  // namespace aicore::model
