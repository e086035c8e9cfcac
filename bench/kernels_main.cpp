// bench_kernels: host speed of the functional Cube kernels (sem::mmad, sem::mmad_with_sparse)
// (native and portable host kernels) against oneDNN's s8 x s8 -> s32 matmul on one core, and of
// Fixpipe's conversions. After Google Benchmark has run, the captured per-iteration times give the
// ratio lines (larger = closer to oneDNN).
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "aicore/semantics/execute.hpp"
#include "aicore/semantics/kernels.hpp"
#include "cube_case.hpp"
#include "onednn_gemm.hpp"

namespace {

using bench::CubeCase;
using Kernel = std::function<void(const CubeCase&, const aicore::sem::MemoryView&)>;

// CPU seconds per iteration of every benchmark, best over repetitions. CPU time, not wall
// time: both sides are single-threaded and the shared build host preempts us now and then.
std::map<std::string, double> g_seconds;

class CapturingReporter : public benchmark::ConsoleReporter {
 public:
  // Colour only on a terminal, so piped / logged output stays plain text.
  CapturingReporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred || r.iterations == 0) continue;
      const double s = r.cpu_accumulated_time / static_cast<double>(r.iterations);
      auto [it, fresh] = g_seconds.emplace(r.benchmark_name(), s);
      if (!fresh && s < it->second) it->second = s;
    }
  }
};

void add_gmacs(benchmark::State& st, const char* name, double macs) {
  st.counters[name] = benchmark::Counter(macs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// Our kernels: the case is built once, only the instruction runs inside the loop.
void register_ours(const std::string& name, const CubeCase& proto_case, Kernel k) {
  benchmark::RegisterBenchmark(name.c_str(), [proto_case, k](benchmark::State& st) {
    CubeCase c = proto_case;
    const aicore::sem::MemoryView v = c.view();
    for (auto _ : st) {
      k(c, v);
      benchmark::DoNotOptimize(c.l0c.data());
      benchmark::ClobberMemory();
    }
    if (c.sparse) {
      add_gmacs(st, "GMAC/s_dense_eq", c.dense_macs());
      add_gmacs(st, "GMAC/s_compressed", c.compressed_macs());
    } else {
      add_gmacs(st, "GMAC/s", c.dense_macs());
    }
  })->Unit(benchmark::kMicrosecond);
}

void register_onednn(const std::string& name, const CubeCase& c) {
  const uint32_t M = c.M, K = c.Kg, N = c.N;
  auto a = c.a_rm, b = c.b_rm;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
    bench::OnednnGemm g(a, b, M, K, N);  // primitive built outside the timed loop
    g.run();                             // first call pays any lazy JIT / packing set-up
    for (auto _ : st) g.run();
    add_gmacs(st, "GMAC/s", double(M) * K * N);
    st.SetLabel(g.impl());
  })->Unit(benchmark::kMicrosecond);
}

// The semantics layer at each host kernel level (kernels.hpp): native = AVX-512 VNNI (+VBMI for
// sparse) when the CPU has it, portable = plain C++ (what other CPUs run).
Kernel at_level(aicore::sem::KernelLevel level) {
  return [level](const CubeCase& c, const aicore::sem::MemoryView& v) {
    aicore::sem::set_kernel_level(level);
    bench::run_sem(c, v);
    aicore::sem::set_kernel_level(aicore::sem::KernelLevel::Native);
  };
}
const Kernel kNative = at_level(aicore::sem::KernelLevel::Native);
const Kernel kPortable = at_level(aicore::sem::KernelLevel::Portable);

// A fast kernel is only worth timing if it is bit-exact: compare the native L0C with the
// portable one on random L0 bytes, odd shapes (partial fractals), accumulation, and (sparse)
// index pairs that collide. (tests/semantics checks both against a naive reference.)
bool same_l0c(CubeCase c, const Kernel& k, const char* what) {
  CubeCase ref = c;
  kPortable(ref, ref.view());
  k(c, c.view());
  const bool ok = c.l0c == ref.l0c;
  std::printf("check %-44s %s\n", what, ok ? "bit-exact" : "MISMATCH");
  return ok;
}

