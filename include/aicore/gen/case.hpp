// A complete generated GEMM test case: data, GM images, golden result and program, plus
// rendering to a trace and writing to a folder.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/gen/gemm.hpp"
#include "aicore/gen/reference.hpp"

namespace aicore::gen {

struct GemmCase {
  Plan plan;
  std::vector<int8_t> a, b;              // originals, row-major: A is M x K, B is K x N
  std::vector<int8_t> b_effective;       // what the Cube multiplies (sparse: first two non-zeros per group)
  LossReport loss;                       // sparse only: groups whose extra non-zeros are dropped
  std::vector<std::vector<uint8_t>> gm;  // GM images in gm_names(plan) order (c is zero)
  std::vector<int32_t> golden;           // M x ceil16(N) int32 row-major, from reference_gemm
  std::vector<Emitted> program;
};

// a and b must have M*K and K*N elements (throws aicore::InputError otherwise).
GemmCase build_case(const Plan& plan, std::vector<int8_t> a, std::vector<int8_t> b);

// The v1 trace text. `header` lines are written as comments at the top.
std::string render_trace(const GemmCase& c, const std::vector<std::string>& header);

// Writes NAME.trace, a.bin, b.bin, [idx.bin], c_golden.bin and (when originals is true)
// a.npy plus b_sparse.npy (sparse) or b.npy (dense) into dir, creating it if needed.
// Returns the paths written. Throws aicore::InputError when a file cannot be written.
std::vector<std::string> write_case(const GemmCase& c, const std::string& dir, const std::string& name,
                                    const std::vector<std::string>& header, bool originals);

}  // namespace aicore::gen
