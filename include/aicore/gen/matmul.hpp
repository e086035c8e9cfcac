// The best-practice fp16/bf16 matmul kernel of one Cube core: C (M x N, fp32) = A (M x K) x B,
// computed in base blocks of base_m x base_n x base_k, the structure of the Ascend C matmul
// examples that aicore-sim's calibration kernels were measured with (calibration/kernels-a2.csv).
//
// GM tensors, in declaration order:
//   a  A, M x K, row-major (ND)
//   b  B, K x N row-major (ND), or B transposed: N x K row-major ("nt", ND-transposed)
//   c  C, M x N row-major in the output type: half/bf16 (Fixpipe converts the fp32 L0C cells,
//      quantPre F322F16/F322BF16, as the best-practice kernel does) or float (the cells as they are)
// Per output block (m-blocks outer, n-blocks inner) and K step of base_k:
//   MTE2  DataCopyNd2Nz of the A tile and of the B tile into an L1 slot (ND -> NZ)
//   MTE1  LoadData of A into an L0A slot (NZ -> Zz; with load3d_a one LoadData3DV2) and of B into an
//         L0B slot (nt: as it is, one LoadData; nd: each 16 x 16 fractal transposed)
//   M     one Mmad accumulating in L0C over the K steps (cmatrixInitVal on the first)
// and per block one Fixpipe L0C -> GM. L1 and L0A/L0B are double-buffered (or single, on request);
// L0C is double-buffered when two blocks fit in it. With unit_flag (the Matmul NORM template's
// default) the Cube hands L0C to Fixpipe by unitFlag (2 on the accumulating K steps, 3 on the
// last; Fixpipe 3) instead of M_FIX / FIX_M flags.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/gen/gemm.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::gen {

enum class BLayout : uint8_t { ND, NT };  // B as K x N, or as N x K (B transposed), row-major

struct MatmulShape {
  uint32_t M = 0, K = 0, N = 0;
  isa::DType dtype = isa::DType::Half;  // Half or BF16
  BLayout b_layout = BLayout::NT;
  isa::DType c_dtype = isa::DType::Half;  // C in GM: Half, BF16 or Float
};

struct MatmulOptions {
  uint32_t base_m = 128, base_n = 256, base_k = 64;
  uint32_t l1_buffers = 2, l0_buffers = 2;  // 1 or 2 slots each
  uint64_t blocks = 0;                      // emit only the first `blocks` output blocks (0 = all)
  bool unit_flag = true;                    // L0C to Fixpipe by unitFlag, not M_FIX / FIX_M flags
  // A L1 -> L0A by one LoadData3DV2 (Load3Dv2, the A tile read as a 1-row feature map) per K step,
  // as the Matmul NORM template does, instead of one LoadData 2D per fractal row or column.
  bool load3d_a = false;
};

struct MatmulPlan {
  MatmulShape shape;
  MatmulOptions opt;
  uint32_t m_blocks = 0, n_blocks = 0, k_steps = 0;
  uint32_t l0c_buffers = 1;        // 2 when two C blocks fit in L0C
  uint64_t l1_slot = 0, l1_b = 0;  // L1 slot stride; B tile offset in a slot
  uint64_t l0a_slot = 0, l0b_slot = 0, l0c_slot = 0;
  // The part of C this core computes: rows [m_begin, m_end), columns [n_begin, n_end) (all of C
  // on one core). GM offsets and strides stay those of the whole matrices.
  uint32_t m_begin = 0, m_end = 0, n_begin = 0, n_end = 0;
  uint32_t core = 0, cores = 1;

  uint64_t blocks() const { return uint64_t{m_blocks} * n_blocks; }
  uint64_t emitted_blocks() const { return opt.blocks && opt.blocks < blocks() ? opt.blocks : blocks(); }
  std::string describe() const;  // one line for logs and trace headers
};

// Validates the shape and options (multiples of 16, field ranges, buffer capacities). Throws
// aicore::InputError at "gen" naming the offending option and the limit.
MatmulPlan make_matmul_plan(const MatmulShape& shape, const MatmulOptions& opt);

// Core `core`'s share when `whole`'s C is split into split_m x split_n single-core parts (core c
// takes part (c / split_n, c % split_n), as the best-practice kernel's block index does): parts of
// ceil(M / split_m) rows and ceil(N / split_n) columns, rounded up to 16 (the ND2NZ copies and the
// Cube work in 16-row fractals), the last row and column of parts taking what is left. Throws
// InputError when a part would be empty (too many parts for the matrix).
MatmulPlan core_plan(const MatmulPlan& whole, uint32_t split_m, uint32_t split_n, uint32_t core);

uint64_t matmul_bytes_a(const MatmulPlan& p);
uint64_t matmul_bytes_b(const MatmulPlan& p);
uint64_t matmul_bytes_c(const MatmulPlan& p);

// The program in issue order. Flag protocol (ids = slot numbers):
//   MTE2_MTE1 s  L1 slot s filled           MTE1_MTE2 s  L1 slot s free (set after its loads)
//   MTE1_M    s  L0A/L0B slot s filled      M_MTE1    s  L0A/L0B slot s free (set after the Mmad)
//   M_FIX     q  L0C slot q final           FIX_M     q  L0C slot q free (set after the Fixpipe)
// The "free" flags are pre-set once at the start and waited once at the end, so every SetFlag
// meets exactly one WaitFlag. With unit_flag there are no M_FIX / FIX_M flags at all.
std::vector<Emitted> emit_matmul(const MatmulPlan& p);

// The v1 trace text: `header` lines as comments, the GM declarations (with data: a.bin, b.bin
// and, `exact`, an .expect of c_golden.bin, else an .out of c.bin), then the program.
// `names` are the GM tensors' names (A, B, C).
std::string render_matmul_trace(const MatmulPlan& p, const std::vector<Emitted>& program,
                                const std::vector<std::string>& header, bool data, bool exact,
                                const std::vector<std::string>& names = {"a", "b", "c"});

// Data of a case: A and B as raw 16-bit elements (half or bf16 bits) in the GM layouts above.
struct MatmulData {
  std::vector<uint16_t> a, b;
  std::vector<float> golden;  // M x N row-major, from a plain double-precision loop, in fp32
};
// The golden as C's bytes in GM: fp32, or each value rounded to nearest even to half/bf16 (the
// matmul's sums are far inside both ranges).
std::vector<uint8_t> matmul_golden_bytes(const MatmulPlan& p, const MatmulData& d);

// `exact`: every element is a multiple of 1/8 in [-1, 1], so every fp32 sum of products is exact
// in any order and the golden is bit-exact; otherwise uniform values in [-1, 1) rounded to the type.
MatmulData matmul_data(const MatmulPlan& p, uint64_t seed, bool exact);

// The tolerance a non-exact case is checked to, per element: |got - golden| <= 1e-5 * sum |a*b| + 1e-6
// (docs/decisions.md, half/bf16 Mmad). Returns the bound for every element of C.
std::vector<float> matmul_tolerance(const MatmulPlan& p, const MatmulData& d);

// Element conversions (round to nearest even), kept here so that the golden shares nothing with
// the semantics layer.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t h);

}  // namespace aicore::gen
