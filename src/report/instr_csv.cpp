#include "aicore/report/instr_csv.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "aicore/common/error.hpp"

namespace aicore::report {

namespace {
// Pipe names are at most 4 characters, so "flag MTE2_MTE1/7" always fits in 32. Written by
// hand, not snprintf: the timeline names every flow arrow this way.
void write_flag(char* buf, size_t size, const char* prefix, isa::EventPair e, uint8_t id) {
  char* p = buf;
  char* const end = buf + size - 5;  // room for "/255" and the terminator
  for (const char* part : {prefix, isa::to_string(e.src), "_", isa::to_string(e.dst)})
    for (; *part && p < end; ++part) *p++ = *part;
  *p++ = '/';
  p = std::to_chars(p, buf + size - 1, static_cast<unsigned>(id)).ptr;
  *p = '\0';
}
}  // namespace

const char* flag_text(isa::EventPair e, uint8_t id, char (&buf)[32]) {
  write_flag(buf, sizeof buf, "", e, id);
  return buf;
}

const char* wait_cause_text(const model::InstrRecord& r, char (&buf)[32]) {
  const auto* w = std::get_if<isa::WaitFlag>(&r.instr->op);
  if (r.wait_cause != model::WaitCause::Flag || !w) return model::to_string(r.wait_cause);
  write_flag(buf, sizeof buf, "flag ", w->event, w->id);
  return buf;
}

InstrCsvWriter::InstrCsvWriter(const std::string& path) : path_(path) {
  if (!out_.open(path))
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create instr.csv: ") + std::strerror(errno));
  out_ << "index,line,mnemonic,pipe,issue_cycle,start_cycle,busy_end_cycle,end_cycle,bytes,macs,dense_macs,"
          "wait_cycles,wait_cause,queue_wait_cycles,core\n";
}

InstrCsvWriter::~InstrCsvWriter() = default;

void InstrCsvWriter::finish() {
  if (!out_.close()) throw InputError(SourceLoc{path_, 0, 0}, "cannot write instr.csv (disk full?)");
}

void InstrCsvWriter::on_instruction(const model::InstrRecord& r) {
  char cause[32];
  out_ << r.instr->index << ',' << r.instr->line << ',' << isa::mnemonic(r.instr->op) << ','
       << isa::to_string(r.pipe) << ',' << r.issue_cycle << ',' << r.start_cycle << ',' << r.busy_end << ','
       << r.end_cycle << ',' << r.bytes << ',' << r.macs << ',' << r.dense_macs << ',' << r.wait_cycles << ','
       << wait_cause_text(r, cause) << ',' << r.queue_wait_cycles << ',' << r.core.value << '\n';
}

}  // namespace aicore::report
