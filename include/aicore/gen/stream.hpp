// The chip-level GM -> L1 streaming kernel (the memory rows of docs/validation.md): one fp16 ND
// matrix of rows x cols in GM, cut into tiles of tile_rows x tile_cols, every core copying its
// share of the tiles into L1 with DataCopyNd2Nz (ND -> NZ) and computing nothing.
//
// Tiles are numbered row-major over the tile grid and dealt to the cores in contiguous runs
// (core c takes tiles [c * T / cores, (c + 1) * T / cores)); this order is assumed (the measured
// example's README does not state it). The whole matrix is read `rounds` times. With `slices` > 1
// the columns are cut into that many slices of whole tiles and each slice is read `rounds` times
// before the next (L2 reuse: a slice that fits L2 is read from HBM once). A core copies into two
// L1 slots in turn, each handed to MTE1 and back by flags (MTE2_MTE1 then MTE1_MTE2, as a TQue's
// EnQue / DeQue / FreeTensor), which orders each copy after the last one into its slot.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/gen/gemm.hpp"

namespace aicore::gen {

struct StreamShape {
  uint32_t rows = 0, cols = 0;            // fp16 elements; cols need not be a multiple of 16
  uint32_t tile_rows = 0, tile_cols = 0;  // the last tile column takes what is left of cols
  uint32_t cores = 1, rounds = 1, slices = 1;
};

// Validates (tile in L1 twice, 16-bit DataCopyNd2Nz fields, slices of whole tile columns, at
// least one tile per core). Throws aicore::InputError at "gen" naming the option.
void check_stream(const StreamShape& s);

// Core `core`'s program (GM tensor 0 is the matrix).
std::vector<Emitted> emit_stream(const StreamShape& s, uint32_t core);

// The trace text of one core: `header` as comments, the matrix's GM declaration (no data: the
// kernel is for timing), the program.
std::string render_stream_trace(const StreamShape& s, uint32_t core, const std::vector<std::string>& header,
                                const std::string& name = "x");

uint64_t stream_bytes(const StreamShape& s);  // the matrix
std::string describe(const StreamShape& s);

}  // namespace aicore::gen
