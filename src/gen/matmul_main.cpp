// `gen --dtype half|bf16 ...`: the best-practice matmul kernel (matmul.hpp) as a trace, with its
// data and golden, or timing-only (the trace alone).
#include <filesystem>
#include <ostream>
#include <utility>

#include "aicore/common/error.hpp"
#include "aicore/gen/args.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/gen/matmul.hpp"
#include "aicore/gen/matrix_io.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::gen {

namespace {

constexpr uint64_t kMaxDim = 65520;
// A manifest may list more cores than a SoC has; `run` refuses it against chip.cores.
constexpr uint64_t kMaxCores = 4096;

// "128x256x64" -> base m, n, k.
void parse_base(const Args& args, MatmulOptions& o) {
  const std::string s = args.str("base", "128x256x64");
  uint32_t* fields[3] = {&o.base_m, &o.base_n, &o.base_k};
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t end = i == 2 ? s.size() : s.find('x', at);
    const std::string part = end == std::string::npos ? "" : s.substr(at, end - at);
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos)
      args.fail("--base must be MxNxK (base_m x base_n x base_k, e.g. 128x256x64), not '" + s + "'");
    *fields[i] = static_cast<uint32_t>(std::stoul(part));
    at = end + 1;
  }
}

// "4x6" -> split_m, split_n (parts of C along M and N, one core each).
std::pair<uint32_t, uint32_t> parse_split(const Args& args, uint32_t cores) {
  if (!args.has("split")) {
    if (cores > 1)
      args.fail("--cores " + std::to_string(cores) + " needs --split MxN (e.g. --split 4x6 for 24 cores)");
    return {1, 1};
  }
  const std::string s = args.str("split");
  const size_t x = s.find('x');
  const auto num = [&](const std::string& part) -> uint32_t {
    if (part.empty() || part.size() > 5 || part.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(part) == 0)
      args.fail("--split must be MxN (parts of C along M and N, e.g. 4x6), not '" + s + "'");
    return static_cast<uint32_t>(std::stoul(part));
  };
  if (x == std::string::npos) num("");
  const uint32_t sm = num(s.substr(0, x)), sn = num(s.substr(x + 1));
  if (uint64_t{sm} * sn != cores)
    args.fail("--split " + s + " makes " + std::to_string(uint64_t{sm} * sn) + " parts for --cores " +
              std::to_string(cores) + ": one part per core (M x N = cores)");
  return {sm, sn};
}

