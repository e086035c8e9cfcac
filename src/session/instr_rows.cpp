#include "instr_rows.hpp"

#include "aicore/report/instr_csv.hpp"

namespace aicore::session {

void InstrRows::on_instruction(const model::InstrRecord& r) {
  char cause[32];
  InstrRow row;
  row.core = r.core.value;
  row.index = r.instr->index;
  row.line = r.instr->line;
  row.mnemonic = isa::mnemonic(r.instr->op);
  row.pipe = isa::to_string(r.pipe);
  row.issue_cycle = r.issue_cycle;
  row.start_cycle = r.start_cycle;
  row.busy_end_cycle = r.busy_end;
  row.end_cycle = r.end_cycle;
  row.bytes = r.bytes;
  row.macs = r.macs;
  row.dense_macs = r.dense_macs;
  row.wait_cycles = r.wait_cycles;
  row.wait_cause = report::wait_cause_text(r, cause);
  row.queue_wait_cycles = r.queue_wait_cycles;
  rows_.push_back(std::move(row));
}

}  // namespace aicore::session
