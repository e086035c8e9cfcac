// The best-practice fp16/bf16 matmul kernel of one Cube core: C (M x N, fp32) = A (M x K) x B,
// computed in base blocks of base_m x base_n x base_k, the structure of the Ascend C matmul
// examples that aicore-sim's calibration kernels were measured with (calibration/kernels-a2.csv).
//
// GM tensors, in declaration order:
//   a  A, M x K, row-major (ND)
//   b  B, K x N row-major (ND), or B transposed: N x K row-major ("nt", ND-transposed)
//   bias  (opt.bias only, declared after c) N elements of bias_dtype, one per column of C
//   c  C, M x N row-major in the output type: half/bf16 (Fixpipe converts the fp32 L0C cells,
//      quantPre F322F16/F322BF16, as the best-practice kernel does) or float (the cells as they are)
// Per output block (m-blocks outer, n-blocks inner; order_m: the other way) and K step of base_k:
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
// The Matmul API template the kernel follows. NORM and MDL emit the same kind of program; MDL
// only changes defaults (unitFlag off, as GetMDLConfig's enUnitFlag; the big packets come from
// step_ka / step_kb, which NORM takes too).
enum class MatmulTemplate : uint8_t { Norm, Mdl };

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
  MatmulTemplate tmpl = MatmulTemplate::Norm;
  // Big packets (the Matmul API's TCubeTiling names): one GM -> L1 copy carries step_ka base-K
  // blocks of A (step_kb of B); depth_a1 / depth_b1 base blocks of A / B stay in L1, so L1 holds
  // depth / step packets of each in a ring (0: l1_buffers x step, the ping-pong of one packet).
  uint32_t step_ka = 1, step_kb = 1, depth_a1 = 0, depth_b1 = 0;
  // L2 splitting: C's rows are cut into l2_rounds rounds, each split over the cores like the whole,
  // so that what the cores read in one round fits L2 (best-practice Case 6). 1 = no rounds.
  uint32_t l2_rounds = 1;
  // A L1 -> L0A by one LoadData3DV2 (Load3Dv2, the A tile read as a 1-row feature map) per K step,
  // as the Matmul NORM template does, instead of one LoadData 2D per fractal row or column.
  bool load3d_a = false;
  // C's base blocks walked along M first (the Matmul API's iterateOrder ORDER_M: n-blocks outer,
  // m-blocks inner) instead of along N (ORDER_N, the default: m-blocks outer, n-blocks inner).
  bool order_m = false;
  // A bias (the Matmul API's SetBias): C = bias[n] + A x B, bias a GM tensor of N elements of
  // bias_dtype (Float, or Half converted to float on the way into the bias table). Each block's
  // first K step copies its bias GM -> the L1 region at l1_bias (MTE2 DataCopy) -> the bias table
  // at 0 (MTE1 DataCopyL1ToBT), and its Mmad starts from the table (cmatrixSource=1).
  bool bias = false;
  isa::DType bias_dtype = isa::DType::Float;
};

