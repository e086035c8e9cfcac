// The descriptor table (isa/descriptors.hpp) walked against everything it drives: every struct
// member has a descriptor field; every instruction, with a value other than its default in every
// field, is written and read back to the same op; a misspelt key suggests the field it misspells;
// every field is documented in docs/trace-format.md and listed in the fuzz dictionary.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "aicore/isa/check.hpp"
#include "aicore/isa/descriptors.hpp"
#include "aicore/trace/writer.hpp"
#include "helpers.hpp"
#include "support.hpp"

using namespace aicore;
using Catch::EndsWith;
using Catch::StartsWith;
using isa::FieldFacts;

namespace {

const std::string kDecls = ".gm a size=4096\n.gm b size=4096\n";  // the line under test is line 3

// A value for field number `pos` of its instruction that differs from the field's default and from
// the values of the other fields (so that two fields swapped by the reader or the writer show),
// within what the reader accepts. `big` picks values at the top of the range instead.
template <class V>
V other_value(const FieldFacts& f, size_t pos, bool big) {
  if constexpr (std::is_same_v<V, isa::Addr>) {
    isa::Space s = isa::Space::GM;
    for (const isa::Space c : {isa::Space::GM, isa::Space::L1, isa::Space::L0A, isa::Space::L0B,
                               isa::Space::L0C, isa::Space::BiasTable})
      if (f.spaces & isa::bit(c)) s = c;  // the last one it may name: never L1 for LoadData's dst
    isa::Addr a;
    a.space = s;
    a.tensor = s == isa::Space::GM ? 1 : 0;
    a.offset = big ? (uint64_t{1} << 40) + pos * 0x20 : 0x20 * (pos + 1);
    return a;
  } else if constexpr (std::is_same_v<V, isa::EventPair>) {
    return big ? isa::EventPair{isa::Pipe::FIX, isa::Pipe::MTE3}
               : isa::EventPair{isa::Pipe::MTE2, isa::Pipe::MTE1};
  } else if constexpr (std::is_same_v<V, isa::PipeBarrier>) {
    return big ? isa::PipeBarrier{isa::Pipe::S, true} : isa::PipeBarrier{isa::Pipe::M, false};
  } else if constexpr (std::is_same_v<V, isa::DType>) {
    for (const isa::DType t : {isa::DType::Float, isa::DType::BF16, isa::DType::Half, isa::DType::Int32})
      if ((f.dtypes & isa::bit(t)) && static_cast<uint64_t>(t) != f.default_value) return t;
    FAIL("no second dtype for " << f.name);
    return isa::DType::Int8;
  } else if constexpr (std::is_same_v<V, isa::QuantMode>) {
    const isa::QuantMode q = big ? isa::QuantMode::REQ8 : isa::QuantMode::F322F16;
    CHECK(static_cast<uint64_t>(q) != f.default_value);
    return q;
  } else if constexpr (std::is_same_v<V, bool>) {
    return f.unused ? false : f.default_value == 0;
  } else {
    if (f.unused) return 0;  // only 0 parses (test_instruction_info checks the rejection)
    if (f.values) {          // one of a few values: the largest, or the first not the default
      for (uint64_t v = big ? 63 : 0; v < 64; big ? --v : ++v)
        if ((f.values >> v & 1u) && v != f.default_value) return static_cast<V>(v);
      FAIL("no second value for " << f.name);
    }
    uint64_t v = big ? f.max : f.max == UINT64_MAX ? pos + 1 : (pos + 1) % (f.max + 1);  // u64: no wrap
    if (v == f.default_value) v = v == 0 ? 1 : v - 1;
    return static_cast<V>(v);
  }
}

template <class T>
T op_with_other_values(bool big) {
  T op{};
  size_t pos = 0;
  isa::for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    F::of(op) = other_value<typename F::Value>(field.facts, pos++, big);
  });
  return op;
}

// The fields of two ops of type T that differ, by name.
template <class T>
std::string differing_fields(const T& a, const T& b) {
  std::string out;
  isa::for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if (!(F::of(a) == F::of(b))) out += std::string(out.empty() ? "" : ", ") + field.facts.name;
  });
  return out;
}

template <class T>
void round_trip(bool big) {
  const T op = op_with_other_values<T>(big);
  const std::string line = trace::format_instruction(op, {"a", "b"});
  INFO(line);
  for (const FieldFacts& f : isa::kDescriptors[isa::op_index_of<T>])
    if (!f.unused) CHECK(line.find(std::string(" ") + f.name + "=") != std::string::npos);
  const auto all = trace_test::read_all(kDecls + line + "\n");
  REQUIRE(all.size() == 3);
  const T* back = std::get_if<T>(&all[2].instr.op);
  REQUIRE(back != nullptr);
  CHECK(differing_fields(op, *back) == "");
}

