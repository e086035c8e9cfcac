// Streaming reader of `.trace` files (docs/trace-format.md). It reads one line at a time and keeps
// only the declared tensors, so its memory does not grow with the number of instructions.
// Every malformed line is an InputError "file:line:column: error: ..." (exit status 2).
#pragma once
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "aicore/trace/statement.hpp"

namespace aicore::trace {

class Reader {
 public:
  // Opens a trace file; data-file paths resolve against its directory. InputError if unreadable.
  explicit Reader(const std::string& path);
  // Reads from a stream the caller keeps alive (tests, fuzzing, stdin). `display_name` is used in
  // error locations; `base_dir` resolves relative data-file paths ("" = current directory).
  Reader(std::istream& in, std::string display_name, std::string base_dir);
  ~Reader();
  Reader(Reader&&) noexcept;
  Reader& operator=(Reader&&) noexcept;

  // The next statement; false at the end of the trace. Throws InputError on any parse error.
  bool next(Statement& out);
  // Whether each instruction must also pass isa::check_fields (on by default: what the text alone
  // shows wrong, such as a misaligned operand or an illegal event pair, is an input error at the
  // field). Off, the reader checks only what its field table describes: for tests of the table,
  // and for feeding checkers instructions the model would refuse.
  void check_fields(bool on);

  // The .gm tensors declared so far, in order: tensors()[i].id == i.
  const std::vector<GmDecl>& tensors() const;
  // The display name used in error locations (the path given to the constructor).
  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aicore::trace
