// Tensor data files named by .gm / .out / .expect: raw little-endian `.bin`, or `.npy` (payload
// bytes only; the array's shape and dtype do not matter, only its byte size).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "aicore/isa/types.hpp"
#include "aicore/trace/statement.hpp"

namespace aicore::trace {

// True when the path ends in ".npy" (any case); everything else is raw bytes.
bool is_npy_path(const std::string& path);

// The initial contents of a GM tensor: exactly decl.size bytes (zeros when decl.file is empty).
// InputError at the .gm directive when the file is missing, malformed, or not decl.size bytes.
std::vector<uint8_t> load_tensor_file(const GmDecl& decl);

// Writes a tensor: raw bytes, or .npy with `shape` (empty: 1-D, (size / its element bytes,); int4: its
// bytes). Creates missing parent directories. InputError when the file cannot be written, or size is not a
// whole number of elements, or not the elements of `shape`.
void write_tensor_file(const std::string& path, const uint8_t* data, uint64_t size, isa::DType dtype,
                       const std::vector<uint64_t>& shape = {});

// Differences between an .expect file and the tensor's final contents.
struct Mismatch {
  uint64_t count = 0;     // differing elements
  uint64_t elements = 0;  // compared elements
  // The tensor's shape: the .expect's shape=, else the shape in a .npy golden's own header (when it
  // holds the same number of elements), else 1-D.
  std::vector<uint64_t> shape;
  // The first kMaxReported differences: element index, expected value, actual value.
  std::vector<std::tuple<uint64_t, std::string, std::string>> first;
  static constexpr size_t kMaxReported = 8;
};

// Compares element by element with decl.dtype (bit-exact, floats included). nullopt when equal.
// InputError at the .expect directive when the file cannot be loaded or its size differs from `size`.
std::optional<Mismatch> compare_expect(const ExpectDecl& decl, const uint8_t* actual, uint64_t size);

// Where element `flat` (C order) sits in `shape`, for messages: "" for 1-D, "(row R, col C)" for
// 2-D, "(i, j, k)" beyond.
std::string index_text(uint64_t flat, const std::vector<uint64_t>& shape);

// "16 x 16"
std::string shape_text(const std::vector<uint64_t>& shape);

// One element as text: signed decimal for integers, shortest round-trip-ish decimal for floats.
std::string format_element(isa::DType dtype, const uint8_t* element);

}  // namespace aicore::trace
