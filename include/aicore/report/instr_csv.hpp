// instr.csv (--instr-log): one row per instruction, written as the model reports it (so rows
// are in completion order per pipe, not program order; sort by `index` for program order).
// Streamed: nothing is kept in memory.
#pragma once
#include <string>

#include "aicore/model/observer.hpp"
#include "aicore/report/text_out.hpp"

namespace aicore::report {

// "MTE2_MTE1/0": a flag as instr.csv and timeline.json name it.
const char* flag_text(isa::EventPair e, uint8_t id, char (&buf)[32]);
// wait_cause as written in instr.csv and timeline.json: "", "port", "barrier", or for a flag
// "flag MTE2_MTE1/0" (no allocation: it runs once per instruction).
const char* wait_cause_text(const model::InstrRecord& r, char (&buf)[32]);

class InstrCsvWriter : public model::Observer {
 public:
  explicit InstrCsvWriter(const std::string& path);  // InputError if it cannot be created
  ~InstrCsvWriter() override;
  InstrCsvWriter(const InstrCsvWriter&) = delete;
  InstrCsvWriter& operator=(const InstrCsvWriter&) = delete;
  void on_instruction(const model::InstrRecord& r) override;
  // Writes what is buffered and closes the file; InputError if writing failed.
  void finish();

 private:
  std::string path_;
  TextOut out_;
};

}  // namespace aicore::report