struct MatmulPlan {
  MatmulShape shape;
  MatmulOptions opt;
  uint32_t m_blocks = 0, n_blocks = 0, k_steps = 0;
  uint32_t l0c_buffers = 1;  // 2 when two C blocks fit in L0C
  // L1 rings: packets_a slots of A packets and packets_b of B. When the two rings turn together
  // (same step and slot count) A and B share a slot and its flags: slot s at s * l1_slot, B at
  // l1_b in it (the NORM kernel). Otherwise A slot s is at s * l1_slot with flag id s, B slot s at
  // l1_b + s * l1_b_slot with flag id packets_a + s.
  uint32_t packets_a = 2, packets_b = 2;
  bool shared_ring = true;
  uint64_t l1_slot = 0, l1_b = 0, l1_b_slot = 0;
  uint64_t l0a_slot = 0, l0b_slot = 0, l0c_slot = 0;
  // With opt.bias: the L1 region of one block's bias (kBiasL1Bytes at the end of L1, outside the
  // rings) and its bytes per element.
  uint64_t l1_bias = 0;
  // The part of C this core computes: rows [m_begin, m_end), columns [n_begin, n_end) (all of C
  // on one core). GM offsets and strides stay those of the whole matrices.
  uint32_t m_begin = 0, m_end = 0, n_begin = 0, n_end = 0;
  uint32_t core = 0, cores = 1;
  uint32_t round = 0;  // its L2 round (core_rounds)

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
// One core's part of `whole`'s C given by its place: rows [m_begin, m_begin + rows), columns
// [n_begin, n_begin + cols) (the Matmul API's SetTail part, at row and column 0 of the tensors it
// was given). GM offsets and strides stay those of the whole matrices, as in core_plan. rows and
// cols need not be multiples of 16 (without a bias): the last base block's tiles are copied with
// their 16-row fractal columns padded, and the Cube and Fixpipe use the part's rows and columns
// only. Throws InputError when the part is empty, starts off the 16 grid or is outside C.
MatmulPlan window_plan(const MatmulPlan& whole, uint32_t m_begin, uint32_t rows, uint32_t n_begin,
                       uint32_t cols);
// With opt.l2_rounds R: C's rows cut into R rounds (ceil(M / R) rounded up to 16 rows, the last
// shorter), each round's rows split like core_plan splits the whole; core `core`'s part of every
// round, in round order. R = 1: {core_plan(...)} (or the whole on one core).
std::vector<MatmulPlan> core_rounds(const MatmulPlan& whole, uint32_t split_m, uint32_t split_n,
                                    uint32_t core);

uint64_t matmul_bytes_a(const MatmulPlan& p);
uint64_t matmul_bytes_b(const MatmulPlan& p);
uint64_t matmul_bytes_c(const MatmulPlan& p);
uint64_t matmul_bytes_bias(const MatmulPlan& p);  // 0 without a bias

// The program in issue order. Flag protocol (ids = slot numbers):
//   MTE2_MTE1 s  L1 slot s filled           MTE1_MTE2 s  L1 slot s free (set after its loads)
//   MTE1_M    s  L0A/L0B slot s filled      M_MTE1    s  L0A/L0B slot s free (set after the Mmad)
//   M_FIX     q  L0C slot q final           FIX_M     q  L0C slot q free (set after the Fixpipe)
// The "free" flags are pre-set once at the start and waited once at the end, so every SetFlag
// meets exactly one WaitFlag. With unit_flag there are no M_FIX / FIX_M flags at all.
// With separate A and B rings, each has its own MTE2_MTE1 / MTE1_MTE2 ids (above); a packet's
// MTE2_MTE1 is waited before its first base block is loaded and its MTE1_MTE2 set after its last.
std::vector<Emitted> emit_matmul(const MatmulPlan& p);
// The rounds of one core (core_rounds) as one program: flags pre-set and drained once, slots and
// the --blocks limit running on across the rounds.
std::vector<Emitted> emit_matmul(const std::vector<MatmulPlan>& rounds);

// The v1 trace text: `header` lines as comments, the GM declarations (with data: a.bin, b.bin
// and, `exact`, an .expect of c_golden.bin, else an .out of c.bin), then the program.
// `names` are the GM tensors' names (A, B, C).
std::string render_matmul_trace(const MatmulPlan& p, const std::vector<Emitted>& program,
                                const std::vector<std::string>& header, bool data, bool exact,
                                const std::vector<std::string>& names = {"a", "b", "c", "bias"});

// Data of a case: A and B as raw 16-bit elements (half or bf16 bits) in the GM layouts above.
struct MatmulData {
  std::vector<uint16_t> a, b;
  std::vector<uint8_t> bias;  // with opt.bias: N elements of bias_dtype (else empty)
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
