// One execution pipe of a core (MTE2, MTE1, M, FIX, MTE3): a bounded in-order queue filled by
// the issue unit and a thread that runs it. A data instruction books the ports of the buffers
// it touches (buffer.hpp), makes one semantics call (the bytes) and, for GM, one transfer on
// the chip's GM port (gm_port.hpp); sync instructions go to the SyncUnit. Consecutive
// instructions overlap: the next starts when this one's occupancy ends, while its latency only
// delays SetFlag and PipeBarrier.
//
// Pacing rules on top of each instruction's cost (docs/decisions.md, "Pacing"):
//  * exact time: the pipe also keeps its clock in fractional cycles (free_exact_), so that
//    fractional costs (cube.fixed_cycles, issue.min_interval_*) average out over a run of
//    instructions that wait for each other; every start and end is still a whole cycle;
//  * minimum interval: a data instruction starts no earlier than the previous one's exact start
//    plus issue.min_interval_<pipe>;
//  * Cube head: an Mmad pays min(cube.head_cycles, the cycles between the moment it could have
//    started and the end of the previous Mmad) — a cold Cube pays it all, back-to-back Mmads
//    nothing;
//  * GM requests in flight: a GM transfer starts only when its bytes fit in the pipe's window
//    (gm.read/write.window_bytes) beside the transfers whose data is not usable yet, or when none
//    is in flight.
//
// Temporal decoupling: each engine keeps its own time (`local_`, the cycle its pipe is free
// again) and runs ahead of SystemC time, computing start and end cycles instead of waiting
// them out. It blocks only on events another thread must produce first (its queue, a flag not
// yet set) — except before it uses a resource another pipe shares (a contended port of a
// buffer bank, the GM bandwidth): then it first catches up with SystemC time, so that shared
// resources see their requests in simulated-time order (docs/decisions.md, "shared
// resources"). Each pipe catches up to its own phase of the cycle (a few SystemC time units
// into it, in pipe order), so requests of one cycle are served in a fixed pipe order.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "aicore/isa/access.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/isa/instructions.hpp"
#include "aicore/model/buffer.hpp"
#include "aicore/model/context.hpp"
#include "aicore/model/gm_port.hpp"
#include "aicore/model/sync_unit.hpp"
#include "aicore/model/timing.hpp"
#include "aicore/model/unit_flags.hpp"

namespace aicore::model {

struct QueueEntry {
  isa::Instruction instr;
  uint64_t issue_cycle = 0;
  uint64_t queue_wait_cycles = 0;
  // A Fixpipe issued under SetAtomicAdd: the type it adds (the mode as the scalar unit had it
  // when it issued the Fixpipe, i.e. in program order).
  std::optional<isa::DType> atomic;
};

class Engine : public sc_core::sc_module, public TimeSource {
 public:
  Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, CoreContext& ctx,
         SyncUnit& sync);

  // Elaboration: this engine reads and/or writes `b`; it moves GM bytes through `gm`;
  // `issuer` feeds its queue.
  void connect(Buffer& b, bool reads, bool writes);
  void connect(GmPort& gm) { gm_ = &gm; }
  void connect(UnitFlags& u) { unit_ = &u; }
  void set_issuer(const TimeSource* issuer) { issuer_ = issuer; }
  // MTE1: the core's MTE2, whose GM -> L1 copies slow this pipe's reads of L1 down
  // (mte1.share_during_l1_write; docs/decisions.md, "L1 reads under a copy").
  void watch_l1_writer(const Engine& mte2) { l1_writer_ = &mte2; }
  // MTE2: whether a GM -> L1 copy of this pipe started before `cycle` and was still moving data
  // in it. Exact once SystemC time has reached `cycle`.
  bool writing_l1_at(uint64_t cycle) const;
  // The thread of each pipe of this core (the issue unit for S): whose SetFlag a WaitFlag waits for.
  void set_peers(const std::array<const TimeSource*, isa::kPipeCount>& peers) { peers_ = peers; }
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
  // The PipeBarrier this pipe is stuck in, or nullptr (for deadlock reports).
  const isa::Instruction* at_barrier() const {
    return !finished_ && current_ && std::holds_alternative<isa::PipeBarrier>(current_->op) ? current_
                                                                                            : nullptr;
  }
  // The first WaitFlag of (e, id) this pipe is running or has queued, or nullptr.
  const isa::Instruction* queued_wait(isa::EventPair e, uint8_t id) const;

