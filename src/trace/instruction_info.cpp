// instruction_info(): the descriptor table (isa/descriptors.hpp) in the words of a trace.
#include "aicore/trace/instruction_info.hpp"

#include "aicore/isa/descriptors.hpp"
#include "fields.hpp"

namespace aicore::trace {

namespace {

FieldInfo info_of(const isa::FieldFacts& f) {
  FieldInfo i;
  i.key = f.name;
  i.type = isa::to_string(f.type);
  i.required = f.required;
  i.accepts = detail::accepts_text(f);
  i.default_value = detail::default_text(f);
  for (const isa::Space s : {isa::Space::GM, isa::Space::L1, isa::Space::L0A, isa::Space::L0B,
                             isa::Space::L0C, isa::Space::BiasTable})
    if (f.spaces & isa::bit(s)) i.spaces.push_back(s);
  i.max = f.max;
  i.unused = f.unused;
  i.meaning = f.doc;
  return i;
}

}  // namespace

const std::vector<InstructionInfo>& instruction_info() {
  static const std::vector<InstructionInfo> table = [] {
    std::vector<InstructionInfo> v;
    for (const isa::InstructionDescriptor& d : isa::kDescriptors) {
      InstructionInfo in;
      in.mnemonic = d.facts.mnemonic;
      in.pipe = d.facts.pipe_rule == isa::PipeRule::Fixed ? isa::to_string(d.facts.pipe)
                                                          : isa::to_string(d.facts.pipe_rule);
      in.summary = d.facts.summary;
      for (const isa::FieldFacts& f : d) in.fields.push_back(info_of(f));
      v.push_back(std::move(in));
    }
    return v;
  }();
  return table;
}

std::vector<std::string> space_aliases(isa::Space s) {
  return detail::aliases_of(s);
}

}  // namespace aicore::trace
