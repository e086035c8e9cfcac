#include "cube_case.hpp"

#include <cstring>
#include <random>
#include <stdexcept>

#include "aicore/semantics/execute.hpp"
#include "aicore/semantics/sparsity.hpp"

namespace bench {

using aicore::isa::Space;

namespace {

std::vector<int8_t> random_i8(size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

// Exactly two non-zeros in every group of 4 along K, positions random: a B that 4:2
// densification keeps whole, so the sparse instruction does its full useful work.
std::vector<int8_t> random_4to2(uint32_t K, uint32_t N, std::mt19937& rng) {
  static const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  std::uniform_int_distribution<int> pick(0, 5), val(1, 127), sign(0, 1);
  std::vector<int8_t> b(size_t{K} * N, 0);
  for (uint32_t g = 0; g < K / 4; ++g)
    for (uint32_t n = 0; n < N; ++n)
      for (int p : kPairs[pick(rng)])
        b[(size_t{g} * 4 + p) * N + n] = static_cast<int8_t>(sign(rng) ? val(rng) : -val(rng));
  return b;
}

// A (M x K row-major) -> Zz fractals of 16 x 32 int8 (docs/semantics.md §2), padding zero.
void pack_zz(const int8_t* a, uint32_t M, uint32_t K, uint8_t* out) {
  const uint32_t k1n = (K + 31) / 32;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k)
      out[((m / 16) * k1n + k / 32) * 512 + (m % 16) * 32 + k % 32] =
          static_cast<uint8_t>(a[size_t{m} * K + k]);
}

// B (K x N row-major) -> Zn fractals: fractal (k1, n1), 16 n-rows of 32 k each.
void pack_zn(const int8_t* b, uint32_t K, uint32_t N, uint8_t* out) {
  const uint32_t n1n = (N + 15) / 16;
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n)
      out[((k / 32) * n1n + n / 16) * 512 + (n % 16) * 32 + k % 32] =
          static_cast<uint8_t>(b[size_t{k} * N + n]);
}

CubeCase empty_core(uint32_t M, uint32_t K, uint32_t N) {
  if (M % 16 || N % 16 || K % 64) throw std::invalid_argument("bench shapes use whole fractals");
  CubeCase c;
  c.M = M;
  c.K = K;
  c.N = N;
  c.l0a.assign(64 * 1024, 0);
  c.l0b.assign(64 * 1024, 0);
  c.l0c.assign(128 * 1024, 0);
  c.idx.assign(16 * 1024, 0);
  for (auto* op : {static_cast<aicore::isa::MmadCommon*>(&c.dense_op),
                   static_cast<aicore::isa::MmadCommon*>(&c.sparse_op)}) {
    op->dst = {Space::L0C, 0, 0};
    op->fm = {Space::L0A, 0, 0};
    op->filter = {Space::L0B, 0, 0};
    op->m = static_cast<uint16_t>(M);
    op->n = static_cast<uint16_t>(N);
    op->k = static_cast<uint16_t>(K);
  }
  return c;
}

}  // namespace

aicore::sem::MemoryView CubeCase::view() {
  aicore::sem::MemoryView v;
  v.attach(Space::L0A, l0a.data(), l0a.size());
  v.attach(Space::L0B, l0b.data(), l0b.size());
  v.attach(Space::L0C, l0c.data(), l0c.size());
  v.attach(Space::SparseIndex, idx.data(), idx.size());
  return v;
}

CubeCase make_dense(uint32_t M, uint32_t K, uint32_t N, uint32_t seed) {
  std::mt19937 rng(seed);
  CubeCase c = empty_core(M, K, N);
  c.Kg = K;
  c.a_rm = random_i8(size_t{M} * K, rng);
  c.b_rm = random_i8(size_t{K} * N, rng);
  pack_zz(c.a_rm.data(), M, K, c.l0a.data());
  pack_zn(c.b_rm.data(), K, N, c.l0b.data());
  return c;
}

CubeCase make_sparse(uint32_t M, uint32_t K, uint32_t N, uint32_t seed) {
  std::mt19937 rng(seed);
  CubeCase c = empty_core(M, K, N);
  c.sparse = true;
  c.Kg = K / 2;
  c.a_rm = random_i8(size_t{M} * K, rng);
  const auto b = random_4to2(K, N, rng);
  pack_zz(c.a_rm.data(), M, K, c.l0a.data());
  // B' and its indexes go where LoadDataWithSparse would put them (index buffer at L0B offset / 4).
  const aicore::sem::DensifiedB d = aicore::sem::densify_4to2(b.data(), K, N);
  std::memcpy(c.l0b.data(), d.dense_zn.data(), d.dense_zn.size());
  std::memcpy(c.idx.data(), d.index.data(), d.index.size());
  // oneDNN's compressed operand: B' (K/2 x N) row-major, unpacked back from Zn.
  c.b_rm.assign(size_t{c.Kg} * N, 0);
  const uint32_t n1n = N / 16;
  for (uint32_t k = 0; k < c.Kg; ++k)
    for (uint32_t n = 0; n < N; ++n)
      c.b_rm[size_t{k} * N + n] = d.dense_zn[((k / 32) * n1n + n / 16) * 512 + (n % 16) * 32 + k % 32];
  // oneDNN's A must be M x K/2 too; any values do for timing, so take A's first K/2 columns.
  std::vector<int8_t> a_half(size_t{M} * c.Kg);
  for (uint32_t m = 0; m < M; ++m)
    std::memcpy(a_half.data() + size_t{m} * c.Kg, c.a_rm.data() + size_t{m} * K, c.Kg);
  c.a_rm = std::move(a_half);
  return c;
}

void run_sem(const CubeCase& c, const aicore::sem::MemoryView& v) {
  if (c.sparse)
    aicore::sem::mmad_with_sparse(c.sparse_op, v);
  else
    aicore::sem::mmad(c.dense_op, v);
}

}  // namespace bench