  isa::Pipe pipe() const { return pipe_; }
  uint64_t busy_cycles() const { return busy_cycles_; }
  // Cycles in which a data instruction of this pipe had started and its result was not yet
  // usable (the union of [start, end) of its data instructions, latency included).
  uint64_t active_cycles() const { return active_cycles_; }
  // What msprof counts as the pipe's time (aic_*_time): the active cycles plus those in which a
  // data instruction already held the pipe but waited to start (for unit flags, for a port or
  // the GM request window): the union of [start - wait before start, end). Sync instructions
  // (WaitFlag, PipeBarrier) are not counted.
  uint64_t aic_time_cycles() const { return aic_cycles_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  uint64_t instructions() const { return instructions_; }
  uint64_t local_time() const { return local_; }
  // Shared-resource requests that came after SystemC time had passed their cycle (the
  // decoupling rule above broken); 0 in a sound run.
  uint64_t late_requests() const { return late_; }

 private:
  void run();
  void execute(const QueueEntry& e, uint64_t earliest);
  void execute_sync(const QueueEntry& e, uint64_t earliest);
  void execute_data(const QueueEntry& e, uint64_t earliest);
  void started(uint64_t start);  // the front entry leaves the queue at `start`
  // Books the on-chip ports of `fp` for `cycles` from the earliest cycle >= t they are all
  // free; returns that cycle. A port another pipe shares is asked in time order: this pipe
  // catches up with SystemC time first, unless no sharer can still ask for a cycle before t.
  uint64_t book_ports(const isa::Footprint& fp, uint64_t t, uint64_t cycles);
  // The earliest start the unit flags allow (unit_flags.hpp): blocks until every producer the
  // instruction waits for has run. 0 when it waits for none.
  uint64_t unit_flag_start(const QueueEntry& e, const Cost& c, uint64_t& from);
  // Waits until SystemC time reaches this pipe's phase of `cycle` (counts a late arrival).
  void catch_up(uint64_t cycle);
  // Runs the GM part of a data instruction from `start`; returns when its last byte is through
  // and puts what the L2 found into `r`.
  uint64_t gm_transfer(const isa::Op& op, const isa::Footprint& fp, uint64_t start, const Cost& c,
                       InstrRecord& r, bool atomic = false);
  // The first cycle >= t at which `bytes` fit in the GM window beside the transfers in flight.
  uint64_t window_start(uint64_t t, uint64_t bytes);
  // The share of its rate an MTE1 read of L1 that could start at `t` runs at: below 1 when the
  // core's MTE2 is writing L1 then. Asked in time order (catches up unless MTE2 is quiet).
  double l1_read_share(const isa::Footprint& fp, uint64_t t);
  void record(InstrRecord& r);
  void count_active(uint64_t start, uint64_t end);
  void count_aic(uint64_t from, uint64_t end);

  isa::Pipe pipe_;
  uint32_t depth_;
  CoreContext& ctx_;
  SyncUnit& sync_;
  std::deque<QueueEntry> queue_;
  std::vector<uint64_t> start_ring_;  // start cycle of entry seq at [seq % depth]
  uint64_t pushed_count_ = 0, started_count_ = 0;
  sc_core::sc_event pushed_ev_, progress_ev_;
  bool closed_ = false, finished_ = false, waiting_push_ = false;
  uint32_t waiters_ = 0;  // threads blocked in start_of / drain
  std::array<Buffer*, isa::kSpaceCount> buffers_{};
  GmPort* gm_ = nullptr;
  UnitFlags* unit_ = nullptr;
  // Blocked until a unit-flag producer of this pipe has run (see horizon()): S = not blocked.
  isa::Pipe waiting_unit_ = isa::Pipe::S;
  uint64_t waiting_unit_for_ = 0;  // that producer's instruction index, for deadlock reports
  // How far before the producer's start the waiting instruction may start (its head and its
  // duration: it touches its granules as the producer makes them), for horizon().
  uint64_t waiting_unit_lead_ = 0;
  const TimeSource* issuer_ = nullptr;
  std::array<const TimeSource*, isa::kPipeCount> peers_{};
  const isa::Instruction* current_ = nullptr;
  // The WaitFlag this pipe is blocked in (none: nullptr), for the horizon: nothing here starts
  // before the pipe that will set its flag gets that far.
  const isa::WaitFlag* waiting_ = nullptr;
  mutable bool in_horizon_ = false;  // breaks cycles of pipes waiting on each other
  // Set while an instruction has started but its record is not out yet (a GM transfer is in
  // flight): the horizon may not pass its start.
  bool in_flight_ = false;
  uint64_t in_flight_start_ = 0;
  // MTE2: the GM -> L1 copy moving now (open) and the last one that ended, as [start, end).
  bool l1_write_open_ = false;
  uint64_t l1_write_start_ = 0, l1_last_start_ = 0, l1_last_end_ = 0;
  const Engine* l1_writer_ = nullptr;  // MTE1: the core's MTE2
  std::vector<Calendar*> cals_;        // scratch for book_ports
  isa::AccessList gm_access_;          // scratch for gm_transfer
  uint64_t local_ = 0, last_completion_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, instructions_ = 0;
  uint64_t late_ = 0;
  // Pacing (see the top of this file).
  double min_interval_ = 0;    // issue.min_interval_<pipe>
  uint64_t window_bytes_ = 0;  // gm.<read|write>.window_bytes of this pipe's GM path; 0 = none
  double free_exact_ = 0;      // when the last instruction's occupancy ended, in exact cycles
  double allowed_ = 0;         // earliest exact start of the next data instruction
  double last_mmad_end_ = -1;  // exact end of the last Mmad's occupancy; < 0: none yet
  std::deque<std::pair<uint64_t, uint64_t>> in_flight_gm_;  // (end cycle, bytes) of GM transfers
  uint64_t in_flight_bytes_ = 0;
  uint64_t active_cycles_ = 0, active_until_ = 0;
  uint64_t aic_cycles_ = 0, aic_until_ = 0;
};

}  // namespace aicore::model
