#include "aicore/trace/writer.hpp"

#include <charconv>
#include <stdexcept>
#include <type_traits>

#include "aicore/isa/descriptors.hpp"

namespace aicore::trace {

namespace {

// "0" or "0x..." (lower case), appended.
void append_hex(std::string& s, uint64_t v) {
  if (v == 0) {
    s += '0';
    return;
  }
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  s.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_uint(std::string& s, uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_addr(std::string& s, const isa::Addr& a, const std::vector<std::string>& gm_names);
void append_event(std::string& s, isa::EventPair e) {
  s += isa::to_string(e.src);
  s += '_';
  s += isa::to_string(e.dst);
}

void append_value(std::string& s, const isa::Addr& a, const std::vector<std::string>& gm) {
  append_addr(s, a, gm);
}
void append_value(std::string& s, isa::EventPair e, const std::vector<std::string>&) {
  append_event(s, e);
}
void append_value(std::string& s, const isa::PipeBarrier& b, const std::vector<std::string>&) {
  s += b.all ? "PIPE_ALL" : "PIPE_";
  if (!b.all) s += isa::to_string(b.pipe);
}
void append_value(std::string& s, isa::DType t, const std::vector<std::string>&) {
  s += isa::to_string(t);
}
void append_value(std::string& s, isa::QuantMode q, const std::vector<std::string>&) {
  s += isa::to_string(q);
}
template <class V>
std::enable_if_t<std::is_integral_v<V>> append_value(std::string& s, V v, const std::vector<std::string>&) {
  append_uint(s, v);  // booleans as 0 and 1
}

// Appends "Mnemonic key=value ..." to a caller's string (no allocation once it has grown: the
// timeline writes one per instruction). An optional field equal to its default is left out, so
// that the line is as short as the Ascend C call it transliterates; an unused struct member is
// written only when set, so an illegal op stays visible in the trace (the reader then rejects
// the line) instead of being silently cleaned.
struct Formatter {
  std::string& s;
  const std::vector<std::string>& gm;
  template <class T>
  void operator()(const T& op) const {
    s += isa::Descriptor<T>::facts.mnemonic;
    isa::for_each_field_index<T>([&](auto i) {
      constexpr const auto& field = isa::field_at<T, decltype(i)::value>;
      using F = std::decay_t<decltype(field)>;
      const auto& v = F::of(op);
      if constexpr (!field.facts.required)
        if (static_cast<uint64_t>(v) == field.facts.default_value) return;
      s += ' ';
      s += field.facts.name;
      s += '=';
      append_value(s, v, gm);
    });
  }
};

const char* space_name(isa::Space s) {
  switch (s) {
    case isa::Space::L1:
      return "L1";
    case isa::Space::L0A:
      return "L0A";
    case isa::Space::L0B:
      return "L0B";
    case isa::Space::L0C:
      return "L0C";
    case isa::Space::BiasTable:
      return "BT";
    default:
      return nullptr;
  }
}

std::string directive(const char* word, const std::string& name) {
  if (name.empty() || name.find_first_of(" \t#=+") != std::string::npos)
    throw std::invalid_argument(std::string(word) + ": invalid GM tensor name '" + name + "'");
  return std::string(word) + " " + name;
}

// ".out NAME file=PATH [dtype=D] [shape=D0,D1]" and ".expect ..." (same fields).
std::string file_directive(const char* word, const std::string& name, const std::string& file,
                           const std::string& dtype, const std::vector<uint64_t>& shape) {
  std::string s = directive(word, name) + " file=" + file;
  if (!dtype.empty()) s += " dtype=" + dtype;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : " shape=") + std::to_string(shape[i]);
  return s;
}

}  // namespace

namespace {
void append_addr(std::string& s, const isa::Addr& a, const std::vector<std::string>& gm_names) {
  if (a.space == isa::Space::GM) {
    if (a.tensor >= gm_names.size())
      throw std::invalid_argument("GM tensor #" + std::to_string(a.tensor) + " has no name (" +
                                  std::to_string(gm_names.size()) + " declared)");
    s += gm_names[a.tensor];
    if (a.offset != 0) {
      s += '+';
      append_hex(s, a.offset);
    }
    return;
  }
  const char* name = space_name(a.space);
  if (!name) throw std::invalid_argument("the sparse index buffer is not addressable by a trace operand");
  s += name;
  s += ':';
  append_hex(s, a.offset);
}
}  // namespace

std::string format_addr(const isa::Addr& a, const std::vector<std::string>& gm_names) {
  std::string s;
  append_addr(s, a, gm_names);
  return s;
}

std::string format_event(isa::EventPair e) {
  std::string s;
  append_event(s, e);
  return s;
}

void append_instruction(std::string& out, const isa::Op& op, const std::vector<std::string>& gm_names) {
  std::visit(Formatter{out, gm_names}, op);
}

std::string format_instruction(const isa::Op& op, const std::vector<std::string>& gm_names) {
  std::string s;
  append_instruction(s, op, gm_names);
  return s;
}

std::string format_gm(const std::string& name, uint64_t size, const std::string& file) {
  std::string s = directive(".gm", name) + " size=" + std::to_string(size);
  if (!file.empty()) s += " file=" + file;
  return s;
}

std::string format_out(const std::string& name, const std::string& file, const std::string& dtype,
                       const std::vector<uint64_t>& shape) {
  return file_directive(".out", name, file, dtype, shape);
}

std::string format_expect(const std::string& name, const std::string& file, const std::string& dtype,
                          const std::vector<uint64_t>& shape) {
  return file_directive(".expect", name, file, dtype, shape);
}

}  // namespace aicore::trace
