// Field-by-field equality of isa ops (the isa layer defines none), for round-trip tests.
#pragma once
#include <tuple>

#include "aicore/isa/instructions.hpp"

namespace gentest {

namespace key_detail {
using namespace aicore;
using isa::Addr;
inline auto key(const Addr& a) {
  return std::make_tuple(a.space, a.tensor, a.offset);
}
inline auto key(const isa::DataCopy& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.blockCount, o.blockLen, o.srcGap, o.dstGap);
}
inline auto key(const isa::DataCopyNd2Nz& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.dtype, o.ndNum, o.nValue, o.dValue, o.srcNdMatrixStride,
                         o.srcDValue, o.dstNzC0Stride, o.dstNzNStride, o.dstNzMatrixStride);
}
inline auto key(const isa::LoadData& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.dtype, o.startIndex, o.repeatTimes, o.srcStride, o.dstGap,
                         o.ifTranspose, o.sid, o.addrMode);
}
inline auto key(const isa::LoadDataWithSparse& o) {
  return std::make_tuple(key(o.dst), key(o.src), key(o.idx), o.startIndex, o.repeatTimes, o.srcStride,
                         o.dstGap, o.ifTranspose, o.sid, o.addrMode);
}
inline auto key(const isa::MmadCommon& o) {
  return std::make_tuple(key(o.dst), key(o.fm), key(o.filter), o.m, o.n, o.k, o.cmatrixInitVal,
                         o.cmatrixSource, o.isBias, o.unitFlag, o.biasAddr);
}
inline auto key(const isa::Mmad& o) {
  return std::tuple_cat(key(static_cast<const isa::MmadCommon&>(o)),
                        std::make_tuple(o.dtype, o.kDirectionAlign));
}
inline auto key(const isa::Fixpipe& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.dtype, o.nSize, o.mSize, o.srcStride, o.dstStride,
                         o.quantPre, o.deqScalar, o.ndNum, o.srcNdStride, o.dstNdStride, o.reluEn,
                         o.unitFlag);
}
inline auto key(const isa::SetFlag& o) {
  return std::make_tuple(o.event.src, o.event.dst, o.id);
}
inline auto key(const isa::WaitFlag& o) {
  return std::make_tuple(o.event.src, o.event.dst, o.id);
}
inline auto key(const isa::PipeBarrier& o) {
  return std::make_tuple(o.pipe, o.all);
}
inline auto key(const isa::SyncAll&) {
  return std::make_tuple();
}
inline auto key(const isa::SetAtomicAdd& o) {
  return std::make_tuple(o.dtype);
}
inline auto key(const isa::SetAtomicNone&) {
  return std::make_tuple();
}

inline auto key(const isa::LoadData3DV2& o) {
  return std::tuple_cat(
      std::make_tuple(key(o.dst), key(o.src), o.dtype, o.padLeft, o.padRight, o.padTop, o.padBottom, o.l1H,
                      o.l1W, o.channelSize, o.kExtension, o.mExtension, o.kStartPt, o.mStartPt),
      std::make_tuple(o.strideW, o.strideH, o.filterW, o.filterH, o.dilationFilterW, o.dilationFilterH,
                      o.enTranspose, o.enSmallK, o.padValue, o.filterSizeW, o.filterSizeH, o.fMatrixCtrl));
}

inline auto key(const isa::LoadDataWithTranspose& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.dtype, o.startIndex, o.repeatTimes, o.srcStride, o.dstGap,
                         o.dstFracGap, o.addrMode);
}

inline auto key(const isa::DataCopyL1ToBT& o) {
  return std::make_tuple(key(o.dst), key(o.src), o.blockCount, o.blockLen, o.srcGap, o.dstGap, o.convControl);
}

inline bool same_impl(const isa::Op& x, const isa::Op& y) {
  if (x.index() != y.index()) return false;
  return std::visit([&](const auto& a) { return key(a) == key(std::get<std::decay_t<decltype(a)>>(y)); }, x);
}

}  // namespace key_detail

inline bool same(const aicore::isa::Op& x, const aicore::isa::Op& y) {
  return key_detail::same_impl(x, y);
}

}  // namespace gentest
