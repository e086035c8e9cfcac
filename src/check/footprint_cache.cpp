#include "footprint_cache.hpp"

#include <tuple>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::check {

namespace {

// Every field of every op, as one tuple. A field added to an op must be added here too, or two
// instructions differing in it would share a footprint: the sizes below catch that.
static_assert(sizeof(isa::DataCopy) == 40 && sizeof(isa::DataCopyNd2Nz) == 56 &&
                  sizeof(isa::LoadData) == 48 && sizeof(isa::LoadDataWithSparse) == 64 &&
                  sizeof(isa::Mmad) == 64 && sizeof(isa::MmadWithSparse) == 64 &&
                  sizeof(isa::Fixpipe) == 64 && sizeof(isa::Addr) == 16,
              "an isa op changed: update fields() in footprint_cache.cpp");

#define AICORE_ADDR(a) a.space, a.tensor, a.offset
auto fields(const isa::DataCopy& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.src), o.blockCount, o.blockLen, o.srcGap, o.dstGap);
}
auto fields(const isa::DataCopyNd2Nz& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.src), o.dtype, o.ndNum, o.nValue, o.dValue,
                  o.srcNdMatrixStride, o.srcDValue, o.dstNzC0Stride, o.dstNzNStride, o.dstNzMatrixStride);
}
auto fields(const isa::LoadData& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.src), o.dtype, o.startIndex, o.repeatTimes, o.srcStride,
                  o.dstGap, o.ifTranspose, o.sid, o.addrMode);
}
auto fields(const isa::LoadDataWithSparse& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.src), AICORE_ADDR(o.idx), o.startIndex, o.repeatTimes,
                  o.srcStride, o.dstGap, o.ifTranspose, o.sid, o.addrMode);
}
auto common(const isa::MmadCommon& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.fm), AICORE_ADDR(o.filter), o.m, o.n, o.k,
                  o.cmatrixInitVal, o.cmatrixSource, o.isBias, o.unitFlag);
}
auto fields(const isa::Mmad& o) {
  return std::tuple_cat(common(o), std::tie(o.dtype));
}
auto fields(const isa::MmadWithSparse& o) {
  return common(o);
}
auto fields(const isa::Fixpipe& o) {
  return std::tie(AICORE_ADDR(o.dst), AICORE_ADDR(o.src), o.dtype, o.nSize, o.mSize, o.srcStride, o.dstStride,
                  o.quantPre, o.deqScalar, o.ndNum, o.srcNdStride, o.dstNdStride, o.reluEn, o.unitFlag);
}
auto fields(const isa::SetFlag& o) {
  return std::tie(o.event.src, o.event.dst, o.id);
}
auto fields(const isa::WaitFlag& o) {
  return std::tie(o.event.src, o.event.dst, o.id);
}
auto fields(const isa::PipeBarrier& o) {
  return std::tie(o.pipe, o.all);
}
#undef AICORE_ADDR

}  // namespace

bool same_op(const isa::Op& a, const isa::Op& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        return fields(x) == fields(y);
      },
      a);
}

uint64_t hash_op(const isa::Op& op) {
  uint64_t h = op.index() * 0x9E3779B97F4A7C15ull;
  std::visit(
      [&](const auto& x) {
        std::apply([&](const auto&... f) { ((h = (h ^ static_cast<uint64_t>(f)) * 0x100000001B3ull), ...); },
                   fields(x));
      },
      op);
  return h ^ (h >> 32);
}

const isa::AccessList* FootprintCache::get(const isa::Op& op) {
  Entry& e = entries_[hash_op(op) & (kEntries - 1)];
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