// Every byte of T belongs to a described member or is padding: walking the members by offset,
// each starts where the previous one ends, rounded up to its own alignment, and T ends where the
// last one ends, rounded up to T's. A member the table leaves out breaks the chain (unless it hides
// in T's tail padding, which no member of the current structs could).
template <class T>
std::string undescribed_bytes() {
  struct Piece {
    size_t begin, end, align;
    const char* name;
  };
  std::vector<Piece> pieces;
  T op{};
  const auto* base = reinterpret_cast<const char*>(&op);
  isa::for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    const auto* at = reinterpret_cast<const char*>(&F::of(op));
    const size_t b = static_cast<size_t>(at - base);
    pieces.push_back({b, b + sizeof(typename F::Value), alignof(typename F::Value), field.facts.name});
  });
  // An instruction without fields (SyncAll, SetAtomicNone) must be an empty struct.
  if (pieces.empty()) return std::is_empty_v<T> ? "" : "bytes of a struct without fields";
  std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) { return x.begin < y.begin; });
  const auto round_up = [](size_t v, size_t a) { return (v + a - 1) / a * a; };
  size_t end = 0;
  for (const Piece& p : pieces) {
    if (p.begin != round_up(end, p.align)) return "bytes before " + std::string(p.name);
    end = p.end;
  }
  if (sizeof(T) != round_up(end, alignof(T))) return "bytes after " + std::string(pieces.back().name);
  return "";
}

// Calls f(Type<T>{}) for every alternative T of isa::Op.
template <class T>
struct Type {
  using type = T;
};
template <class F, size_t... I>
void each_type(F&& f, std::index_sequence<I...>) {
  (f(Type<std::variant_alternative_t<I, isa::Op>>{}), ...);
}
template <class F>
void each_type(F&& f) {
  each_type(f, std::make_index_sequence<isa::kInstructionCount>{});
}

// The markdown table rows of the section "### NAME" of `doc`.
std::string section(const std::string& doc, const std::string& name) {
  const size_t b = doc.find("\n### " + name + "\n");
  if (b == std::string::npos) return "";
  const size_t e = doc.find("\n### ", b + 1);
  return doc.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE("every member of every instruction struct has a descriptor field", "[descriptors]") {
  each_type([](auto t) {
    using T = typename decltype(t)::type;
    INFO(isa::Descriptor<T>::facts.mnemonic);
    CHECK(undescribed_bytes<T>() == "");
  });
}

TEST_CASE("every instruction with every field off its default is written and read back unchanged",
          "[descriptors]") {
  each_type([](auto t) {
    using T = typename decltype(t)::type;
    INFO(isa::Descriptor<T>::facts.mnemonic);
    round_trip<T>(false);
    round_trip<T>(true);
  });
}

TEST_CASE("the table's lookups: mnemonic, pipe, op index", "[descriptors]") {
  std::vector<std::string> names;
  each_type([&](auto t) {
    using T = typename decltype(t)::type;
    const isa::Op op = T{};
    CHECK(isa::op_index_of<T> == op.index());
    CHECK(isa::mnemonic(op) == std::string(isa::Descriptor<T>::facts.mnemonic));
    if (isa::Descriptor<T>::facts.pipe_rule == isa::PipeRule::Fixed)
      CHECK(isa::pipe_of(op) == isa::Descriptor<T>::facts.pipe);
    names.push_back(isa::mnemonic(op));
  });
  std::sort(names.begin(), names.end());
  CHECK(std::unique(names.begin(), names.end()) == names.end());
  CHECK(isa::pipe_of(isa::SetFlag{{isa::Pipe::MTE2, isa::Pipe::M}, 0}) == isa::Pipe::MTE2);
  CHECK(isa::pipe_of(isa::WaitFlag{{isa::Pipe::MTE2, isa::Pipe::M}, 0}) == isa::Pipe::M);
  CHECK(isa::pipe_of(isa::PipeBarrier{isa::Pipe::FIX, false}) == isa::Pipe::FIX);
  CHECK(isa::pipe_of(isa::PipeBarrier{isa::Pipe::S, true}) == isa::Pipe::S);
}

TEST_CASE("a misspelt key suggests the field it misspells", "[descriptors]") {
  for (const isa::InstructionDescriptor& d : isa::kDescriptors) {
    for (const FieldFacts& f : d) {
      const std::string name = f.name;
      // A doubled last letter (not for one-letter keys: "mm" is as near to "fm" as to "m"), the
      // key in capitals, the key without its last letter.
      std::vector<std::string> typos;
      if (name.size() >= 2) typos.push_back(name + name.back());
      std::string upper = name;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper != name) typos.push_back(upper);
      // Not when another key of the instruction is the same stem with another last letter
      // (strideW, strideH: "stride" is as near to either).
      bool twin = false;
      for (const FieldFacts& g : d)
        twin = twin || (g.name != name && std::string(g.name).size() == name.size() &&
                        std::string(g.name).compare(0, name.size() - 1, name, 0, name.size() - 1) == 0);
      if (name.size() >= 4 && !twin) typos.push_back(name.substr(0, name.size() - 1));
      for (const std::string& typo : typos) {
        const std::string line = std::string(d.facts.mnemonic) + " " + typo + "=1";
        INFO(line);
        CHECK_THAT(trace_test::parse_error(kDecls + line + "\n"),
                   StartsWith(trace_test::at(3, static_cast<uint32_t>(line.find(' ') + 2))) &&
                       EndsWith("unknown key '" + typo + "' for " + d.facts.mnemonic + "; did you mean '" +
                                name + "'?"));
      }
    }
  }
}

