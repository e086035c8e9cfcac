#include "reference.hpp"

#include <cstring>

namespace ref {

Mat8 random_i8(size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  Mat8 v(count);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

Mat8 random_sparse(uint32_t K, uint32_t N, std::mt19937& rng) {
  // Non-zero masks over (e0 e1 e2 e3), bit i = element i; covers every row of the 4:2
  // table in docs/semantics.md.
  static const int kMasks[] = {0b1100, 0b1010, 0b1001, 0b0110, 0b0101, 0b0011, 0b1000, 0b0100,
                               0b0010, 0b0001, 0b0000, 0b0111, 0b1111, 0b1011, 0b1101, 0b1110};
  std::uniform_int_distribution<int> pick(0, 15), val(-128, 127);
  Mat8 b(size_t{K} * N, 0);
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t g = 0; g < K / 4; ++g) {
      const int mask = kMasks[pick(rng)];
      for (int i = 0; i < 4; ++i) {
        if (!(mask >> i & 1)) continue;
        int v = 0;
        while (v == 0) v = val(rng);
        b[(size_t{g} * 4 + i) * N + n] = static_cast<int8_t>(v);
      }
    }
  return b;
}

Mat8 kept_entries(const Mat8& b, uint32_t K, uint32_t N) {
  Mat8 k(b.size(), 0);
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t g = 0; g < K / 4; ++g) {
      int kept = 0;
      for (uint32_t i = 0; i < 4 && kept < 2; ++i) {
        const size_t at = (size_t{g} * 4 + i) * N + n;
        if (b[at] != 0) {
          k[at] = b[at];
          ++kept;
        }
      }
    }
  return k;
}

Mat32 matmul(const Mat8& a, const Mat8& b, uint32_t M, uint32_t K, uint32_t N) {
  Mat32 c(size_t{M} * N, 0);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      int64_t s = 0;
      for (uint32_t k = 0; k < K; ++k) s += int64_t{a[size_t{m} * K + k]} * b[size_t{k} * N + n];
      c[size_t{m} * N + n] = static_cast<int32_t>(s);
    }
  return c;
}

std::vector<uint8_t> zz(const Mat8& a, uint32_t M, uint32_t K) {
  std::vector<uint8_t> out;
  for (uint32_t m1 = 0; m1 * 16 < M; ++m1)
    for (uint32_t k1 = 0; k1 * 32 < K; ++k1)
      for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 32; ++c) {
          const uint32_t m = m1 * 16 + r, k = k1 * 32 + c;
          out.push_back(m < M && k < K ? static_cast<uint8_t>(a[size_t{m} * K + k]) : 0);
        }
  return out;
}

std::vector<uint8_t> zn(const Mat8& b, uint32_t K, uint32_t N) {
  std::vector<uint8_t> out;
  for (uint32_t k1 = 0; k1 * 32 < K; ++k1)
    for (uint32_t n1 = 0; n1 * 16 < N; ++n1)
      for (uint32_t r = 0; r < 16; ++r)      // n within the fractal
        for (uint32_t c = 0; c < 32; ++c) {  // k within the fractal
          const uint32_t n = n1 * 16 + r, k = k1 * 32 + c;
          out.push_back(n < N && k < K ? static_cast<uint8_t>(b[size_t{k} * N + n]) : 0);
        }
  return out;
}

Mat8 random_i4(size_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-8, 7);
  Mat8 v(count);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

namespace {
// Sets nibble `c` (element index in its 32-byte row) of `row` to value v.
void put4(uint8_t* row, uint32_t c, int8_t v) {
  const uint8_t nib = static_cast<uint8_t>(v) & 0x0F;
  if (c % 2 == 0)
    row[c / 2] = static_cast<uint8_t>((row[c / 2] & 0xF0) | nib);
  else
    row[c / 2] = static_cast<uint8_t>((row[c / 2] & 0x0F) | (nib << 4));
}
}  // namespace

std::vector<uint8_t> zz4(const Mat8& a, uint32_t M, uint32_t K) {
  std::vector<uint8_t> out;
  for (uint32_t m1 = 0; m1 * 16 < M; ++m1)
    for (uint32_t k1 = 0; k1 * 64 < K; ++k1)
      for (uint32_t r = 0; r < 16; ++r) {
        uint8_t row[32] = {};
        for (uint32_t c = 0; c < 64; ++c) {
          const uint32_t m = m1 * 16 + r, k = k1 * 64 + c;
          put4(row, c, m < M && k < K ? a[size_t{m} * K + k] : 0);
        }
        out.insert(out.end(), row, row + 32);
      }
  return out;
}

std::vector<uint8_t> zn4(const Mat8& b, uint32_t K, uint32_t N) {
  std::vector<uint8_t> out;
  for (uint32_t k1 = 0; k1 * 64 < K; ++k1)
    for (uint32_t n1 = 0; n1 * 16 < N; ++n1)
      for (uint32_t r = 0; r < 16; ++r) {  // n within the fractal
        uint8_t row[32] = {};
        for (uint32_t c = 0; c < 64; ++c) {  // k within the fractal
          const uint32_t n = n1 * 16 + r, k = k1 * 64 + c;
          put4(row, c, n < N && k < K ? b[size_t{k} * N + n] : 0);
        }
        out.insert(out.end(), row, row + 32);
      }
  return out;
}

std::vector<uint8_t> pack4(const Mat8& v) {
  std::vector<uint8_t> out((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i)
    out[i / 2] |= static_cast<uint8_t>((static_cast<uint8_t>(v[i]) & 0x0F) << (i % 2 ? 4 : 0));
  return out;
}

int32_t nz_at(const std::vector<uint8_t>& l0c, uint64_t base, uint32_t M, uint32_t m, uint32_t n) {
  const uint32_t m1n = (M + 15) / 16;
  // Walk fractals column block by column block, as docs/semantics.md describes Nz.
  const uint64_t fractal = uint64_t{n / 16} * m1n + m / 16;
  int32_t v;
  std::memcpy(&v, l0c.data() + base + fractal * 1024 + (m % 16) * 64 + (n % 16) * 4, 4);
  return v;
}

aicore::sem::MemoryView Core::view() {
  aicore::sem::MemoryView v;
  using aicore::isa::Space;
  v.attach(Space::L1, l1.data(), l1.size());
  v.attach(Space::L0A, l0a.data(), l0a.size());
  v.attach(Space::L0B, l0b.data(), l0b.size());
  v.attach(Space::L0C, l0c.data(), l0c.size());
  v.attach(Space::SparseIndex, idx.data(), idx.size());
  v.attach(Space::BiasTable, bt.data(), bt.size());
  for (size_t i = 0; i < gm.size(); ++i) v.attach_gm(static_cast<uint32_t>(i), gm[i].data(), gm[i].size());
  return v;
}

}  // namespace ref
