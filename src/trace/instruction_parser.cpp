// The instruction parser, run by the descriptor table (isa/descriptors.hpp): for each mnemonic,
// its keys in Ascend C spelling, which of them are required, and the value syntax of each field's
// type (fields.cpp) within the limits the descriptor sets. Rules that span fields or need memory
// sizes (alignment, bounds, ifTranspose only for b16, ...) are run-time checks (isa::check).
#include <array>

#include "aicore/isa/descriptors.hpp"
#include "fields.hpp"
#include "instruction_parser.hpp"

namespace aicore::trace::detail {

namespace {

template <class T>
isa::Op parse_as(const std::vector<Token>& tokens, const Env& env) {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const isa::FieldFacts& f : isa::kDescriptors[isa::op_index_of<T>]) k.emplace_back(f.name);
    return k;
  }();
  // Reused across lines: parsing a trace allocates nothing per instruction.
  thread_local std::vector<KeyValue> pairs;
  thread_local std::vector<const KeyValue*> slots;
  collect_fields(tokens.data() + 1, tokens.data() + tokens.size(), keys, env.mnemonic, env.ctx, pairs, slots);
  std::string missing;
  size_t n_missing = 0, i = 0;
  for (const isa::FieldFacts& f : isa::kDescriptors[isa::op_index_of<T>]) {
    if (f.required && !slots[i]) missing += (n_missing++ ? ", '" : "'") + keys[i] + "'";
    ++i;
  }
  if (n_missing)
    env.ctx.fail(tokens[0].column, std::string(env.mnemonic) + " is missing required key" +
                                       (n_missing > 1 ? "s " : " ") + missing);
  T op{};
  i = 0;
  isa::for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if (const KeyValue* kv = slots[i++])
      F::of(op) = value_of(Tag<typename F::Value>{}, *kv, env, field.facts);
  });
  return op;
}

struct Entry {
  const char* mnemonic;
  isa::Op (*parse)(const std::vector<Token>&, const Env&);
};
template <size_t... I>
constexpr std::array<Entry, sizeof...(I)> entries(std::index_sequence<I...>) {
  return {Entry{isa::kDescriptors[I].facts.mnemonic, &parse_as<std::variant_alternative_t<I, isa::Op>>}...};
}
constexpr auto kEntries = entries(std::make_index_sequence<isa::kInstructionCount>{});

}  // namespace

const std::vector<std::string>& mnemonics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& e : kEntries) v.emplace_back(e.mnemonic);
    return v;
  }();
  return names;
}

isa::Op parse_instruction(const std::vector<Token>& tokens, const TensorTable& tensors,
                          const LineContext& ctx) {
  const Token& mn = tokens.at(0);
  for (const auto& e : kEntries)
    if (mn.text == e.mnemonic) return e.parse(tokens, Env{ctx, tensors, e.mnemonic});
  if (mn.text.find('=') != std::string_view::npos)
    ctx.fail(mn.column,
             "a statement starts with an instruction mnemonic or a directive, not " + quote(mn.text));
  ctx.fail(mn.column, "unknown instruction " + quote(mn.text) + suggestion(mn.text, mnemonics()));
}

}  // namespace aicore::trace::detail
