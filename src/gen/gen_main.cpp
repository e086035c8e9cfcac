// `gen`: random (or given) int8 GEMM -> trace + GM images + independent golden.
#include <filesystem>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/gen/args.hpp"
#include "aicore/gen/case.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/gen/matrix_io.hpp"
#include "aicore/gen/random.hpp"

namespace aicore::gen {

const char* gen_synopsis() {
  return "gen --m M --k K --n N (--sparse | --dense) --out DIR [options]";
}

const char* gen_summary() {
  return "generate an int8 GEMM case: trace, GM images and an independent golden result";
}

const char* matmul_synopsis() {
  return "gen --dtype half|bf16 --m M --k K --n N --out DIR [options]";
}

const char* matmul_summary() {
  return "generate the best-practice fp16/bf16 matmul kernel: trace, GM images and a golden result";
}

std::string gen_usage(const std::string& program) {
  return "usage: " + program + " " + gen_synopsis() + "\n" + gen_summary() + "\n" +
         "  Writes DIR/NAME.trace, a.bin (A row-major), b.bin (B' or B in Zn fractals), idx.bin (sparse),\n"
         "  c_golden.bin (M x ceil16(N) int32, from a naive reference) and a.npy, b_sparse.npy|b.npy.\n"
         "  --seed S            random seed (default 1); the same command reproduces the same files\n"
         "  --name NAME         trace file name (default: the last component of DIR)\n"
         "  --a FILE.npy        use this int8 M x K A instead of random data\n"
         "  --b FILE.npy        use this int8 K x N B (original, before densification)\n"
         "  --tile-m/--tile-n/--tile-k T   force the tiled, double-buffered form with these tiles\n"
         "                      (default: one tile when the problem fits L0A/L0B/L0C, else 128x128x256)\n"
         "  --l1-full           copy A and B whole into L1 once (they must fit) and load every tile from\n"
         "                      there, instead of copying each tile's chunks from GM\n"
         "  --pattern 4:2|full  random B values: 4:2 groups (default with --sparse) or every element\n"
         "                      (default with --dense)\n"
         "  --density D         4:2: chance each of a group's two slots is non-zero (default 0.75);\n"
         "                      full: chance an element is non-zero (default 1 = any value)\n"
         "  --lossy P           4:2: chance a group gets 3-4 non-zeros (dropped by densify; default 0)\n"
         "  --no-originals      do not write a.npy / b_sparse.npy / b.npy\n"
         "\n"
         "usage: " +
         program + " " + matmul_synopsis() +
         "\n"
         "  The best-practice fp16/bf16 matmul kernel: C (M x N) = A x B in base blocks, DataCopyNd2Nz\n"
         "  into double-buffered L1, LoadData into double-buffered L0A/L0B, L0C accumulation over K (fp32),\n"
         "  one Fixpipe per block converting C to its type. M, K, N multiples of 16. Writes DIR/NAME.trace,\n"
         "  a.bin, b.bin, c_golden.bin.\n"
         "  --c-dtype half|bf16|float  the type of C in GM (default: the input type, as the best-practice\n"
         "                      kernel writes fp16 C; float: the fp32 L0C cells as they are)\n"
         "  --template norm|mdl the Matmul API template: norm (default) or mdl; mdl only turns\n"
         "                      --unit-flag's default off, as GetMDLConfig does\n"
         "  --unit-flag on|off  hand L0C to Fixpipe by unitFlag (on: the norm default) or by M_FIX /\n"
         "                      FIX_M flags (off: the mdl default)\n"
         "  --step-ka S, --step-kb S  big packets: one GM -> L1 copy carries S base-K blocks of A / B\n"
         "                      (default 1)\n"
         "  --depth-a1 D, --depth-b1 D  base blocks of A / B held in L1: D / S packets in a ring (1-4;\n"
         "                      default --l1-buffers x S)\n"
         "  --l2-rounds R       cut C's rows into R rounds, each split over the cores like the whole, so\n"
         "                      that one round's reads fit L2 (default 1)\n"
         "  --a-load 2d|load3d  A L1 -> L0A by LoadData 2D per fractal row or column (2d, default) or by\n"
         "                      one LoadData3DV2 (Load3Dv2) per K step (load3d)\n"
         "  --iterate-order n|m C's base blocks along N first (n, default: ORDER_N) or along M first (m:\n"
         "                      ORDER_M)\n"
         "  --bias float|half   C = bias + A x B: a GM tensor bias of N elements (bias.bin), each block's\n"
         "                      copied GM -> L1 -> bias table before its first Mmad (base n <= 256)\n"
         "  --b-layout nd|nt    B as K x N row-major (nd) or N x K row-major, B transposed (nt, default)\n"
         "  --base MxNxK        base block base_m x base_n x base_k (default 128x256x64)\n"
         "  --l1-buffers 1|2    L1 slots (default 2); --l0-buffers 1|2: L0A/L0B slots (default 2)\n"
         "  --values exact|random  exact (default): multiples of 1/8, .expect is bit-exact; random: uniform\n"
         "                      in [-1, 1), .out c.bin to compare with c_golden.bin within c_tolerance.bin\n"
         "  --timing-only       the trace alone, no data files (GM tensors start as zeros)\n"
         "  --blocks N          with --timing-only: only the first N output blocks (they all cost the "
         "same)\n"
         "  --cores N --split MxN  N cores (N = M x N parts of C): DIR/kernel.yaml and DIR/coreI.trace;\n"
         "                      core I computes part (I / N, I % N), parts 16-aligned, the last ones "
         "shorter\n"
         "\n"
         "usage: " +
         program +
         " gen --stream --m ROWS --n COLS --out DIR [options]\n"
         "  GM -> L1 streaming: one fp16 ROWS x COLS ND matrix, its tiles dealt to the cores in\n"
         "  contiguous runs, each copied into L1 with DataCopyNd2Nz (nothing computed); timing only.\n"
         "  --tile RxC          tile rows x columns, multiples of 16 (default 64x256); the last tile\n"
         "                      column takes what is left of COLS (any COLS: unaligned rows too)\n"
         "  --cores N           cores (default 1): DIR/kernel.yaml and DIR/coreI.trace\n"
         "  --rounds R          read the whole matrix R times (default 1)\n"
         "  --slices S          cut the columns into S slices, each read R times before the next\n"
         "                      (L2 reuse; default 1)\n";
}

namespace {

constexpr uint64_t kMaxDim = 1u << 20;

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
        const std::string& program) {
  const Args args("gen", argv,
                  {"m", "k", "n", "seed", "out", "name", "a", "b", "tile-m", "tile-n", "tile-k", "density",
                   "pattern", "lossy"},
                  {"sparse", "dense", "no-originals", "l1-full", "help"});
  if (args.flag("help")) {
    out << gen_usage(program);
    return 0;
  }
  if (args.flag("sparse") == args.flag("dense")) args.fail("give exactly one of --sparse and --dense");
  if (!args.has("out")) args.fail("--out DIR is required");
  GemmShape shape;
  shape.sparse = args.flag("sparse");
  shape.M = static_cast<uint32_t>(args.uint("m", 0, 1, kMaxDim));
  shape.K = static_cast<uint32_t>(args.uint("k", 0, 1, kMaxDim));
  shape.N = static_cast<uint32_t>(args.uint("n", 0, 1, kMaxDim));

  I8Matrix a, b;
  if (args.has("a")) {
    a = load_i8_matrix(args.str("a"), shape.M, shape.K, "--a");
    shape.M = a.rows;
    shape.K = a.cols;
  }
  if (args.has("b")) {
    b = load_i8_matrix(args.str("b"), shape.K, shape.N, "--b");
    shape.K = b.rows;
    shape.N = b.cols;
  }
  if (!shape.M || !shape.K || !shape.N) args.fail("--m, --k and --n are required (or give --a / --b)");

  const std::string pattern = args.str("pattern", shape.sparse ? "4:2" : "full");
  if (pattern != "4:2" && pattern != "full")
    args.fail("--pattern must be 4:2 or full, not '" + pattern + "'");
  if (pattern == "4:2" && shape.K % 4) args.fail("--pattern 4:2 needs K a multiple of 4");
  const double density = args.real("density", pattern == "4:2" ? 0.75 : 1.0, 0.0, 1.0);
  const double lossy = args.real("lossy", 0.0, 0.0, 1.0);
  const TileRequest tiles{static_cast<uint32_t>(args.uint("tile-m", 0, 16, 4080)),
                          static_cast<uint32_t>(args.uint("tile-n", 0, 16, 4080)),
                          static_cast<uint32_t>(args.uint("tile-k", 0, 32, 4064)), args.flag("l1-full")};
  const Plan plan = make_plan(shape, tiles);

  // A is drawn first, then B: the same seed gives the same A and B whether --sparse or
  // --dense, which is what makes a sparse/dense pair comparable.
  Rng rng(args.uint("seed", 1, 0, UINT64_MAX));
  if (a.data.empty()) a.data = random_i8(rng, uint64_t{shape.M} * shape.K);
  if (b.data.empty())
    b.data = pattern == "4:2" ? random_sparse_b(rng, shape.K, shape.N, density, lossy)
                              : random_i8(rng, uint64_t{shape.K} * shape.N, density);

  const GemmCase c = build_case(plan, std::move(a.data), std::move(b.data));
  const std::string dir = args.str("out");
  std::string name = args.str("name", std::filesystem::path(dir).lexically_normal().filename().string());
  if (name.empty() || name == "." || name == "..") name = "gemm";

  std::string command = "gen";
  for (const auto& s : argv) command += " " + s;
  std::vector<std::string> header = {"generated by: aicore-sim " + command, plan.describe()};
  if (shape.sparse) {
    header.push_back("4:2 groups " + std::to_string(c.loss.groups) + ", lossy groups (3-4 non-zeros) " +
                     std::to_string(c.loss.lossy_groups) + ", dropped values " +
                     std::to_string(c.loss.dropped_values));
  }
  const auto files = write_case(c, dir, name, header, !args.flag("no-originals"));

  out << plan.describe() << "\n" << c.program.size() << " instructions\n";
  for (size_t i = 2; i < header.size(); ++i) out << header[i] << "\n";
  if (c.loss.lossy_groups) {
    err << "warning: " << c.loss.lossy_groups << " groups of B have more than 2 non-zeros; "
        << c.loss.dropped_values
        << " values are dropped by densification (the golden uses the kept values only)\n";
    for (const auto& e : c.loss.examples) err << "  " << e << "\n";
  }
  for (const auto& f : files) out << "wrote " << f << "\n";
  return 0;
}

}  // namespace

int gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
             const std::string& program) {
  if (is_matmul_request(args)) return matmul_gen_main(args, out, err, program);
  if (is_stream_request(args)) return stream_gen_main(args, out, err, program);
  return run_guarded(err, program, [&] { return run(args, out, err, program); });
}

int run_guarded(std::ostream& err, const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    err << e.what() << "\n";
    if (e.loc().file == "gen") err << gen_usage(program);
  } catch (const std::exception& e) {
    err << "gen: error: " << e.what() << "\n";
  }
  return 2;
}

}  // namespace aicore::gen
