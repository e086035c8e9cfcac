// Tiling plan and instruction stream of a generated int8 GEMM C = A x B (dense or 4:2 sparse B).
//
// GM tensors, in declaration order (ids used by the emitted ops):
//   a   A, M x K int8, row-major (the trace moves it with DataCopyNd2Nz: no offline re-layout)
//   b   dense B' (K/2 x N, sparse) or B (K x N, dense), whole-matrix Zn fractals, zero padded
//   idx (sparse only) packed 2-bit indexes, same fractal order as b, 128 B per fractal
//   c   C, M x ceil16(N) int32 row-major (Fixpipe writes whole 16-column blocks; pad columns are 0)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::gen {

// Buffer sizes of one Cube core (docs/semantics.md §1).
constexpr uint64_t kL1Bytes = 512 * 1024, kL0ABytes = 64 * 1024, kL0BBytes = 64 * 1024,
                   kL0CBytes = 128 * 1024;
constexpr uint64_t kIndexBufferBytes = 16 * 1024;
constexpr uint64_t kBiasTableBytes = 1024;  // buffers.bias_table_bytes: baseN float cells at most

struct GemmShape {
  uint32_t M = 0, K = 0, N = 0;
  bool sparse = true;
};

// Requested tile sizes; 0 = let the planner choose. Any non-zero entry forces the tiled form.
// l1_full: copy all of A and B (and the indexes) into L1 once, as the Ascend Matmul "full load"
// tilings do when they fit, and feed every tile's L0A/L0B from there: each GM byte is read once,
// in three copies at most, instead of once per tile.
struct TileRequest {
  uint32_t m = 0, n = 0, k = 0;
  bool l1_full = false;
};

struct Plan {
  GemmShape shape;
  uint32_t tm = 0, tn = 0, tk = 0;  // tile sizes (edge tiles are smaller)
  uint32_t m_tiles = 0, n_tiles = 0, k_chunks = 0;
  bool double_buffered = false;             // > 1 k-step: L1 and L0A/L0B split into ping/pong halves
  bool l0c_double = false;                  // > 1 output tile: L0C split into ping/pong halves
  bool l1_full = false;                     // A, B (and idx) whole in L1 at l1_a/l1_b/l1_idx, copied once
  uint64_t l1_a = 0, l1_b = 0, l1_idx = 0;  // area offsets inside one L1 slot
  uint64_t l1_slot = 0, l0a_slot = 0, l0b_slot = 0, l0c_slot = 0;  // distance between ping and pong

  uint64_t steps() const { return uint64_t{m_tiles} * n_tiles * k_chunks; }
  uint32_t n16() const { return (shape.N + 15) / 16 * 16; }
  std::string describe() const;  // one line for logs and trace headers
};

// Chooses (or validates) tiles. Single tile when the whole problem fits L0A/L0B/L0C/L1 and the
// instruction fields; otherwise 128 x 128 x 256 tiles clipped to the problem. Throws
// aicore::InputError naming the offending option or limit.
Plan make_plan(const GemmShape& shape, const TileRequest& tiles = {});

uint32_t gm_index_c(const Plan& p);  // 3 when sparse (a, b, idx, c), else 2
std::vector<std::string> gm_names(const Plan& p);
uint64_t gm_bytes_a(const Plan& p);
uint64_t gm_bytes_b(const Plan& p);
uint64_t gm_bytes_idx(const Plan& p);
uint64_t gm_bytes_c(const Plan& p);

// An instruction, with an optional comment the trace writer prints on the line before it.
struct Emitted {
  isa::Op op;
  std::string comment;
};

// The whole program in issue order. Flag protocol (ids = ping/pong slot):
//   MTE2_MTE1 s  L1 slot s filled          MTE1_MTE2 s  L1 slot s free (set after its loads)
//   MTE1_M    s  L0A/L0B slot s filled     M_MTE1    s  L0A/L0B slot s free (set after Mmad)
//   M_FIX     q  L0C slot q final          FIX_M     q  L0C slot q free (set after Fixpipe)
// The "free" flags are pre-set once at the start and waited once at the end, so every
// SetFlag meets exactly one WaitFlag and no flag is set twice. They are omitted when the
// resource is used only once (single tile: forward flags only; L1 with l1_full: one MTE2_MTE1
// flag once every copy is done). A k-chunk accumulating into a
// tile of (m/16)*(n/16) <= 10 fractals is preceded by PipeBarrier<PIPE_M>: the Cube orders
// accumulation into the same L0C cells by itself only for larger tiles.
std::vector<Emitted> emit_program(const Plan& p);

}  // namespace aicore::gen
