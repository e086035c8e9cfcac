// int8 matrices in and out of the generator tools: .npy (2-D int8) or raw row-major .bin.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace aicore::gen {

struct I8Matrix {
  uint32_t rows = 0, cols = 0;
  std::vector<int8_t> data;  // row-major
};

// A path ending in .npy is read as NumPy (dtype int8, 2-D; rows/cols, when non-zero, must
// match). Anything else is raw bytes and needs rows and cols; its size must be rows*cols.
// Throws aicore::InputError naming the file and `what` ("--a", "input B", ...).
I8Matrix load_i8_matrix(const std::string& path, uint32_t rows, uint32_t cols, const std::string& what);

void save_i8_npy(const std::string& path, const std::vector<int8_t>& data, uint32_t rows, uint32_t cols);
void save_bin(const std::string& path, const void* data, uint64_t size);

bool has_npy_extension(const std::string& path);

}  // namespace aicore::gen
