#include "aicore/trace/data_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/trace/npy.hpp"
#include "file_io.hpp"

namespace aicore::trace {

namespace {

// The payload of a data file, which must hold exactly `want` bytes. Every error is reported at
// `loc` (the directive that named the file), starting with `prefix` and naming the file.
// `npy_shape`, when given, receives a .npy file's shape.
std::vector<uint8_t> read_payload(const std::string& path, uint64_t want, const SourceLoc& loc,
                                  const std::string& prefix, const char* noun,
                                  std::vector<uint64_t>* npy_shape = nullptr) {
  const auto wrong_size = [&](uint64_t got, const std::string& what) {
    throw InputError(loc, prefix + noun + " '" + path + "' holds " + std::to_string(got) + " bytes" + what +
                              ", expected " + std::to_string(want));
  };
  try {
    if (is_npy_path(path)) {
      NpyArray a = read_npy(path);
      if (a.data.size() != want) wrong_size(a.data.size(), " of " + a.descr + " data");
      if (npy_shape) *npy_shape = std::move(a.shape);
      return std::move(a.data);
    }
    uint64_t size = 0;
    std::ifstream in = detail::open_for_read(path, size);
    if (size != want) wrong_size(size, "");
    std::vector<uint8_t> data(size);
    if (size) in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size));
    if (!in) throw InputError(SourceLoc{path, 0, 0}, "read error");
    return data;
  } catch (const InputError& e) {
    if (e.loc().line != 0) throw;  // already at the directive
    throw InputError(loc, prefix + "cannot load " + noun + " " + e.loc().str() + ": " + e.message());
  }
}

uint32_t f32_bits(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

float float_of_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h >> 15) << 31;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x3FFu;
  if (exp == 0x1F) return float_of_bits(sign | 0x7F800000u | (mant << 13));  // inf / nan
  if (exp != 0) return float_of_bits(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return float_of_bits(sign);
  // Subnormal half: normalise.
  int e = -1;
  do {
    ++e;
    mant <<= 1;
  } while (!(mant & 0x400u));
  return float_of_bits(sign | ((112u - static_cast<uint32_t>(e)) << 23) | ((mant & 0x3FFu) << 13));
}

// Shortest %g text that reads back as the same float.
std::string float_text(float f) {
  if (std::isnan(f)) return std::signbit(f) ? "-nan" : "nan";
  char buf[32];
  for (int precision = 6; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return buf;
}

// Product of the dimensions; UINT64_MAX on overflow (never a tensor's element count).
uint64_t element_count(const std::vector<uint64_t>& shape) {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d != 0 && n > UINT64_MAX / d) return UINT64_MAX;
    n *= d;
  }
  return n;
}

std::string hex_bits(uint32_t bits, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*X", digits, bits);
  return buf;
}

}  // namespace

bool is_npy_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".npy";
}

std::vector<uint8_t> load_tensor_file(const GmDecl& decl) {
  if (decl.file.empty()) return std::vector<uint8_t>(decl.size, 0);
  return read_payload(decl.file, decl.size, decl.loc, "tensor '" + decl.name + "': ", "data file");
}

void write_tensor_file(const std::string& path, const uint8_t* data, uint64_t size, isa::DType dtype,
                       const std::vector<uint64_t>& shape) {
  // int4 (two elements a byte) is saved as its bytes.
  const uint32_t es = dtype == isa::DType::Int4 ? 1 : isa::byte_size(dtype);
  if (is_npy_path(path)) {
    if (size % es != 0)
      throw InputError(SourceLoc{path, 0, 0}, "cannot save " + std::to_string(size) + " bytes as " +
                                                  isa::to_string(dtype) + " elements (not a whole number)");
    if (!shape.empty() && element_count(shape) != size / es)
      throw InputError(SourceLoc{path, 0, 0}, "cannot save " + std::to_string(size / es) + " " +
                                                  isa::to_string(dtype) + " elements as " +
                                                  shape_text(shape));
    write_npy(path, npy_descr(dtype), shape.empty() ? std::vector<uint64_t>{size / es} : shape, data, size);
    return;
  }
  std::ofstream out = detail::open_for_write(path);
  if (size) out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  detail::finish_write(out, path);
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string s;
  for (uint64_t d : shape) s += (s.empty() ? "" : " x ") + std::to_string(d);
  return s;
}

