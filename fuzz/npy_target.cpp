// Fuzz target: the .npy reader (header dictionary, versions, shapes, payload size) as the
// simulator uses it for .gm and .expect data files. Oracle: an accepted array written back with
// write_npy and read again has the same dtype, shape and bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/trace/data_file.hpp"
#include "aicore/trace/npy.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in = fuzz::scratch_file("in.npy");
  fuzz::write_file(in, data, size);
  trace::NpyArray a;
  try {
    a = trace::read_npy(in);
  } catch (const InputError&) {
    return 0;
  }
  const std::string out = fuzz::scratch_file("out.npy");
  trace::write_npy(out, a.descr, a.shape, a.data.data(), a.data.size());
  trace::NpyArray b;
  try {
    b = trace::read_npy(out);
  } catch (const InputError& e) {
    fuzz::oracle_failed(std::string("write_npy output does not read back: ") + e.what());
  }
  if (b.descr != a.descr || b.shape != a.shape || b.data != a.data)
    fuzz::oracle_failed("npy round trip differs");

  // The same file as a .gm image and as an .expect reference of each element type.
  trace::GmDecl g;
  g.name = "t";
  g.size = a.data.size();
  g.file = in;
  if (g.size) {
    try {
      if (trace::load_tensor_file(g) != a.data) fuzz::oracle_failed(".gm load differs from read_npy");
    } catch (const InputError& e) {
      fuzz::oracle_failed(std::string(".gm load refused an array read_npy accepted: ") + e.what());
    }
  }
  std::vector<uint8_t> other(a.data.size());
  for (size_t i = 0; i < other.size(); ++i)
    other[i] = static_cast<uint8_t>(a.data[i] ^ (i % 3 == 0 ? 0x80 : 0));
  for (isa::DType t :
       {isa::DType::Int8, isa::DType::Half, isa::DType::BF16, isa::DType::Int32, isa::DType::Float}) {
    if (a.data.size() % isa::byte_size(t) != 0) continue;
    trace::ExpectDecl e;
    e.file = in;
    e.dtype = t;
    try {
      (void)trace::compare_expect(e, other.data(), other.size());
    } catch (const InputError& err) {
      fuzz::oracle_failed(std::string(".expect refused an array read_npy accepted: ") + err.what());
    }
  }
  return 0;
}