MatmulPlan plan_of(const Args& args) {
  MatmulShape s;
  const std::string dtype = args.str("dtype");
  if (dtype == "half" || dtype == "fp16")
    s.dtype = isa::DType::Half;
  else if (dtype == "bf16" || dtype == "bfloat16")
    s.dtype = isa::DType::BF16;
  else
    args.fail("--dtype must be half or bf16 (int8 GEMMs: --dense or --sparse without --dtype), not '" +
              dtype + "'");
  const std::string c_type = args.str("c-dtype", isa::to_string(s.dtype));
  if (c_type == "half" || c_type == "fp16")
    s.c_dtype = isa::DType::Half;
  else if (c_type == "bf16" || c_type == "bfloat16")
    s.c_dtype = isa::DType::BF16;
  else if (c_type == "float" || c_type == "fp32")
    s.c_dtype = isa::DType::Float;
  else
    args.fail("--c-dtype must be half, bf16 or float (the type Fixpipe writes C in), not '" + c_type + "'");
  const std::string layout = args.str("b-layout", "nt");
  if (layout != "nd" && layout != "nt")
    args.fail("--b-layout must be nd (K x N) or nt (N x K), not '" + layout + "'");
  s.b_layout = layout == "nd" ? BLayout::ND : BLayout::NT;
  s.M = static_cast<uint32_t>(args.uint("m", 0, 16, kMaxDim));
  s.K = static_cast<uint32_t>(args.uint("k", 0, 16, kMaxDim));
  s.N = static_cast<uint32_t>(args.uint("n", 0, 16, kMaxDim));
  if (!s.M || !s.K || !s.N) args.fail("--m, --k and --n are required");
  MatmulOptions o;
  parse_base(args, o);
  o.l1_buffers = static_cast<uint32_t>(args.uint("l1-buffers", 2, 1, 2));
  o.l0_buffers = static_cast<uint32_t>(args.uint("l0-buffers", 2, 1, 2));
  o.blocks = args.uint("blocks", 0, 1, UINT32_MAX);
  const std::string tmpl = args.str("template", "norm");
  if (tmpl != "norm" && tmpl != "mdl")
    args.fail("--template must be norm (Matmul CFG_NORM) or mdl (CFG_MDL), not '" + tmpl + "'");
  o.tmpl = tmpl == "mdl" ? MatmulTemplate::Mdl : MatmulTemplate::Norm;
  o.step_ka = static_cast<uint32_t>(args.uint("step-ka", 1, 1, 255));
  o.step_kb = static_cast<uint32_t>(args.uint("step-kb", 1, 1, 255));
  o.depth_a1 = static_cast<uint32_t>(args.uint("depth-a1", 0, 1, 1020));
  o.depth_b1 = static_cast<uint32_t>(args.uint("depth-b1", 0, 1, 1020));
  o.l2_rounds = static_cast<uint32_t>(args.uint("l2-rounds", 1, 1, 4096));
  // GetNormalConfig's enUnitFlag defaults to true, GetMDLConfig's to false.
  const std::string uf = args.str("unit-flag", o.tmpl == MatmulTemplate::Mdl ? "off" : "on");
  if (uf != "on" && uf != "off")
    args.fail(
        "--unit-flag must be on (hand L0C to Fixpipe by unitFlag, as the Matmul NORM template) or off "
        "(M_FIX / FIX_M flags), not '" +
        uf + "'");
  o.unit_flag = uf == "on";
  const std::string al = args.str("a-load", "2d");
  if (al != "2d" && al != "load3d")
    args.fail(
        "--a-load must be 2d (LoadData 2D per fractal row or column) or load3d (one LoadData3DV2 per K "
        "step), not '" +
        al + "'");
  o.load3d_a = al == "load3d";
  const std::string order = args.str("iterate-order", "n");
  if (order != "n" && order != "m")
    args.fail(
        "--iterate-order must be n (C's base blocks along N first, ORDER_N) or m (along M first, ORDER_M), "
        "not '" +
        order + "'");
  o.order_m = order == "m";
  if (args.has("bias")) {
    const std::string bias = args.str("bias");
    if (bias != "float" && bias != "fp32" && bias != "half" && bias != "fp16")
      args.fail(
          "--bias must be float or half (the bias tensor's type; half is converted on the way into the "
          "bias table), not '" +
          bias + "'");
    o.bias = true;
    o.bias_dtype = bias == "half" || bias == "fp16" ? isa::DType::Half : isa::DType::Float;
  }
  if (o.blocks && !args.flag("timing-only"))
    args.fail("--blocks N writes a partial kernel, which has no golden: give it with --timing-only");
  return make_matmul_plan(s, o);
}