std::string index_text(uint64_t flat, const std::vector<uint64_t>& shape) {
  if (shape.size() < 2) return "";
  std::vector<uint64_t> at(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    at[i] = shape[i] ? flat % shape[i] : 0;
    flat = shape[i] ? flat / shape[i] : 0;
  }
  if (shape.size() == 2) return "(row " + std::to_string(at[0]) + ", col " + std::to_string(at[1]) + ")";
  std::string s = "(";
  for (size_t i = 0; i < at.size(); ++i) s += (i ? ", " : "") + std::to_string(at[i]);
  return s + ")";
}

std::string format_element(isa::DType dtype, const uint8_t* p) {
  switch (dtype) {
    case isa::DType::Int8:
      return std::to_string(static_cast<int8_t>(p[0]));
    case isa::DType::Half:
      return float_text(half_to_float(static_cast<uint16_t>(p[0] | p[1] << 8)));
    case isa::DType::BF16:
      return float_text(float_of_bits(static_cast<uint32_t>(p[0] | p[1] << 8) << 16));
    case isa::DType::Int32:
      return std::to_string(static_cast<int32_t>(f32_bits(p)));
    case isa::DType::Float:
      return float_text(float_of_bits(f32_bits(p)));
    case isa::DType::Int4:  // one byte: the element of even index (low nibble), then the odd one
      return std::to_string(static_cast<int8_t>(static_cast<uint8_t>(p[0] << 4)) >> 4) + "," +
             std::to_string(static_cast<int8_t>(p[0]) >> 4);
  }
  return "?";
}

std::optional<Mismatch> compare_expect(const ExpectDecl& decl, const uint8_t* actual, uint64_t size) {
  // int4 (two elements a byte; the reader refuses it for .expect) is compared by bytes.
  const uint32_t es = decl.dtype == isa::DType::Int4 ? 1 : isa::byte_size(decl.dtype);
  if (size % es != 0)
    throw InputError(decl.loc, "tensor of " + std::to_string(size) + " bytes is not a whole number of " +
                                   isa::to_string(decl.dtype) + " elements");
  std::vector<uint64_t> npy_shape;
  const std::vector<uint8_t> expected =
      read_payload(decl.file, size, decl.loc, "", "expected-result file", &npy_shape);
  if (size == 0 || std::memcmp(expected.data(), actual, size) == 0) return std::nullopt;
  Mismatch m;
  m.elements = size / es;
  // A .npy golden of another dtype (same bytes, other element count) says nothing about this shape.
  if (!decl.shape.empty())
    m.shape = decl.shape;
  else if (!npy_shape.empty() && element_count(npy_shape) == m.elements)
    m.shape = npy_shape;
  else
    m.shape = {m.elements};
  for (uint64_t i = 0; i < size / es; ++i) {
    const uint8_t* e = expected.data() + i * es;
    const uint8_t* a = actual + i * es;
    if (std::memcmp(e, a, es) == 0) continue;
    ++m.count;
    if (m.first.size() >= Mismatch::kMaxReported) continue;
    std::string et = format_element(decl.dtype, e), at = format_element(decl.dtype, a);
    if (et == at) {  // different bits that print alike (-0 vs 0, NaN payloads): show the bits
      uint32_t eb = 0, ab = 0;
      for (uint32_t b = 0; b < es; ++b) {
        eb |= static_cast<uint32_t>(e[b]) << (8 * b);
        ab |= static_cast<uint32_t>(a[b]) << (8 * b);
      }
      et += " (" + hex_bits(eb, static_cast<int>(2 * es)) + ")";
      at += " (" + hex_bits(ab, static_cast<int>(2 * es)) + ")";
    }
    m.first.emplace_back(i, std::move(et), std::move(at));
  }
  return m;
}

}  // namespace aicore::trace
