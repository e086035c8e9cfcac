// `densify`: 4:2 sparse int8 B (K x N) -> dense B' (Zn .bin) + packed 2-bit indexes (.bin).
// Data that does not fit the 4:2 rule (3-4 non-zeros in a group) is always reported;
// --strict turns it into an error.
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/gen/args.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/gen/matrix_io.hpp"
#include "aicore/gen/reference.hpp"
#include "aicore/semantics/sparsity.hpp"

namespace aicore::gen {

const char* densify_synopsis() {
  return "densify INPUT [--k K --n N] --b-out B.bin --idx-out IDX.bin [--kept-out KEPT.npy] [--strict]";
}

const char* densify_summary() {
  return "4:2-densify a sparse int8 weight matrix into B' and its 2-bit indexes";
}

std::string densify_usage(const std::string& program) {
  return "usage: " + program + " " + densify_synopsis() + "\n" + densify_summary() + "\n" +
         "  INPUT (or --in INPUT) is the original sparse B, K x N int8: a .npy, or raw row-major bytes\n"
         "  (then --k and --n).\n"
         "  --b-out     dense B' (K/2 x N) in Zn fractals, raw, zero padded to whole 512 B fractals\n"
         "  --idx-out   2-bit indexes, 128 B per B' fractal (docs/semantics.md §5)\n"
         "  --kept-out  K x N int8 .npy of what the Cube effectively multiplies (dropped values zeroed)\n"
         "  --strict    refuse input with 3-4 non-zeros in a group (exit 2) instead of dropping values\n";
}

namespace {

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
        const std::string& program) {
  const Args args("densify", argv, {"k", "n", "b-out", "idx-out", "kept-out", "in"}, {"strict", "help"}, 1);
  if (args.flag("help")) {
    out << densify_usage(program);
    return 0;
  }
  std::string input = args.str("in");
  if (!args.positional().empty()) {
    if (!input.empty()) args.fail("give the input once (positional or --in)");
    input = args.positional()[0];
  }
  if (input.empty()) args.fail("no input file");
  if (!args.has("b-out") || !args.has("idx-out")) args.fail("--b-out and --idx-out are required");
  const auto k = static_cast<uint32_t>(args.uint("k", 0, 4, 1u << 20));
  const auto n = static_cast<uint32_t>(args.uint("n", 0, 1, 1u << 20));
  const I8Matrix b = load_i8_matrix(input, k, n, "input B");
  if (b.rows % 4)
    throw InputError(SourceLoc{input},
                     "4:2 densify needs K (rows) a multiple of 4, got " + std::to_string(b.rows));

  const LossReport loss = sparsity_loss(b.data.data(), b.rows, b.cols);
  out << "B: " << b.rows << " x " << b.cols << " int8 from " << input << "\n"
      << "groups: " << loss.groups << "\n"
      << "lossy groups (3-4 non-zeros): " << loss.lossy_groups << "\n"
      << "dropped values: " << loss.dropped_values << "\n";
  if (loss.lossy_groups) {
    for (const auto& e : loss.examples) err << "  " << e << "\n";
    if (args.flag("strict")) {
      err << "densify: error: " << loss.lossy_groups << " groups have more than 2 non-zeros ("
          << loss.dropped_values
          << " values would be dropped); --strict forbids lossy input, nothing written\n";
      return 2;
    }
    err << "warning: " << loss.dropped_values << " non-zero values in " << loss.lossy_groups
        << " groups are dropped (only the first two non-zeros of each group of 4 are kept)\n";
  }

  const sem::DensifiedB d = sem::densify_4to2(b.data.data(), b.rows, b.cols);
  save_bin(args.str("b-out"), d.dense_zn.data(), d.dense_zn.size());
  save_bin(args.str("idx-out"), d.index.data(), d.index.size());
  out << "wrote B' (" << b.rows / 2 << " x " << b.cols << ", Zn, " << d.dense_zn.size() << " bytes) to "
      << args.str("b-out") << "\n"
      << "wrote indexes (" << d.index.size() << " bytes) to " << args.str("idx-out") << "\n";
  if (args.has("kept-out")) {
    save_i8_npy(args.str("kept-out"), d.kept, b.rows, b.cols);
    out << "wrote kept matrix (" << b.rows << " x " << b.cols << " int8) to " << args.str("kept-out") << "\n";
  }
  return 0;
}

}  // namespace

int densify_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 const std::string& program) {
  try {
    return run(args, out, err, program);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    if (e.loc().file == "densify") err << densify_usage(program);
  } catch (const std::exception& e) {
    err << "densify: error: " << e.what() << "\n";
  }
  return 2;
}

}  // namespace aicore::gen
