// The Ascend C intrinsics fill an instruction's numbers from their parameter struct by its
// descriptor (isa::fill_from_params): every field the descriptor takes from the struct arrives
// with the value the kernel gave, and no such field is left at its default.
#include <catch2/catch.hpp>

#include "aicore/isa/descriptors.hpp"
#include "ascendc/detail/params.hpp"

using namespace aicore;

namespace {

// The in_params fields of `op` still at their defaults, by name.
template <class T>
std::string left_at_default(const T& op) {
  std::string out;
  isa::for_each_value(op, [&](const isa::FieldFacts& f, const auto& v) {
    using V = std::decay_t<decltype(v)>;
    if constexpr (isa::ValueTraits<V>::scalar)
      if (f.in_params && static_cast<uint64_t>(v) == f.default_value)
        out += std::string(out.empty() ? "" : ", ") + f.name;
  });
  return out;
}

}  // namespace

TEST_CASE("DataCopy and DataCopyNd2Nz take every number from their parameter structs", "[units][params]") {
  isa::DataCopy c;
  isa::fill_from_params(c, AscendC::DataCopyParams(3, 4, 5, 6));
  CHECK((c.blockCount == 3 && c.blockLen == 4 && c.srcGap == 5 && c.dstGap == 6));
  CHECK(left_at_default(c) == "");

  isa::DataCopyNd2Nz n;
  isa::fill_from_params(n, AscendC::Nd2NzParams(2, 3, 4, 5, 6, 7, 8, 9));
  CHECK((n.ndNum == 2 && n.nValue == 3 && n.dValue == 4 && n.srcNdMatrixStride == 5 && n.srcDValue == 6 &&
         n.dstNzC0Stride == 7 && n.dstNzNStride == 8 && n.dstNzMatrixStride == 9));
  CHECK(left_at_default(n) == "");
}

TEST_CASE("LoadData and LoadDataWithSparse take every number from LoadData2DParams", "[units][params]") {
  // (startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode)
  const AscendC::LoadData2DParams p(2, 3, 4, 5, 6, true, 7);
  isa::LoadData l;
  isa::fill_from_params(l, p);
  CHECK((l.startIndex == 2 && l.repeatTimes == 3 && l.srcStride == 4 && l.sid == 5 && l.dstGap == 6 &&
         l.ifTranspose && l.addrMode == 7));
  CHECK(left_at_default(l) == "");
  // The members LoadDataWithSparse ignores are copied too, so that check_fields rejects them.
  isa::LoadDataWithSparse s;
  isa::fill_from_params(s, p);
  CHECK((s.startIndex == 2 && s.repeatTimes == 3 && s.srcStride == 4 && s.sid == 5 && s.dstGap == 6 &&
         s.ifTranspose && s.addrMode == 7));
  CHECK(left_at_default(s) == "");
}

TEST_CASE("LoadDataWithTranspose takes every number from LoadData2dTransposeParams", "[units][params]") {
  // (startIndex, repeatTimes, srcStride, dstGap, dstFracGap, addrMode)
  const AscendC::LoadData2dTransposeParams p(2, 3, 4, 5, 6, 7);
  isa::LoadDataWithTranspose l;
  isa::fill_from_params(l, p);
  CHECK((l.startIndex == 2 && l.repeatTimes == 3 && l.srcStride == 4 && l.dstGap == 5 && l.dstFracGap == 6 &&
         l.addrMode == 7));
  CHECK(left_at_default(l) == "");
  const AscendC::LoadData2dTransposeParams d(1, 2, 3, 4, 5);  // addrMode defaults to 0
  CHECK((d.dstFracGap == 5 && d.addrMode == 0));
}

TEST_CASE("LoadData3DV2 takes every number from LoadData3DParamsV2", "[units][params]") {
  const uint8_t pads[AscendC::PAD_SIZE] = {1, 2, 3, 4};
  // (padList, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW, strideH,
  //  filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue,
  //  filterSizeW, filterSizeH, fMatrixCtrl)
  const AscendC::LoadData3DParamsV2<int8_t> p(pads, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, true, true,
                                              18, true, true, true);
  isa::LoadData3DV2 l;
  isa::fill_from_params(l, p);
  CHECK((l.l1H == 5 && l.l1W == 6 && l.channelSize == 7 && l.kExtension == 8 && l.mExtension == 9 &&
         l.kStartPt == 10 && l.mStartPt == 11 && l.strideW == 12 && l.strideH == 13 && l.filterW == 14 &&
         l.filterH == 15 && l.dilationFilterW == 16 && l.dilationFilterH == 17 && l.enTranspose &&
         l.enSmallK && l.filterSizeW && l.filterSizeH && l.fMatrixCtrl));
  CHECK(left_at_default(l) == "");
  // padList and padValue are the intrinsic's (not in_params): the constructor keeps them.
  CHECK((p.padList[0] == 1 && p.padList[3] == 4 && p.padValue == 18));
  const AscendC::LoadData3DParamsV2<int8_t> d;  // the documented defaults
  CHECK((d.l1H == 0 && d.strideW == 1 && d.filterH == 1 && d.dilationFilterW == 1 && !d.enTranspose &&
         d.padList[2] == 0));
}

TEST_CASE("Mmad, MmadWithSparse and Fixpipe take every number from their parameter structs",
          "[units][params]") {
  AscendC::MmadParams p;
  p.m = 16;
  p.n = 32;
  p.k = 64;
  p.isBias = true;
  p.unitFlag = 2;
  p.cmatrixSource = true;
  p.cmatrixInitVal = false;
  p.kDirectionAlign = true;
  isa::Mmad m;
  isa::fill_from_params(m, p);
  CHECK((m.m == 16 && m.n == 32 && m.k == 64 && m.isBias && m.unitFlag == 2 && m.cmatrixSource &&
         !m.cmatrixInitVal && m.kDirectionAlign));
  CHECK(m.dtype == isa::DType::Int8);  // from the tensors' types, not the struct
  CHECK(left_at_default(m) == "");
  isa::MmadWithSparse s;
  isa::fill_from_params(s, p);
  CHECK((s.m == 16 && s.n == 32 && s.k == 64 && s.unitFlag == 2));
  CHECK(left_at_default(s) == "");

  // (nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum, srcNdStride, dstNdStride,
  // unitFlag)
  // (quantPre is an enumeration the intrinsic maps itself: not copied here.)
  const AscendC::FixpipeParamsV220 f(32, 16, 48, 64, true, QuantMode_t::NoQuant, 5, 2, 3, 4, 3);
  isa::Fixpipe x;
  isa::fill_from_params(x, f);
  CHECK((x.nSize == 32 && x.mSize == 16 && x.srcStride == 48 && x.dstStride == 64 && x.reluEn &&
         x.ndNum == 2 && x.srcNdStride == 3 && x.dstNdStride == 4 && x.deqScalar == 5 && x.unitFlag == 3));
  CHECK(left_at_default(x) == "");
}