int run(const std::vector<std::string>& argv, std::ostream& out, const std::string& program) {
  const Args args(
      "gen", argv,
      {"m",        "k",          "n",          "dtype",         "c-dtype", "unit-flag", "b-layout",
       "base",     "l1-buffers", "l0-buffers", "blocks",        "values",  "seed",      "out",
       "name",     "cores",      "split",      "template",      "step-ka", "step-kb",   "depth-a1",
       "depth-b1", "l2-rounds",  "a-load",     "iterate-order", "bias"},
      {"timing-only", "help"});
  if (args.flag("help")) {
    out << gen_usage(program);
    return 0;
  }
  if (!args.has("out")) args.fail("--out DIR is required");
  const MatmulPlan plan = plan_of(args);
  const bool data = !args.flag("timing-only");
  const std::string values = args.str("values", "exact");
  if (values != "exact" && values != "random")
    args.fail("--values must be exact or random, not '" + values + "'");
  if (!data && args.has("values"))
    args.fail("--values chooses the data: it has no meaning with --timing-only");
  const bool exact = values == "exact";

  namespace fs = std::filesystem;
  const std::string dir = args.str("out");
  std::string name = args.str("name", fs::path(dir).lexically_normal().filename().string());
  if (name.empty() || name == "." || name == "..") name = "matmul";
  std::string command = "gen";
  for (const auto& s : argv) command += " " + s;
  std::vector<std::string> header = {"generated by: " + program + " " + command, plan.describe()};
  if (data)
    header.push_back(
        exact ? "values: multiples of 1/8 in [-1, 1]; every fp32 sum is exact: .expect is bit-exact"
              : "values: uniform in [-1, 1); compare out/c.bin with c_golden.bin within c_tolerance.bin");
  const uint32_t cores = static_cast<uint32_t>(args.uint("cores", 1, 1, kMaxCores));
  const auto [split_m, split_n] = parse_split(args, cores);

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(SourceLoc{dir}, "cannot create output directory: " + ec.message());
  std::vector<std::string> written;
  const auto put = [&](const std::string& file, const void* bytes, uint64_t size) {
    save_bin((fs::path(dir) / file).string(), bytes, size);
    written.push_back((fs::path(dir) / file).string());
  };
  uint64_t instructions = 0;
  std::string manifest = "# " + std::to_string(cores) + " cores, C split " + std::to_string(split_m) + " x " +
                         std::to_string(split_n) + "; generated by: " + program + " " + command +
                         "\ncores:\n";
  for (uint32_t c = 0; c < cores; ++c) {
    const std::vector<MatmulPlan> rounds = core_rounds(plan, split_m, split_n, c);
    const MatmulPlan& cp = rounds.front();
    std::vector<std::string> h = header;
    h.erase(h.begin() + 1);
    for (size_t r = 0; r < rounds.size(); ++r) h.insert(h.begin() + 1 + r, rounds[r].describe());
    const std::vector<Emitted> prog = emit_matmul(rounds);
    instructions += prog.size();
    // Core 0 gives the shared tensors their data and checks C once every core has finished.
    const std::string trace = render_matmul_trace(cp, prog, h, data && c == 0, exact);
    const std::string file = cores > 1 ? "core" + std::to_string(c) + ".trace" : name + ".trace";
    put(file, trace.data(), trace.size());
    manifest += "  - " + file + "\n";
  }
  if (cores > 1) put("kernel.yaml", manifest.data(), manifest.size());
  if (data) {
    const MatmulData d = matmul_data(plan, args.uint("seed", 1, 0, UINT64_MAX), exact);
    put("a.bin", d.a.data(), d.a.size() * 2);
    put("b.bin", d.b.data(), d.b.size() * 2);
    if (plan.opt.bias) put("bias.bin", d.bias.data(), d.bias.size());
    const std::vector<uint8_t> golden = matmul_golden_bytes(plan, d);
    put("c_golden.bin", golden.data(), golden.size());
    if (!exact) {
      const std::vector<float> tol = matmul_tolerance(plan, d);
      put("c_tolerance.bin", tol.data(), tol.size() * 4);
    }
  }
  out << plan.describe() << "\n"
      << (cores > 1 ? std::to_string(cores) + " cores, " : "") << instructions << " instructions\n";
  for (const auto& f : written) out << "wrote " << f << "\n";
  return 0;
}

}  // namespace

std::string render_matmul_trace(const MatmulPlan& p, const std::vector<Emitted>& program,
                                const std::vector<std::string>& header, bool data, bool exact,
                                const std::vector<std::string>& names) {
  std::string t = "# aicore trace v1\n";
  for (const auto& h : header) t += "# " + h + "\n";
  t += std::string("# A: M x K row-major; B: ") +
       (p.shape.b_layout == BLayout::NT ? "N x K row-major (B transposed)" : "K x N row-major") +
       "; C: M x N " + isa::to_string(p.shape.c_dtype) + " row-major" +
       (p.opt.bias ? std::string("; bias: N ") + isa::to_string(p.opt.bias_dtype) + ", C = bias + A x B"
                   : "") +
       ".\n";
  t += trace::format_gm(names[0], matmul_bytes_a(p), data ? "a.bin" : "") + "\n";
  t += trace::format_gm(names[1], matmul_bytes_b(p), data ? "b.bin" : "") + "\n";
  t += trace::format_gm(names[2], matmul_bytes_c(p)) + "\n";
  if (p.opt.bias)
    t +=
        trace::format_gm(names.size() > 3 ? names[3] : "bias", matmul_bytes_bias(p), data ? "bias.bin" : "") +
        "\n";
  const std::string c_type = isa::to_string(p.shape.c_dtype);
  if (data && exact)
    t += trace::format_expect(names[2], "c_golden.bin", c_type, {p.shape.M, p.shape.N}) + "\n";
  else if (data)
    t += trace::format_out(names[2], "c.bin", c_type, {p.shape.M, p.shape.N}) + "\n";
  std::string line;
  for (const Emitted& e : program) {
    if (!e.comment.empty()) t += "\n# " + e.comment + "\n";
    line.clear();
    trace::append_instruction(line, e.op, names);
    t += line + "\n";
  }
  return t;
}

bool is_matmul_request(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--dtype" || a.rfind("--dtype=", 0) == 0) return true;
  return false;
}

int matmul_gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                    const std::string& program) {
  return run_guarded(err, program, [&] { return run(args, out, program); });
}

}  // namespace aicore::gen
