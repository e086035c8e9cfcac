#include "aicore/model/trace_source.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "aicore/trace/data_file.hpp"

namespace aicore::model {

TraceSource::TraceSource(const std::string& path)
    : path_(path), reader_(std::make_unique<trace::Reader>(path)) {}

void TraceSource::declare(const trace::GmDecl& d, TensorRegistry& gm) {
  TensorDecl t;
  t.name = d.name;
  t.bytes = d.size;
  t.loc = d.loc;
  if (!d.file.empty()) {
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(d.file, ec);
    t.content_key = ec ? d.file : canonical.string();
    t.load = [d](uint8_t* dst) {
      const std::vector<uint8_t> bytes = trace::load_tensor_file(d);
      std::copy(bytes.begin(), bytes.end(), dst);
    };
  }
  chip_id_.push_back(gm.declare(t));
}

bool TraceSource::next(isa::Instruction& out, TensorRegistry& gm) {
  trace::Statement& st = statement_;  // reused: a Statement is large, and most lines are instructions
  while (reader_.next(st)) {
    switch (st.kind) {
      case trace::Statement::Kind::Gm:
        declare(st.gm, gm);
        break;
      case trace::Statement::Kind::Out:
        st.out.tensor = chip_id_.at(st.out.tensor);
        outs_.push_back(st.out);
        break;
      case trace::Statement::Kind::Expect:
        st.expect.tensor = chip_id_.at(st.expect.tensor);
        expects_.push_back(st.expect);
        break;
      case trace::Statement::Kind::Instr:
        out = st.instr;
        remap_gm(out.op, chip_id_);
        return true;
    }
  }
  return false;
}

}  // namespace aicore::model
