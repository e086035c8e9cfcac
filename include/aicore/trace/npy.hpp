// Minimal NumPy .npy support (format versions 1.0, 2.0 and 3.0): C-order arrays of little-endian
// integers, floats and booleans. Enough to exchange tensors with Python tools, nothing more.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/isa/types.hpp"

namespace aicore::trace {

struct NpyArray {
  std::string
      descr;  // canonical: "|i1", "|u1", "|b1", "<i2", "<u2", "<f2", "<i4", "<u4", "<f4", "<i8", "<u8", "<f8"
  std::vector<uint64_t> shape;  // empty = 0-d (one element)
  std::vector<uint8_t> data;    // the payload, C order, little-endian
};

// Reads a whole .npy file. InputError naming the file on a bad magic, version, header, dtype,
// Fortran order, shape, or a payload shorter or longer than the shape says.
NpyArray read_npy(const std::string& path);

// Writes a .npy (format 1.0, byte for byte what np.save writes). `descr` may be any form
// npy_item_size() accepts; bytes must equal product(shape) * item size and shape may have at most
// 64 dimensions (std::invalid_argument otherwise). Creates missing parent directories; InputError if the file
// cannot be written.
void write_npy(const std::string& path, const std::string& descr, const std::vector<uint64_t>& shape,
               const uint8_t* data, uint64_t bytes);

// Canonical form of a supported descr ("<i4", "i4", "=i4" -> "<i4"; "<i1" -> "|i1"); empty if unsupported.
std::string npy_canonical_descr(const std::string& descr);
// Bytes per element of a supported descr; 0 if unsupported.
uint32_t npy_item_size(const std::string& descr);
// The descr a tensor of this dtype is saved with. bf16 has no NumPy type: its raw bits go out as "<u2".
std::string npy_descr(isa::DType dtype);

}  // namespace aicore::trace
