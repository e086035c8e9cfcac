// The lookups that read the descriptor table (isa/descriptors.hpp).
#include "aicore/isa/descriptors.hpp"

#include <vector>

namespace aicore::isa {

namespace {

// The first field of `op` whose member has type V (the event of a flag, the barrier's pipe).
template <class V, class T>
const V& value_of_type(const T& op) {
  const V* found = nullptr;
  for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<typename F::Value, V>)
      if (!found) found = &F::of(op);
  });
  return *found;
}

template <class T>
Pipe pipe_of_op(const T& op) {
  constexpr InstructionFacts facts = Descriptor<T>::facts;
  if constexpr (facts.pipe_rule == PipeRule::Fixed) {
    return facts.pipe;
  } else if constexpr (facts.pipe_rule == PipeRule::EventSource) {
    return value_of_type<EventPair>(op).src;
  } else if constexpr (facts.pipe_rule == PipeRule::EventDestination) {
    return value_of_type<EventPair>(op).dst;
  } else {
    const PipeBarrier& b = value_of_type<PipeBarrier>(op);
    return b.all ? Pipe::S : b.pipe;
  }
}

}  // namespace

const char* to_string(FieldType t) {
  switch (t) {
    case FieldType::Operand:
      return "operand";
    case FieldType::U8:
      return "u8";
    case FieldType::U16:
      return "u16";
    case FieldType::U32:
      return "u32";
    case FieldType::U64:
      return "u64";
    case FieldType::Boolean:
      return "boolean";
    case FieldType::DType:
      return "dtype";
    case FieldType::Quant:
      return "quant";
    case FieldType::Event:
      return "event";
    case FieldType::BarrierPipe:
      return "pipe";
  }
  return "?";
}

const char* to_string(PipeRule r) {
  switch (r) {
    case PipeRule::Fixed:
      return "a fixed pipe";
    case PipeRule::EventSource:
      return "SRC of the event";
    case PipeRule::EventDestination:
      return "DST of the event";
    case PipeRule::Barrier:
      return "the named pipe (PIPE_ALL: S)";
  }
  return "?";
}

std::string describe_dtypes(DTypeMask mask) {
  std::vector<const char*> names;
  for (const DType t : kAllDTypes)
    if (mask & bit(t)) names.push_back(to_string(t));
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

const char* mnemonic(const Op& op) {
  return descriptor(op).facts.mnemonic;
}

bool is_sync(const Op& op) {
  return std::holds_alternative<SetFlag>(op) || std::holds_alternative<WaitFlag>(op) ||
         std::holds_alternative<PipeBarrier>(op) || std::holds_alternative<SyncAll>(op) ||
         std::holds_alternative<SetAtomicAdd>(op) || std::holds_alternative<SetAtomicNone>(op);
}

Pipe pipe_of(const Op& op) {
  return std::visit([](const auto& x) { return pipe_of_op(x); }, op);
}

}  // namespace aicore::isa
