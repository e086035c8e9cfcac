#include "aicore/gen/case.hpp"

#include <cstring>
#include <filesystem>

#include "aicore/common/error.hpp"
#include "aicore/gen/matrix_io.hpp"
#include "aicore/semantics/layout.hpp"
#include "aicore/semantics/sparsity.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::gen {

namespace {

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

}  // namespace

GemmCase build_case(const Plan& plan, std::vector<int8_t> a, std::vector<int8_t> b) {
  const GemmShape& s = plan.shape;
  if (a.size() != uint64_t{s.M} * s.K || b.size() != uint64_t{s.K} * s.N)
    throw InputError(SourceLoc{"gen"}, "A must have M*K and B K*N elements");
  GemmCase c;
  c.plan = plan;
  c.a = std::move(a);
  c.b = std::move(b);
  c.gm.push_back(bytes_of(c.a));  // A stays row-major: the trace uses DataCopyNd2Nz
  if (s.sparse) {
    const sem::DensifiedB d = sem::densify_4to2(c.b.data(), s.K, s.N);
    c.gm.push_back(bytes_of(d.dense_zn));
    c.gm.push_back(d.index);
    // The golden must not trust the densifier: it multiplies B filtered by our own rule.
    c.b_effective = keep_first_two(c.b.data(), s.K, s.N);
    c.loss = sparsity_loss(c.b.data(), s.K, s.N);
  } else {
    c.gm.push_back(bytes_of(sem::pack_zn_i8(c.b.data(), s.K, s.N)));
    c.b_effective = c.b;
  }
  c.gm.emplace_back(gm_bytes_c(plan), 0);
  c.golden = reference_gemm(c.a.data(), c.b_effective.data(), s.M, s.K, s.N, plan.n16());
  c.program = emit_program(plan);
  return c;
}

std::string render_trace(const GemmCase& c, const std::vector<std::string>& header) {
  const auto names = gm_names(c.plan);
  std::string t = "# aicore trace v1\n";
  for (const auto& h : header) t += "# " + h + "\n";
  t += "# A: M x K int8 row-major (DataCopyNd2Nz makes the L1 NZ copy); B: whole-matrix Zn fractals;\n"
       "# C: M x ceil16(N) int32 row-major.\n";
  const char* files[] = {"a.bin", "b.bin", c.plan.shape.sparse ? "idx.bin" : ""};
  for (size_t i = 0; i < names.size(); ++i) {
    const bool is_c = i == gm_index_c(c.plan);
    t += trace::format_gm(names[i], c.gm[i].size(), is_c ? "" : files[i]) + "\n";
  }
  t += trace::format_expect("c", "c_golden.bin", "int32", {c.plan.shape.M, c.plan.n16()}) + "\n";
  for (const Emitted& e : c.program) {
    if (!e.comment.empty()) t += "\n# " + e.comment + "\n";
    t += trace::format_instruction(e.op, names) + "\n";
  }
  return t;
}

std::vector<std::string> write_case(const GemmCase& c, const std::string& dir, const std::string& name,
                                    const std::vector<std::string>& header, bool originals) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(SourceLoc{dir}, "cannot create output directory: " + ec.message());
  std::vector<std::string> written;
  const auto put = [&](const std::string& file, const void* data, uint64_t size) {
    save_bin((fs::path(dir) / file).string(), data, size);
    written.push_back((fs::path(dir) / file).string());
  };
  const std::string trace = render_trace(c, header);
  put(name + ".trace", trace.data(), trace.size());
  const char* files[] = {"a.bin", "b.bin", "idx.bin"};
  for (size_t i = 0; i < gm_index_c(c.plan); ++i) put(files[i], c.gm[i].data(), c.gm[i].size());
  put("c_golden.bin", c.golden.data(), c.golden.size() * 4);
  if (originals) {
    const GemmShape& s = c.plan.shape;
    const auto npy = [&](const std::string& file, const std::vector<int8_t>& m, uint32_t rows,
                         uint32_t cols) {
      const std::string p = (fs::path(dir) / file).string();
      save_i8_npy(p, m, rows, cols);
      written.push_back(p);
    };
    npy("a.npy", c.a, s.M, s.K);
    npy(s.sparse ? "b_sparse.npy" : "b.npy", c.b, s.K, s.N);
  }
  return written;
}

}  // namespace aicore::gen
