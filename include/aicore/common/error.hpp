// Error types shared by every layer. Each maps to one exit status of the CLI
// (docs/cli.md): InputError -> 2, Fault -> 3. Nothing in the project aborts.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace aicore {

// Where in a user file something went wrong. line/column are 1-based; 0 = unknown.
struct SourceLoc {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string str() const;  // "file:line:column" (parts that are unknown are left out)
};

// Bad input: trace, data file, config or command line. what() is the full
// "file:line:column: error: ..." message.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, const std::string& message);
  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
};

// What went wrong while executing an instruction (the class of run-time fault).
enum class FaultKind : uint8_t {
  Misaligned,
  OutOfBounds,
  InvalidField,        // a field outside its legal range (e.g. sid != 0, K not a multiple of 4)
  InvalidSparseIndex,  // a 2-bit sparse index equal to 3
  InvalidQuantWord,    // a per-channel Fixpipe word in L1 outside deqScalar's rules (seen only in data)
  Unsupported,         // a legal Ascend C mode the simulator does not model (e.g. cmatrixSource=1)
  IllegalEvent,
  Deadlock,
};
const char* to_string(FaultKind k);

// A fault raised by the isa/semantics layers. It knows the operand and position but
// not the instruction's line or the cycle: the model adds those (see model::SimFault).
class Fault : public std::runtime_error {
 public:
  Fault(FaultKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  FaultKind kind() const { return kind_; }

 private:
  FaultKind kind_;
};

// Closest candidate by edit distance, for "did you mean" hints; empty when nothing is close.
std::string nearest_word(const std::string& word, const std::string* candidates, size_t count);
template <class Container>
std::string nearest_word(const std::string& word, const Container& c) {
  return nearest_word(word, c.data(), c.size());
}

}  // namespace aicore
