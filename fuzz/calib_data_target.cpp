// Fuzz target: the measured-data CSV of calibrate/validate (calib/data.hpp). Oracle: an error is
// located in the file at a 1-based line; an accepted file's rows each carry their line, their
// microbenchmark builds a trace the trace reader accepts with the row's instruction, their kernel
// shape is one the generator plans; and parsing again gives the same rows.
#include <cstdint>
#include <sstream>
#include <string>

#include "aicore/calib/bench.hpp"
#include "aicore/calib/data.hpp"
#include "aicore/common/error.hpp"
#include "aicore/trace/reader.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

namespace {

void check_micro(const calib::MicroRow& row) {
  calib::MicroRow two = row;
  two.count = 2;  // the trace of two copies says as much as of COUNT
  const calib::Micro m = calib::micro_of(two);
  std::istringstream text(calib::micro_trace(two, m, "r0_"));
  trace::Reader reader(text, "micro.trace", "");
  trace::Statement st;
  size_t instructions = 0;
  try {
    while (reader.next(st)) instructions += st.kind == trace::Statement::Kind::Instr;
  } catch (const InputError& e) {
    fuzz::oracle_failed("an accepted row's microbenchmark does not parse: " + std::string(e.what()));
  }
  if (instructions != 2) fuzz::oracle_failed("a microbenchmark of 2 has " + std::to_string(instructions));
  if (!(m.per_instruction > 0)) fuzz::oracle_failed("a microbenchmark moves nothing: " + m.instruction);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = "data.csv";
  calib::Dataset d;
  try {
    calib::parse_dataset(text, path, d);
  } catch (const InputError& e) {
    if (e.loc().file != path || e.loc().line == 0)
      fuzz::oracle_failed("error not located in the file: " + std::string(e.what()));
    return 0;
  }
  for (const calib::MicroRow& r : d.micro) {
    if (r.loc.line == 0 || !(r.value > 0) || r.count == 0) fuzz::oracle_failed("accepted a bad row");
    check_micro(r);
  }
  for (const calib::KernelRow& k : d.kernels) {
    if (k.loc.line == 0 || !(k.task_us > 0)) fuzz::oracle_failed("accepted a bad kernel row");
    try {
      if (k.stream) {
        gen::check_stream(*k.stream);
        if (k.stream->cores != k.cores) fuzz::oracle_failed("a memory row's cores differ from its kernel's");
      } else {
        const gen::MatmulPlan whole = gen::make_matmul_plan(k.shape, k.opt);
        for (uint32_t c = 0; c < k.cores; ++c) (void)gen::core_rounds(whole, k.split_m, k.split_n, c);
      }
    } catch (const InputError& e) {
      fuzz::oracle_failed("accepted a kernel the generator refuses: " + std::string(e.what()));
    }
  }
  calib::Dataset again;
  calib::parse_dataset(text, path, again);
  if (again.micro.size() != d.micro.size() || again.kernels.size() != d.kernels.size())
    fuzz::oracle_failed("parsing twice gave different rows");
  return 0;
}
