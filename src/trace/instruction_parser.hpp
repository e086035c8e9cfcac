// Private to the trace reader: the instruction parser (docs/trace-format.md), run by the
// descriptor table (isa/descriptors.hpp).
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aicore/isa/instructions.hpp"
#include "aicore/trace/statement.hpp"
#include "lexer.hpp"

namespace aicore::trace::detail {

// The .gm tensors declared so far, with a name index (traces may declare many tensors).
class TensorTable {
 public:
  const std::vector<GmDecl>& list() const { return list_; }
  const GmDecl* find(std::string_view name) const {
    const auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? nullptr : &list_[it->second];
  }
  void add(GmDecl g) {
    by_name_.emplace(g.name, static_cast<uint32_t>(list_.size()));
    list_.push_back(std::move(g));
  }
  // " did you mean" text for a name that is not declared.
  std::string suggest(std::string_view name) const {
    std::vector<std::string> names;
    if (name.size() <= 64) {
      names.reserve(list_.size());
      for (const auto& t : list_) names.push_back(t.name);
    }
    return suggestion(name, names);
  }

 private:
  std::vector<GmDecl> list_;
  std::unordered_map<std::string, uint32_t> by_name_;
};

// Parses an instruction line: tokens[0] is the mnemonic, the rest key=value fields. GM operands
// resolve against the tensors declared so far.
isa::Op parse_instruction(const std::vector<Token>& tokens, const TensorTable& tensors,
                          const LineContext& ctx);

// Every mnemonic the reader accepts (for "did you mean" hints that span mnemonics and directives).
const std::vector<std::string>& mnemonics();

}  // namespace aicore::trace::detail
