// docs/trace-format.md's instruction tables, from the parser's own description of the descriptor
// table, and the instruction words of the trace fuzzer's dictionary.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "aicore/isa/descriptors.hpp"
#include "aicore/trace/instruction_info.hpp"
#include "docgen.hpp"

namespace aicore::docgen {
namespace {

// Table cells: a '|' would end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string sentence(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string code(const std::string& s) {
  return "`" + s + "`";
}

}  // namespace

std::string instruction_summary() {
  std::ostringstream out;
  out << "| mnemonic | pipe | what it does | required keys |\n|---|---|---|---|\n";
  for (const auto& in : trace::instruction_info()) {
    std::string required;
    for (const auto& f : in.fields)
      if (f.required) required += (required.empty() ? "" : ", ") + code(f.key);
    std::string anchor = in.mnemonic;  // GitHub's heading anchors are lower case
    for (char& c : anchor) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out << "| [" << code(in.mnemonic) << "](#" << anchor << ") | " << cell(in.pipe) << " | "
        << cell(in.summary) << " | " << required << " |\n";
  }
  return out.str();
}

std::string instruction_fields() {
  std::ostringstream out;
  bool first = true;
  for (const auto& in : trace::instruction_info()) {
    out << (first ? "" : "\n") << "### " << in.mnemonic << "\n\n"
        << sentence(in.summary) << ". Pipe: " << in.pipe << ".\n";
    first = false;
    if (in.fields.empty()) {  // SyncAll, SetAtomicNone: the mnemonic alone
      out << "\nNo fields: the line is the mnemonic alone.\n";
      continue;
    }
    out << "\n| key | type | default | accepts | meaning |\n|---|---|---|---|---|\n";
    for (const auto& f : in.fields) {
      const std::string dflt = f.required ? "**required**" : code(f.default_value);
      out << "| " << code(f.key) << " | " << f.type << " | " << dflt << " | " << cell(f.accepts) << " | "
          << cell(f.meaning) << " |\n";
    }
  }
  return out.str();
}

std::string fuzz_words() {
  std::ostringstream out;
  std::vector<std::string> keys;
  for (const isa::InstructionDescriptor& d : isa::kDescriptors) {
    out << '"' << d.facts.mnemonic << "\"\n";
    for (const isa::FieldFacts& f : d)
      if (std::find(keys.begin(), keys.end(), f.name) == keys.end()) keys.emplace_back(f.name);
  }
  for (const std::string& k : keys) out << '"' << k << "=\"\n";
  // The closing marker sits in a comment line: the body ends with that line's "# ".
  out << "# ";
  return out.str();
}

std::string operand_spaces() {
  std::ostringstream out;
  out << "| memory | names in a trace | example |\n|---|---|---|\n";
  for (const isa::Space s : {isa::Space::L1, isa::Space::L0A, isa::Space::L0B, isa::Space::L0C}) {
    std::string names;
    for (const std::string& n : trace::space_aliases(s)) names += (names.empty() ? "" : ", ") + code(n);
    out << "| " << isa::to_string(s) << " | " << names << " | "
        << code(trace::space_aliases(s).back() + ":0x400") << " |\n";
  }
  out << "| GM | the name of a `.gm` tensor, optionally `+OFFSET` | `c`, `c+256`, `c+0x100` |\n";
  return out.str();
}

std::string event_pairs() {
  const isa::Pipe pipes[] = {isa::Pipe::S, isa::Pipe::MTE2, isa::Pipe::MTE1,
                             isa::Pipe::M, isa::Pipe::FIX,  isa::Pipe::MTE3};
  std::ostringstream out;
  out << "| SRC (runs SetFlag) | legal DST (runs WaitFlag) |\n|---|---|\n";
  for (const isa::Pipe src : pipes) {
    std::string dsts;
    for (const isa::Pipe dst : pipes)
      if (isa::is_legal_event({src, dst}))
        dsts +=
            (dsts.empty() ? "" : ", ") + code(std::string(isa::to_string(src)) + "_" + isa::to_string(dst));
    out << "| " << isa::to_string(src) << " | " << (dsts.empty() ? "none" : dsts) << " |\n";
  }
  return out.str();
}

}  // namespace aicore::docgen
