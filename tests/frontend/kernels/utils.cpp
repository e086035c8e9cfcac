// The small utilities of the API (argv[1] picks the variant):
//   traits   IsSameType / Std::is_same and the block-size constants, checked at compile time and
//            printed from the kernel
//   printf   printf and PRINTF from each of 2 blocks: %d, %u, %x, %s, %f of a float and a half
//   assert   an assert that holds, then one with a message that fails in block 1 of 2 (an error at
//            its line, though this program is built with NDEBUG)
//   dump     DumpTensor of a GM int32 tensor, of an L1 half tensor (flat, by a 2 x 3 ShapeInfo, by a
//            ShapeInfo that does not match), DumpAccChkPoint from an offset
//   dump_l0a DumpTensor of an L0A tensor: an error at its line (the device dumps UB/L1/L0C/GM only)
//   dump_shape a ShapeInfo of 9 dimensions: an error at its line
#include <cstdint>
#include <cstdio>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
std::string g_variant;
struct A {};
struct B {};
using AAlias = A;
template <typename T>
struct Box {};
}  // namespace

static_assert(IsSameType<int32_t, int32_t>::value);
static_assert(!IsSameType<int32_t, uint32_t>::value);
static_assert(!IsSameType<half, bfloat16_t>::value);
static_assert(IsSameType<A, AAlias>::value && !IsSameType<A, B>::value);
static_assert(Std::is_same<Box<half>, Box<half>>::value && !Std::is_same<Box<half>, Box<float>>::value);
static_assert(!IsSameType<const int, int>::value && !IsSameType<int&, int>::value);
// Usable where the samples use them: as constant expressions of the element counts.
static_assert(ONE_BLK_SIZE / sizeof(half) == 16 && ONE_REPEAT_BYTE_SIZE / ONE_BLK_SIZE == 8);
static_assert(BLOCK_CUBE * BLOCK_CUBE == CUBE_MAX_SIZE);

template <typename T>
__aicore__ inline int32_t c0_of() {  // the cells of one 32-byte block, chosen by type
  if constexpr (IsSameType<T, int8_t>::value) return 32;
  if constexpr (IsSameType<T, half>::value) return 16;
  return 8;
}

extern "C" __global__ __aicore__ void utils(GM_ADDR a) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  (void)a;
  const int32_t blk = static_cast<int32_t>(GetBlockIdx());
  if (g_variant == "traits") {
    AscendC::printf("c0 %d %d %d, blk %u repeat %d cube %d max %d\n", c0_of<int8_t>(), c0_of<half>(),
                    c0_of<float>(), ONE_BLK_SIZE, ONE_REPEAT_BYTE_SIZE, BLOCK_CUBE, CUBE_MAX_SIZE);
  }
  if (g_variant == "printf") {
    const half h = 1.5f;
    AscendC::printf("int %d uint %u hex %x str %s\n", -7 * (blk + 1), 40u + blk, 255, "abc");
    AscendC::PRINTF("float %.2f half %.3f\n", 0.25f * blk, h);
    printf("plain\n");
  }
  if (g_variant == "assert") {
    assert(blk < 2);
    if (blk == 1) {
      assert(blk + 1 == 3, "block %d of %d", blk, 2);  // expect: assert
    }
    AscendC::printf("after the asserts\n");
  }
  if (g_variant == "dump") {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(a), 16);
    DumpTensor(g[2], 7, 4);  // elements 2..5 of GM: bytes 8.. of the buffer
    GlobalTensor<half> gh;
    gh.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a + 64), 16);
    LocalTensor<half> l1(TPosition::A1, 256, 16);
    DataCopy(l1, gh, 16);
    DumpTensor(l1, 1, 6);
    const uint32_t dims[2] = {2, 3};
    DumpTensor(l1, 2, 6, ShapeInfo(2, dims));
    DumpTensor(l1, 3, 4, ShapeInfo(2, dims));
    DumpAccChkPoint(l1, 4, 10, 2);
  }
  if (g_variant == "dump_l0a") {
    LocalTensor<half> l0a(TPosition::A2, 0, 16);
    DumpTensor(l0a, 1, 4);  // expect: dump_l0a
  }
  if (g_variant == "dump_shape") {
    const uint32_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    const ShapeInfo s(9, dims);  // expect: dump_shape
    (void)s;
  }
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "traits";
  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(128));
  for (int i = 0; i < 16; ++i) reinterpret_cast<int32_t*>(a)[i] = 10 * i - 30;
  for (int i = 0; i < 16; ++i) reinterpret_cast<half*>(a + 64)[i] = 0.5f * static_cast<float>(i) - 1.0f;
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(utils, g_variant == "traits" || g_variant.rfind("dump", 0) == 0 ? 1 : 2, a);
  std::printf("utils %s: done\n", g_variant.c_str());
  AscendC::GmFree(a);
  return 0;
}
