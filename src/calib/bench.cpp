#include "aicore/calib/bench.hpp"

#include <filesystem>
#include <fstream>

#include <cmath>
#include <sstream>

#include "aicore/isa/check.hpp"
#include "aicore/trace/reader.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::calib {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr uint64_t kProbeTensor = uint64_t{1} << 30;  // large enough for any legal microbenchmark

std::string with_param(const std::string& pattern, uint64_t p) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '@') {  // @ = PARAM, @K = PARAM KiB in 32-byte units
      const bool kib = i + 1 < pattern.size() && pattern[i + 1] == 'K';
      out += std::to_string(kib ? p * 1024 / 32 : p);
      if (kib) ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// `fields` ("key=value ...") replace the keys of the same name in `line` or are appended.
std::string apply_fields(const std::string& line, const std::string& fields) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  std::istringstream f(fields);
  for (std::string kv; f >> kv;) {
    const std::string key = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (size_t i = 1; i < words.size(); ++i)
      if (words[i].compare(0, key.size() + 1, key + "=") == 0) {
        words[i] = kv;
        replaced = true;
      }
    if (!replaced) words.push_back(kv);
  }
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The op of one instruction line, parsed by the trace reader against two big GM tensors.
isa::Op parse_line(const std::string& line, const MicroRow& row) {
  std::istringstream text(".gm a size=" + std::to_string(kProbeTensor) +
                          "\n.gm c size=" + std::to_string(kProbeTensor) + "\n" + line + "\n");
  trace::Reader reader(text, "microbenchmark", "");
  trace::Statement st;
  try {
    while (reader.next(st))
      if (st.kind == trace::Statement::Kind::Instr) return st.instr.op;
  } catch (const InputError& e) {
    throw InputError(row.loc, "the " + row.kind + " microbenchmark '" + line +
                                  "' is not a valid instruction: " + e.message());
  }
  throw InputError(row.loc, "the " + row.kind + " microbenchmark has no instruction");
}

double ops_of(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op)) return 2.0 * m->m * m->n * m->k;
  if (const auto* m = std::get_if<isa::MmadWithSparse>(&op))
    return 2.0 * m->m * m->n * m->k;  // dense-equivalent
  return 0;
}

}  // namespace

const std::vector<KindInfo>& kinds() {
  // `instruction` patterns: @ = PARAM, @K = PARAM KiB as a DataCopy blockLen (32-byte units).
  static const std::vector<KindInfo> k = {
      {"loaddata",
       {"A2", "B2", "L0A", "L0B"},
       "GiB/s",
       "repeatTimes (512-byte fractals)",
       1,
       255,
       "LoadData dst=DST:0 src=L1:0 repeatTimes=@ srcStride=1"},
      {"mmad_half",
       {"CO1", "L0C"},
       "OPs/cycle",
       "n (m=32 k=16, fp16 in, fp32 out)",
       1,
       4095,
       "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 k=16 n=@ dtype=half"},
      {"mmad_int8",
       {"CO1", "L0C"},
       "OPs/cycle",
       "n (m=32 k=32, int8 in, int32 out)",
       1,
       4095,
       "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 k=32 n=@"},
      {"sparse",
       {"CO1", "L0C"},
       "OPs/cycle",
       "n (MmadWithSparse m=32 k=64; dense-equivalent OPs)",
       1,
       4095,
       "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 k=64 n=@"},
      {"datacopy_gm",
       {"L1", "A1", "B1"},
       "GiB/s",
       "KiB per contiguous DataCopy",
       1,
       480,
       "DataCopy dst=L1:0 src=a blockLen=@K"},
      {"datacopy_nd2nz",
       {"L1", "A1", "B1"},
       "GiB/s",
       "row length in bytes (int8 dValue; 64 rows)",
       1,
       4096,
       "DataCopyNd2Nz dst=L1:0 src=a nValue=64 dValue=@ srcDValue=@ dstNzC0Stride=64"},
      {"fixpipe",
       {"GM"},
       "GiB/s",
       "nSize (columns, a multiple of 16; 16 rows, int32)",
       16,
       4080,
       "Fixpipe dst=c src=L0C:0 nSize=@ mSize=16 srcStride=16 dstStride=@"},
  };
  return k;
}

const KindInfo* find_kind(const std::string& name) {
  for (const KindInfo& k : kinds())
    if (k.name == name) return &k;
  return nullptr;
}

Micro micro_of(const MicroRow& row) {
  const KindInfo* k = find_kind(row.kind);
  if (!k) throw InputError(row.loc, "unknown kind '" + row.kind + "'");
  std::string pattern = k->instruction;
  const std::string dst = row.dst == "A2" ? "L0A" : row.dst == "B2" ? "L0B" : row.dst;
  if (const size_t at = pattern.find("DST"); at != std::string::npos) pattern.replace(at, 3, dst);
  Micro m;
  m.instruction = apply_fields(with_param(pattern, row.param), row.fields);
  m.op = parse_line(m.instruction, row);
  const isa::Footprint fp = isa::footprint(m.op);
  for (const isa::Extent& x : fp)
    if (x.space == isa::Space::GM) {
      m.gm_bytes = x.end;
      m.gm_is_c = x.write;
    }
  m.per_instruction = k->unit == "OPs/cycle" ? ops_of(m.op) : static_cast<double>(isa::bytes_moved(m.op));
  if (m.per_instruction <= 0)
    throw InputError(row.loc, "the " + row.kind + " microbenchmark '" + m.instruction + "' moves nothing");
  return m;
}

