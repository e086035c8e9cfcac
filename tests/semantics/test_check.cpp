// Data-free validation (isa::check): operand spaces, sync fields and footprints.
#include <catch2/catch.hpp>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"

using namespace aicore;
using namespace aicore::isa;

namespace {
FaultKind kind_of(const Op& op) {
  try {
    check_fields(op);
  } catch (const Fault& f) {
    return f.kind();
  }
  FAIL("no fault");
  return FaultKind::Deadlock;
}
}  // namespace

TEST_CASE("sync fields: illegal pairs and ids", "[check][sync]") {
  CHECK_NOTHROW(check_fields(SetFlag{{Pipe::MTE2, Pipe::MTE1}, 7}));
  CHECK(kind_of(SetFlag{{Pipe::M, Pipe::MTE3}, 0}) == FaultKind::IllegalEvent);
  CHECK_NOTHROW(check_fields(SetFlag{{Pipe::MTE2, Pipe::FIX}, 0}));  // Huawei's 2201 samples use these two
  CHECK_NOTHROW(check_fields(WaitFlag{{Pipe::FIX, Pipe::MTE2}, 0}));
  CHECK(kind_of(WaitFlag{{Pipe::M, Pipe::M}, 0}) == FaultKind::IllegalEvent);
  CHECK(kind_of(WaitFlag{{Pipe::M, Pipe::FIX}, 8}) == FaultKind::InvalidField);
  CHECK_THROWS_WITH(check_fields(SetFlag{{Pipe::MTE1, Pipe::S}, 0}),
                    "event MTE1_S is not a legal pair on the Cube core");
}

TEST_CASE("operands must be in the instruction's spaces", "[check][space]") {
  LoadData ld;
  ld.dst = {Space::L0C, 0, 0};
  ld.src = {Space::L1, 0, 0};
  ld.repeatTimes = 1;
  CHECK_THROWS_WITH(check_fields(ld), "dst must be in L0A or L0B, not L0C");
  LoadDataWithSparse lds;
  lds.dst = {Space::L0B, 0, 0};
  lds.src = {Space::L1, 0, 0};
  lds.idx = {Space::L1, 0, 16};
  CHECK(kind_of(lds) == FaultKind::Misaligned);
  lds.idx.offset = 32;
  lds.dstGap = 1;
  CHECK(kind_of(lds) == FaultKind::InvalidField);
}

TEST_CASE("footprints and bytes moved", "[check][footprint]") {
  Mmad mm;
  mm.dst = {Space::L0C, 0, 0};
  mm.fm = {Space::L0A, 0, 0};
  mm.filter = {Space::L0B, 0, 0};
  mm.m = 17;
  mm.n = 33;
  mm.k = 40;
  mm.cmatrixInitVal = false;
  const Footprint fp = footprint(mm);
  REQUIRE(fp.count == 4);                      // fm, filter, C read (accumulate), C write
  CHECK(fp.extents[0].size() == 2 * 2 * 512);  // M1=2 x K1=2
  CHECK(fp.extents[1].size() == 2 * 3 * 512);  // K1=2 x N1=3
  CHECK(fp.extents[3].size() == 2 * 3 * 1024);
  CHECK(bytes_moved(mm) == 0);

  MmadWithSparse sp;
  sp.dst = {Space::L0C, 0, 0};
  sp.fm = {Space::L0A, 0, 0};
  sp.filter = {Space::L0B, 0, 2048};
  sp.m = 16;
  sp.n = 16;
  sp.k = 128;
  const Footprint sfp = footprint(sp);
  REQUIRE(sfp.count == 4);
  CHECK(sfp.extents[1].size() == 2 * 512);
  CHECK(sfp.extents[2].space == Space::SparseIndex);
  CHECK(sfp.extents[2].begin == 512);
  CHECK(sfp.extents[2].size() == 2 * 128);

  DataCopy dc;
  dc.blockCount = 3;
  dc.blockLen = 2;
  dc.srcGap = 5;
  CHECK(bytes_moved(dc) == 3 * 64);
  CHECK(footprint(dc).extents[0].size() == (2 * 7 + 2) * 32);

  Fixpipe fx;
  fx.nSize = 32;
  fx.mSize = 3;
  fx.srcStride = 16;
  fx.dstStride = 32;
  CHECK(bytes_moved(fx) == 3 * 32 * 4);
}

TEST_CASE("check rejects offsets far beyond any buffer without overflowing", "[check][bounds]") {
  DataCopy dc;
  dc.dst = {Space::L1, 0, 0};
  dc.src = {Space::GM, 0, ~uint64_t{0} - 31};
  dc.blockLen = 1;
  Limits lim;
  lim.space_bytes[static_cast<size_t>(Space::L1)] = 1024;
  lim.gm_tensor_bytes = {64};
  CHECK_THROWS_WITH(check(dc, lim), Catch::Contains("beyond any buffer"));
}