TEST_CASE("every field is documented in docs/trace-format.md and listed in the fuzz dictionary",
          "[descriptors]") {
  const std::string doc = test_support::slurp(std::string(AICORE_SOURCE_DIR) + "/docs/trace-format.md");
  const std::string dict = test_support::slurp(std::string(AICORE_SOURCE_DIR) + "/fuzz/trace.dict");
  REQUIRE_FALSE(doc.empty());
  REQUIRE_FALSE(dict.empty());
  for (const isa::InstructionDescriptor& d : isa::kDescriptors) {
    INFO(d.facts.mnemonic);
    CHECK(std::string(d.facts.summary).size() > 0);
    CHECK(dict.find("\"" + std::string(d.facts.mnemonic) + "\"\n") != std::string::npos);
    const std::string s = section(doc, d.facts.mnemonic);
    REQUIRE_FALSE(s.empty());
    for (const FieldFacts& f : d) {
      INFO(f.name);
      CHECK(std::string(f.doc).size() > 0);
      const std::string row = "\n| `" + std::string(f.name) + "` | " + isa::to_string(f.type) + " | ";
      const size_t at = s.find(row);
      CHECK(at != std::string::npos);
      if (at != std::string::npos)
        CHECK(s.substr(at, s.find('\n', at + 1) - at).find(escaped(f.doc)) != std::string::npos);
      CHECK(dict.find("\"" + std::string(f.name) + "=\"\n") != std::string::npos);
    }
  }
}

TEST_CASE("int4 in a trace: Mmad, LoadData and DataCopyNd2Nz read and write dtype=int4 (int4b_t too)",
          "[descriptors][int4]") {
  const auto all = trace_test::read_all(kDecls +
                                        "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=64 dtype=int4\n"
                                        "LoadData dst=L0A:0 src=L1:0 repeatTimes=1 dtype=int4b_t\n"
                                        "DataCopyNd2Nz dst=L1:0 src=a dtype=int4 nValue=16 dValue=64 "
                                        "srcDValue=64 dstNzC0Stride=16\n");
  REQUIRE(all.size() == 5);
  const auto* mm = std::get_if<isa::Mmad>(&all[2].instr.op);
  REQUIRE(mm != nullptr);
  CHECK(mm->dtype == isa::DType::Int4);
  CHECK(trace::format_instruction(*mm, {"a", "b"}).find(" dtype=int4") != std::string::npos);
  const auto* ld = std::get_if<isa::LoadData>(&all[3].instr.op);
  REQUIRE(ld != nullptr);
  CHECK(ld->dtype == isa::DType::Int4);
  const auto* nd = std::get_if<isa::DataCopyNd2Nz>(&all[4].instr.op);
  REQUIRE(nd != nullptr);
  CHECK(nd->dtype == isa::DType::Int4);
  // 16 rows of 64 int4 = 32 bytes each.
  CHECK(isa::bytes_moved(isa::Op(*nd)) == 16 * 32);
  CHECK(isa::bits_of(isa::DType::Int4) == 4);
  CHECK(isa::bytes_of(isa::DType::Int4, 129) == 65);
  CHECK(isa::k0_of(isa::DType::Int4) == 64);
  CHECK(isa::k0_of(isa::DType::Int8) == 32);
  CHECK(isa::k0_of(isa::DType::Float) == 8);
}