void check_micro(const MicroRow& row, const Micro& m, const config::Config& cfg) {
  isa::Limits lim;
  lim.space_bytes[static_cast<size_t>(isa::Space::L1)] = cfg.buffers.l1_bytes;
  lim.space_bytes[static_cast<size_t>(isa::Space::L0A)] = cfg.buffers.l0a_bytes;
  lim.space_bytes[static_cast<size_t>(isa::Space::L0B)] = cfg.buffers.l0b_bytes;
  lim.space_bytes[static_cast<size_t>(isa::Space::L0C)] = cfg.buffers.l0c_bytes;
  lim.space_bytes[static_cast<size_t>(isa::Space::SparseIndex)] = cfg.buffers.sparse_index_bytes;
  lim.space_bytes[static_cast<size_t>(isa::Space::BiasTable)] = cfg.buffers.bias_table_bytes;
  lim.gm_tensor_bytes = {m.gm_bytes, m.gm_bytes};
  try {
    isa::check(m.op, lim);
  } catch (const Fault& f) {
    throw InputError(row.loc, "the " + row.kind + " microbenchmark '" + m.instruction +
                                  "' cannot run with config '" + cfg.name + "': " + f.what());
  }
}

std::string micro_trace(const MicroRow& row, const Micro& m, const std::string& prefix) {
  std::string t = "# aicore trace v1\n# microbenchmark of " + row_name(row.loc) + ": " + row.kind + " " +
                  row.dst + " " + std::to_string(row.param) + ", " + std::to_string(row.count) +
                  " instructions\n";
  const std::string tensor = prefix + (m.gm_is_c ? "c" : "a");
  std::string line = m.instruction;
  if (m.gm_bytes) {
    t += trace::format_gm(tensor, m.gm_bytes) + "\n";
    const std::string from = m.gm_is_c ? " dst=c" : " src=a";
    if (const size_t at = line.find(from); at != std::string::npos)
      line.replace(at, from.size(), from.substr(0, 5) + tensor);
  }
  for (uint64_t i = 0; i < row.count; ++i) t += line + "\n";
  return t;
}

double micro_metric(const MicroRow& row, const Micro& m, uint64_t cycles, double clock_mhz) {
  if (cycles == 0) return 0;
  const double total = m.per_instruction * static_cast<double>(row.count);
  if (find_kind(row.kind)->unit == "OPs/cycle") return total / static_cast<double>(cycles);
  const double seconds = static_cast<double>(cycles) / (clock_mhz * 1e6);
  return total / seconds / kGiB;
}

std::vector<uint64_t> kernel_block_runs(const KernelRow& row) {
  const gen::MatmulPlan p = gen::make_matmul_plan(row.shape, row.opt);
  if (p.blocks() <= 3) return {0};
  return {1, 2};
}

std::string kernel_trace(const KernelRow& row, uint64_t blocks, const std::string& prefix) {
  gen::MatmulOptions o = row.opt;
  o.blocks = blocks;
  const gen::MatmulPlan p = gen::make_matmul_plan(row.shape, o);
  return gen::render_matmul_trace(p, gen::emit_matmul(p), {"kernel row " + row_name(row.loc), p.describe()},
                                  false, false, {prefix + "a", prefix + "b", prefix + "c"});
}

std::string write_chip_kernel(const KernelRow& row, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::string manifest = "# kernel row " + row_name(row.loc) + "\ncores:\n";
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f.flush()) throw InputError(SourceLoc{path}, "cannot write the simulation's trace");
    return path;
  };
  if (row.stream) {
    for (uint32_t c = 0; c < row.cores; ++c) {
      const std::string file = "core" + std::to_string(c) + ".trace";
      write(file, gen::render_stream_trace(*row.stream, c, {"memory row " + row_name(row.loc)}));
      manifest += "  - " + file + "\n";
    }
    return write("kernel.yaml", manifest);
  }
  const gen::MatmulPlan whole = gen::make_matmul_plan(row.shape, row.opt);
  for (uint32_t c = 0; c < row.cores; ++c) {
    const std::vector<gen::MatmulPlan> rounds = gen::core_rounds(whole, row.split_m, row.split_n, c);
    const std::string file = "core" + std::to_string(c) + ".trace";
    write(file, gen::render_matmul_trace(rounds.front(), gen::emit_matmul(rounds),
                                         {"kernel row " + row_name(row.loc), rounds.front().describe()},
                                         false, false));
    manifest += "  - " + file + "\n";
  }
  return write("kernel.yaml", manifest);
}

KernelCycles extrapolate(const KernelRow& row, const std::vector<KernelCycles>& runs) {
  if (runs.size() == 1) return runs[0];
  const double blocks = static_cast<double>(gen::make_matmul_plan(row.shape, row.opt).blocks());
  KernelCycles out;
  out.task = runs[0].task + (blocks - 1) * (runs[1].task - runs[0].task);
  for (size_t p = 0; p < kKernelPipeCount; ++p)
    out.pipes[p] = runs[0].pipes[p] + (blocks - 1) * (runs[1].pipes[p] - runs[0].pipes[p]);
  return out;
}

}  // namespace aicore::calib
