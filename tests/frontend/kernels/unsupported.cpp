// Calls of Ascend C APIs the front end does not support yet: each must fail to compile with a
// message naming the API (test_kernel_command.cpp compiles this file once and reads them all).
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

// Load3Dv2 leaving the FMATRIX and padding registers to SetFmatrix / SetLoadDataPaddingValue.
constexpr IsResetLoad3dConfig kKeepRegisters = {false, false};

extern "C" __global__ __aicore__ void unsupported(GM_ADDR a) {
  GlobalTensor<half> gh;
  GlobalTensor<float> gf;
  gh.SetGlobalBuffer((__gm__ half*)a);
  gf.SetGlobalBuffer((__gm__ float*)a);
  LocalTensor<half> l1(TPosition::A1, 0, 256), l0a(TPosition::A2, 0, 256);
  LocalTensor<float> f0a(TPosition::A2, 0, 256), c(TPosition::CO1, 0, 256);
  LoadData(l0a, gh, LoadData2DParams{});
  LoadData<half, kKeepRegisters>(l0a, l1, LoadData3DParamsV2<half>{});
  LoadData(l0a, l1, LoadData3DParamsV2Pro{});
  DataCopy(gh, l1, DataCopyParams{});
  Fixpipe<float, float, CFG_COLUMN_MAJOR>(gf, c, FixpipeParamsV220{});
  Fixpipe(gh, l0a, FixpipeParamsV220{});
  Mmad(c, f0a, l0a, MmadParams{});  // float x half: no such Cube type
  PipeBarrier<PIPE_V>();
  SetFlag<HardEvent::M_V>(0);
  TQue<TPosition::VECIN, 1> vecin;
  TQue<TPosition::A1, 0> inplace;
  TBuf<> ub;
  LocalMemAllocator<Hardware::UB> allocator;
  ICPU_SET_TILING_KEY(1);
  // int4b_t: two elements a byte, so no scalar access.
  LocalTensor<int4b_t> i4(TPosition::A1, 0, 256);
  GlobalTensor<int4b_t> gi4;
  (void)i4.GetValue(0);
  i4.SetValue(0, int4b_t(1));
  (void)gi4.GetValue(0);
  gi4.SetValue(0, int4b_t(1));
}

int main() {
  return 0;
}
