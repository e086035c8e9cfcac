// One execution pipe (MTE2, MTE1, M, FIX, MTE3): a bounded in-order queue filled by the issue
// unit and a thread that runs it. Data instructions become TLM transactions to the memories
// (timing, port contention) plus one semantics call (the bytes); sync instructions go to the
// SyncUnit. Consecutive instructions overlap: the next starts when this one's occupancy ends,
// while its latency only delays SetFlag and PipeBarrier.
//
// Temporal decoupling (TLM-2.0 loosely-timed style): each engine keeps its own time (`local_`,
// the cycle its pipe is free again) and runs ahead of SystemC time, computing start and end
// cycles instead of waiting them out. It blocks only on events another thread must produce
// first (its queue, a flag not yet set), and synchronises with SystemC time only before using
// a port shared with another pipe (GM), so shared-port requests arrive in time order.
#pragma once
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <cstdint>
#include <deque>
#include <string>
#include <systemc>
#include <vector>

#include "aicore/isa/check.hpp"
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

class Engine : public sc_core::sc_module, public TimeSource {
 public:
  tlm_utils::multi_passthrough_initiator_socket<Engine> socket;

  Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, SimContext& ctx, SyncUnit& sync);

  // Elaboration: this engine reads or writes `m`; `issuer` feeds its queue.
  void connect(Memory& m);
  void set_issuer(const TimeSource* issuer) { issuer_ = issuer; }
  uint64_t horizon() const override;

  // Issue side. Entries are numbered 0, 1, ... in push order.
  uint32_t depth() const { return depth_; }
  uint64_t pushed() const { return pushed_count_; }
  void push(QueueEntry&& e);
  void close();  // no more instructions will come
  // The cycle entry `seq` started (left the queue); blocks the calling thread until it has.
  // Entry seq + depth can be issued no earlier: that is the queue-full rule, exact in time.
  uint64_t start_of(uint64_t seq);
  // Blocks until every pushed entry has run; returns when the last result is visible.
  uint64_t drain();
  bool finished() const { return finished_; }
  uint64_t last_completion() const { return last_completion_; }
  // For deadlock reports: what this pipe is stuck on, or "" when it is not stuck.
  std::string blocked_on() const;

  isa::Pipe pipe() const { return pipe_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  uint64_t instructions() const { return instructions_; }
  uint64_t local_time() const { return local_; }

 private:
  void run();
  void execute(const QueueEntry& e, uint64_t earliest);
  void execute_data(const QueueEntry& e, uint64_t start);
  void started(uint64_t start);  // the front entry leaves the queue at `start`
  uint64_t transport(const isa::Footprint& fp, uint64_t start, uint64_t path_cycles, uint64_t moved);
  void record(InstrRecord& r);

  isa::Pipe pipe_;
  uint32_t depth_;
  SimContext& ctx_;
  SyncUnit& sync_;
  std::deque<QueueEntry> queue_;
  std::vector<uint64_t> start_ring_;  // start cycle of entry seq at [seq % depth]
  uint64_t pushed_count_ = 0, started_count_ = 0;
  sc_core::sc_event pushed_ev_, progress_ev_;
  bool closed_ = false, finished_ = false, waiting_push_ = false;
  uint32_t waiters_ = 0;                         // threads blocked in start_of / drain
  std::array<int, isa::kSpaceCount> port_of_{};  // socket index per memory space, -1 = none
  bool uses_gm_ = false;
  const TimeSource* issuer_ = nullptr;
  const isa::Instruction* current_ = nullptr;
  uint64_t local_ = 0, last_completion_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, instructions_ = 0;
  tlm::tlm_generic_payload trans_;
};

}  // namespace aicore::model
