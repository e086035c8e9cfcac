// instr.csv (--instr-log): one row per instruction, written as the model reports it (so rows
// are in completion order per pipe, not program order; sort by `index` for program order).
// Streamed: nothing is kept in memory.
#pragma once
#include <cstdio>
#include <string>

#include "aicore/model/observer.hpp"

namespace aicore::report {

class InstrCsvWriter : public model::Observer {
 public:
  explicit InstrCsvWriter(const std::string& path);  // InputError if it cannot be created
  ~InstrCsvWriter() override;
  InstrCsvWriter(const InstrCsvWriter&) = delete;
  InstrCsvWriter& operator=(const InstrCsvWriter&) = delete;
  void on_instruction(const model::InstrRecord& r) override;

 private:
  std::FILE* f_ = nullptr;
};

}  // namespace aicore::report
