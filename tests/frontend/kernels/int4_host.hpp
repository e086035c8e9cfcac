// The host side of the int4 test kernels (int4_mmad.cpp, int4_load.cpp): random int4 values and
// their packing into GM bytes, two elements a byte (element 2i in the low nibble, 2i+1 in the high).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

inline void put4(uint8_t* bytes, uint64_t element, int v) {
  const auto nib = static_cast<uint8_t>(v & 0xF);
  uint8_t& b = bytes[element / 2];
  b = element % 2 ? static_cast<uint8_t>((b & 0x0F) | nib << 4) : static_cast<uint8_t>((b & 0xF0) | nib);
}

// `count` values in [-8, 7] from `rng`.
inline std::vector<int> random_int4(std::mt19937& rng, uint64_t count) {
  std::uniform_int_distribution<int> value(-8, 7);
  std::vector<int> out(count);
  for (auto& x : out) x = value(rng);
  return out;
}
