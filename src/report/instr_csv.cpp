#include "aicore/report/instr_csv.hpp"

#include <cerrno>
#include <cstring>

#include "aicore/common/error.hpp"

namespace aicore::report {

InstrCsvWriter::InstrCsvWriter(const std::string& path) : f_(std::fopen(path.c_str(), "w")) {
  if (!f_) throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create instr.csv: ") + std::strerror(errno));
  std::fputs(
      "index,line,mnemonic,pipe,issue_cycle,start_cycle,busy_end_cycle,end_cycle,bytes,macs,dense_macs,"
      "wait_cycles,wait_cause,queue_wait_cycles\n",
      f_);
}

InstrCsvWriter::~InstrCsvWriter() {
  if (f_) std::fclose(f_);
}

void InstrCsvWriter::on_instruction(const model::InstrRecord& r) {
  std::fprintf(f_, "%llu,%u,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s,%llu\n",
               static_cast<unsigned long long>(r.instr->index), r.instr->line, isa::mnemonic(r.instr->op),
               isa::to_string(r.pipe), static_cast<unsigned long long>(r.issue_cycle),
               static_cast<unsigned long long>(r.start_cycle), static_cast<unsigned long long>(r.busy_end),
               static_cast<unsigned long long>(r.end_cycle), static_cast<unsigned long long>(r.bytes),
               static_cast<unsigned long long>(r.macs), static_cast<unsigned long long>(r.dense_macs),
               static_cast<unsigned long long>(r.wait_cycles), model::to_string(r.wait_cause),
               static_cast<unsigned long long>(r.queue_wait_cycles));
}

}  // namespace aicore::report
