#include "aicore/semantics/sparsity.hpp"

#include <stdexcept>
#include <string>

namespace aicore::sem {

SparseGroup densify_group(const int8_t e[4]) {
  SparseGroup g;
  int pos[4];
  int nz = 0;
  for (int i = 0; i < 4; ++i)
    if (e[i] != 0) pos[nz++] = i;
  g.nonzeros = static_cast<uint8_t>(nz);
  if (nz == 0) return g;  // (0, 0), indexes (0, 0)
  if (nz == 1) {
    if (pos[0] == 3) {
      // A lone value in slot 3 cannot be reached by index0 (0..2): it rides in dense slot 1
      // with index1 = 2, and slot 0 carries a zero paired with A element 0.
      g.v0 = 0;
      g.v1 = e[3];
      g.index0 = 0;
      g.index1 = 2;
    } else {
      g.v0 = e[pos[0]];
      g.index0 = static_cast<uint8_t>(pos[0]);
    }
    return g;
  }
  // Two or more: keep the first two (lowest k); the rest are dropped and counted by the caller.
  g.v0 = e[pos[0]];
  g.v1 = e[pos[1]];
  g.index0 = static_cast<uint8_t>(pos[0]);
  g.index1 = static_cast<uint8_t>(pos[1] - 1);
  return g;
}

DensifiedB densify_4to2(const int8_t* b, uint32_t K, uint32_t N) {
  if (K % 4 != 0)
    throw std::invalid_argument("4:2 densify needs K a multiple of 4 (got " + std::to_string(K) + ")");
  DensifiedB r;
  r.K = K;
  r.N = N;
  const uint64_t kd = K / 2;
  const uint64_t k1 = (kd + 31) / 32, n1 = (N + 15) / 16;
  r.dense_zn.assign(k1 * n1 * 512, 0);
  r.index.assign(k1 * n1 * 128, 0);
  r.kept.assign(uint64_t{K} * N, 0);
  for (uint32_t n = 0; n < N; ++n) {
    for (uint32_t g = 0; g < K / 4; ++g) {
      int8_t e[4];
      for (int i = 0; i < 4; ++i) e[i] = b[(uint64_t{g} * 4 + i) * N + n];
      const SparseGroup sg = densify_group(e);
      ++r.groups;
      if (sg.nonzeros > 2) {
        ++r.lossy_groups;
        r.dropped_values += sg.nonzeros - 2u;
      }
      const uint8_t idx[2] = {sg.index0, sg.index1};
      const int8_t val[2] = {sg.v0, sg.v1};
      const uint8_t sel[2] = {sparse_sel0(sg.index0), sparse_sel1(sg.index0, sg.index1)};
      for (int s = 0; s < 2; ++s) {
        const uint64_t kp = uint64_t{g} * 2 + s;
        const uint64_t frac = ((kp / 32) * n1 + n / 16);
        r.dense_zn[frac * 512 + (n % 16) * 32 + kp % 32] = val[s];
        r.index[index_byte_offset(kp, n, N)] |= static_cast<uint8_t>(idx[s] << index_bit_shift(kp));
        // What the hardware will effectively multiply: value at original row 4g + sel.
        if (val[s] != 0) r.kept[(uint64_t{g} * 4 + sel[s]) * N + n] = val[s];
      }
    }
  }
  return r;
}

}  // namespace aicore::sem
