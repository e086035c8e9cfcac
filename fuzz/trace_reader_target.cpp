// Fuzz target: the streaming trace reader (lexer, directives, every instruction's fields), the
// data-free checks the model runs on each instruction, and the writer. Oracle: any statement
// the reader accepts, printed by the writer and read back, prints the same again (the writer
// and the reader agree on every field and default).
#include <sstream>
#include <string>
#include <vector>

#include "aicore/isa/check.hpp"
#include "aicore/trace/reader.hpp"
#include "aicore/trace/writer.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

namespace {

constexpr size_t kMaxPrinted = 256;  // instructions round-tripped per input

// Runs the data-free checks the model would run (their faults are legal outcomes).
void check_like_the_model(const isa::Op& op) {
  try {
    isa::check_fields(op);
    (void)isa::footprint(op);
    (void)isa::bytes_moved(op);
  } catch (const Fault&) {
  }
  (void)isa::pipe_of(op);
  (void)isa::mnemonic(op);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  trace::Reader reader(in, "fuzz.trace", "");
  reader.check_fields(false);  // the field table alone: check_like_the_model runs the rest
  trace::Statement st;
  std::vector<std::string> printed;
  try {
    while (reader.next(st)) {
      if (st.kind != trace::Statement::Kind::Instr) continue;
      check_like_the_model(st.instr.op);
      if (printed.size() >= kMaxPrinted) continue;
      std::vector<std::string> names;
      for (const auto& t : reader.tensors()) names.push_back(t.name);
      printed.push_back(trace::format_instruction(st.instr.op, names));
    }
  } catch (const InputError&) {
    // A parse error is a legal outcome; what was accepted before it is still checked below.
  }

  // Round trip: the accepted instructions, printed, must parse back and print identically.
  std::string text;
  for (const auto& t : reader.tensors()) text += trace::format_gm(t.name, t.size) + "\n";
  for (const std::string& line : printed) text += line + "\n";
  std::istringstream again(text);
  trace::Reader back(again, "roundtrip.trace", "");
  back.check_fields(false);
  std::vector<std::string> names;
  for (const auto& t : reader.tensors()) names.push_back(t.name);
  size_t i = 0;
  try {
    while (back.next(st)) {
      if (st.kind != trace::Statement::Kind::Instr) continue;
      const std::string reprinted = trace::format_instruction(st.instr.op, names);
      if (i >= printed.size() || reprinted != printed[i])
        fuzz::oracle_failed("writer/reader round trip: '" + (i < printed.size() ? printed[i] : "") +
                            "' read back as '" + reprinted + "'");
      ++i;
    }
  } catch (const InputError& e) {
    fuzz::oracle_failed(std::string("the writer's output does not parse: ") + e.what());
  }
  if (i != printed.size()) fuzz::oracle_failed("round trip lost instructions");
  return 0;
}
