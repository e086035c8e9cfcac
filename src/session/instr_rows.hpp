// RunOptions::keep_instructions: one InstrRow per instruction, kept in memory in the order the
// model reports them (what instr.csv streams to a file).
#pragma once
#include <vector>

#include "aicore/model/observer.hpp"
#include "aicore/session/result.hpp"

namespace aicore::session {

class InstrRows : public model::Observer {
 public:
  void on_instruction(const model::InstrRecord& r) override;
  std::vector<InstrRow> take() { return std::move(rows_); }

 private:
  std::vector<InstrRow> rows_;
};

}  // namespace aicore::session