bool check_kernels() {
  std::mt19937 rng(99);
  bool ok = true;
  struct Shape {
    uint16_t m, k, n;
    bool random_bytes;  // false: densified 4:2 data as gen makes it; true: any legal L0 bytes
  };
  for (const Shape& sh : {Shape{128, 512, 256, false}, Shape{128, 512, 256, true}, Shape{33, 100, 17, true},
                          Shape{16, 4, 16, true}}) {
    const uint16_t m = sh.m, k = sh.k, n = sh.n;
    CubeCase c = bench::make_sparse(128, 512, 256, 5);
    if (sh.random_bytes) {
      for (auto& x : c.l0a) x = static_cast<uint8_t>(rng());
      for (auto& x : c.l0b) x = static_cast<uint8_t>(rng());
      for (auto& x : c.l0c) x = static_cast<uint8_t>(rng());
      for (auto& x : c.idx) {  // every 2-bit field in 0..2 (3 is a fault); (2, 0) pairs collide
        x = 0;
        for (int f = 0; f < 4; ++f) x = static_cast<uint8_t>(x | (rng() % 3) << (2 * f));
      }
    }
    for (auto* op : {static_cast<aicore::isa::MmadCommon*>(&c.dense_op),
                     static_cast<aicore::isa::MmadCommon*>(&c.sparse_op)}) {
      op->m = m, op->k = k, op->n = n;
      op->cmatrixInitVal = (m != 33);  // the odd shape also accumulates onto L0C
    }
    if (uint32_t{k} * n > 64 * 1024) c.dense_op.k = k / 2;  // dense B must fit L0B: 128x256x256
    const std::string shape = std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
                              (sh.random_bytes ? " rnd" : "");
    for (bool sparse : {false, true}) {
      c.sparse = sparse;
      const std::string s = (sparse ? "sparse " : "dense k=" + std::to_string(c.dense_op.k) + " ") + shape;
      ok &= same_l0c(c, kNative, (s + " native vs portable").c_str());
    }
  }
  // Dense: our result equals oneDNN's on the same operands (both are exact int32 GEMMs).
  CubeCase d = bench::make_dense(128, 256, 128, 3);
  kNative(d, d.view());
  bench::OnednnGemm g(d.a_rm, d.b_rm, d.M, d.K, d.N);
  g.run();
  bool same = true;
  for (uint32_t m = 0; m < d.M; ++m)
    for (uint32_t n = 0; n < d.N; ++n) {
      int32_t v;  // Nz: fractal (n1, m1) of 16 x 16 int32
      std::memcpy(&v, d.l0c.data() + ((n / 16) * (d.M / 16) + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4,
                  4);
      same &= v == g.c()[size_t{m} * d.N + n];
    }
  std::printf("check %-44s %s\n", "dense 128x256x128 sem vs oneDNN", same ? "bit-exact" : "MISMATCH");
  return ok && same;
}

// ratio = oneDNN time / our time for the same instruction, i.e. our speed as a fraction of
// oneDNN's (> 1: ours is faster). Silent when a benchmark was filtered out.
void print_ratio(const std::string& label, const std::string& ours, const std::string& theirs) {
  const auto a = g_seconds.find(ours), b = g_seconds.find(theirs);
  if (a != g_seconds.end() && b != g_seconds.end())
    std::printf("ratio %s = %.2f\n", label.c_str(), b->second / a->second);
}

void print_host() {
  std::printf("host: native int8 kernel %s, native sparse kernel %s\n",
              aicore::sem::native_int8_available() ? "yes (AVX-512 VNNI)" : "no (portable C++)",
              aicore::sem::native_sparse_available() ? "yes (AVX-512 VNNI + VBMI)" : "no (portable C++)");
}

// Fixpipe of a full 128 x 256 L0C tile to GM in each output type: the conversions of
// src/semantics/convert.cpp (tests/semantics checks them bit for bit against a reference).
void register_fixpipe(const char* name, aicore::isa::QuantMode mode, aicore::isa::DType cells) {
  benchmark::RegisterBenchmark(name, [mode, cells](benchmark::State& st) {
    std::vector<uint8_t> l0c(128 * 1024), gm(128 * 1024);
    std::mt19937 rng(5);
    for (size_t i = 0; i < l0c.size(); i += 4) {
      const float f = static_cast<float>(static_cast<int32_t>(rng()) >> 12) / 64.0f;
      const int32_t v = static_cast<int32_t>(rng()) >> 16;
      if (cells == aicore::isa::DType::Float)
        std::memcpy(&l0c[i], &f, 4);
      else
        std::memcpy(&l0c[i], &v, 4);
    }
    aicore::sem::MemoryView view;
    view.attach(aicore::isa::Space::L0C, l0c.data(), l0c.size());
    view.attach_gm(0, gm.data(), gm.size());
    aicore::isa::Fixpipe op;
    op.dst = {aicore::isa::Space::GM, 0, 0};
    op.src = {aicore::isa::Space::L0C, 0, 0};
    op.dtype = cells;
    op.quantPre = mode;
    op.deqScalar = 0x3E800000u | uint64_t{1} << 46;  // scale 0.25, int8 results
    op.nSize = 256;
    op.mSize = 128;
    op.srcStride = 128;
    op.dstStride = 256;
    for (auto _ : st) {
      aicore::sem::fixpipe(op, view);
      benchmark::DoNotOptimize(gm.data());
      benchmark::ClobberMemory();
    }
    st.counters["Gcells/s"] =
        benchmark::Counter(128.0 * 256 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  print_host();
  bench::onednn_single_thread();
  std::printf(
      "oneDNN %s: s8 x s8 -> s32 matmul, row-major A/B/C (weights not prepacked), primitive built once;"
      " threads %d (OpenMP omp_set_num_threads(1): our kernels are single-threaded)\n",
      bench::onednn_version().c_str(), bench::onednn_max_threads());
  if (!check_kernels()) return 1;

  const CubeCase sparse = bench::make_sparse(128, 512, 256, 1);  // full L0A, L0B and L0C
  const CubeCase dense = bench::make_dense(128, 256, 128, 2);
  register_ours("sparse_mmad/128x512x256", sparse, kNative);
  register_ours("sparse_mmad_portable/128x512x256", sparse, kPortable);
  register_onednn("onednn_s8/128x256x256(compressed)", sparse);
  register_ours("dense_mmad/128x256x128", dense, kNative);
  register_ours("dense_mmad_portable/128x256x128", dense, kPortable);
  register_onednn("onednn_s8/128x256x128", dense);
  using aicore::isa::DType;
  using aicore::isa::QuantMode;
  register_fixpipe("fixpipe/128x256 NoQuant int32", QuantMode::NoQuant, DType::Int32);
  register_fixpipe("fixpipe/128x256 F322F16", QuantMode::F322F16, DType::Float);
  register_fixpipe("fixpipe/128x256 F322BF16", QuantMode::F322BF16, DType::Float);
  register_fixpipe("fixpipe/128x256 DEQF16", QuantMode::DEQF16, DType::Int32);
  register_fixpipe("fixpipe/128x256 REQ8", QuantMode::REQ8, DType::Int32);
  register_fixpipe("fixpipe/128x256 QF322B8_PRE", QuantMode::QF322B8_PRE, DType::Float);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  CapturingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  // Sparse compares against the compressed M x K/2 x N GEMM: the MACs the Cube really does.
  const std::string onednn_sparse = "onednn_s8/128x256x256(compressed)",
                    onednn_dense = "onednn_s8/128x256x128";
  std::printf("\n");
  print_ratio("sparse_mmad/onednn_s8(compressed MxK/2xN)", "sparse_mmad/128x512x256", onednn_sparse);
  print_ratio("dense_mmad/onednn_s8(MxKxN)", "dense_mmad/128x256x128", onednn_dense);
  print_ratio("sparse_mmad_portable/onednn_s8(compressed MxK/2xN)", "sparse_mmad_portable/128x512x256",
              onednn_sparse);
  print_ratio("dense_mmad_portable/onednn_s8(MxKxN)", "dense_mmad_portable/128x256x128", onednn_dense);
  return 0;
}
