#include "aicore/gen/matrix_io.hpp"

#include <fstream>
#include <iterator>

#include "aicore/common/error.hpp"
#include "aicore/trace/npy.hpp"

namespace aicore::gen {

namespace {
[[noreturn]] void bad(const std::string& path, const std::string& msg) {
  throw InputError(SourceLoc{path}, msg);
}
}  // namespace

bool has_npy_extension(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

I8Matrix load_i8_matrix(const std::string& path, uint32_t rows, uint32_t cols, const std::string& what) {
  I8Matrix m;
  if (has_npy_extension(path)) {
    trace::NpyArray a;
    try {
      a = trace::read_npy(path);
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      bad(path, what + ": " + e.what());
    }
    if (a.descr != "|i1" && a.descr != "<i1" && a.descr != "i1")
      bad(path, what + " must be an int8 array (dtype '|i1'), not '" + a.descr + "'");
    if (a.shape.size() != 2)
      bad(path, what + " must be a 2-D array, got " + std::to_string(a.shape.size()) + "-D");
    if (a.shape[0] == 0 || a.shape[1] == 0 || a.shape[0] > UINT32_MAX || a.shape[1] > UINT32_MAX)
      bad(path, what + " has an unusable shape");
    m.rows = static_cast<uint32_t>(a.shape[0]);
    m.cols = static_cast<uint32_t>(a.shape[1]);
    if ((rows && rows != m.rows) || (cols && cols != m.cols))
      bad(path, what + " is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", expected " +
                    (rows ? std::to_string(rows) : "*") + " x " + (cols ? std::to_string(cols) : "*"));
    if (a.data.size() != uint64_t{m.rows} * m.cols) bad(path, what + ": data size does not match the shape");
    m.data.assign(a.data.begin(), a.data.end());
    return m;
  }
  if (rows == 0 || cols == 0) bad(path, what + " is a raw file: its shape must be given (rows and columns)");
  std::ifstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot open " + what);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() != uint64_t{rows} * cols)
    bad(path, what + " has " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(rows) +
                  " x " + std::to_string(cols) + " = " + std::to_string(uint64_t{rows} * cols));
  m.rows = rows;
  m.cols = cols;
  m.data.assign(bytes.begin(), bytes.end());
  return m;
}

void save_i8_npy(const std::string& path, const std::vector<int8_t>& data, uint32_t rows, uint32_t cols) {
  trace::write_npy(path, "|i1", {rows, cols}, reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

void save_bin(const std::string& path, const void* data, uint64_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) throw InputError(SourceLoc{path}, "cannot write file");
}

}  // namespace aicore::gen
