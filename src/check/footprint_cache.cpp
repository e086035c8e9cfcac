#include "footprint_cache.hpp"

#include <type_traits>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/isa/descriptors.hpp"

namespace aicore::check {

namespace {

// Every field of an op as the numbers it is made of, for comparing and hashing ops field by field
// (never their padding bytes). The descriptor table lists every member (a test walks the
// structs), so two ops that differ in any member never share a footprint.
template <class V, class F>
void parts(const V& v, F&& f) {
  if constexpr (std::is_same_v<V, isa::Addr>) {
    f(static_cast<uint64_t>(v.space));
    f(v.tensor);
    f(v.offset);
  } else if constexpr (std::is_same_v<V, isa::EventPair>) {
    f(static_cast<uint64_t>(v.src));
    f(static_cast<uint64_t>(v.dst));
  } else if constexpr (std::is_same_v<V, isa::PipeBarrier>) {
    f(static_cast<uint64_t>(v.pipe));
    f(v.all);
  } else {
    static_assert(isa::ValueTraits<V>::scalar, "a field type without parts");
    f(static_cast<uint64_t>(v));
  }
}

template <class T>
bool same_fields(const T& a, const T& b) {
  bool same = true;
  isa::for_each_field<T>([&](const auto& field) {
    using F = std::decay_t<decltype(field)>;
    same = same && F::of(a) == F::of(b);
  });
  return same;
}

}  // namespace

bool same_op(const isa::Op& a, const isa::Op& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        return same_fields(x, y);
      },
      a);
}

uint64_t hash_op(const isa::Op& op) {
  uint64_t h = op.index() * 0x9E3779B97F4A7C15ull;
  const auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001B3ull; };
  std::visit(
      [&](const auto& x) {
        isa::for_each_value(x, [&](const isa::FieldFacts&, const auto& v) { parts(v, mix); });
      },
      op);
  return h ^ (h >> 32);
}

const isa::AccessList* FootprintCache::get(const isa::Op& op, uint64_t* hash) {
  const uint64_t h = hash_op(op);
  if (hash) *hash = h;
  Entry& e = entries_[h & (kEntries - 1)];
  if (e.used && same_op(e.op, op)) return e.ok ? &e.acc : nullptr;
  e.used = false;  // until it holds op's answer (should anything throw)
  e.op = op;
  try {
    isa::check_fields(op);
    e.ok = true;
  } catch (const Fault&) {
    e.ok = false;
  }
  if (e.ok) isa::exact_accesses(op, e.acc, gm_reads_);
  e.used = true;
  return e.ok ? &e.acc : nullptr;
}

}  // namespace aicore::check
