#include "aicore/sweep/generate.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "aicore/gen/cli.hpp"
#include "aicore/sweep/record.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> gen_args(const GenCase& c, const fs::path& dir) {
  std::vector<std::string> a = {"--m",
                                std::to_string(c.m),
                                "--k",
                                std::to_string(c.k),
                                "--n",
                                std::to_string(c.n),
                                c.sparse ? "--sparse" : "--dense",
                                "--seed",
                                std::to_string(c.seed),
                                "--name",
                                c.name,
                                "--out",
                                dir.string(),
                                "--no-originals"};
  if (c.tile_m) a.insert(a.end(), {"--tile-m", std::to_string(c.tile_m)});
  if (c.tile_k) a.insert(a.end(), {"--tile-k", std::to_string(c.tile_k)});
  if (c.tile_n) a.insert(a.end(), {"--tile-n", std::to_string(c.tile_n)});
  return a;
}

std::string joined(const std::vector<std::string>& a) {
  std::string s;
  for (const auto& x : a) s += x + "\n";
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

size_t generate_cases(const Plan& plan) {
  size_t made = 0;
  for (const Input& in : plan.inputs) {
    if (in.gen < 0) continue;
    const GenCase& c = plan.study.gen[static_cast<size_t>(in.gen)];
    const fs::path dir = fs::path(in.path).parent_path();
    const std::vector<std::string> args = gen_args(c, dir);
    const fs::path stamp = dir / ".gen-args";
    std::error_code ec;
    if (fs::is_regular_file(in.path, ec) && slurp(stamp) == joined(args)) continue;
    fs::create_directories(dir, ec);
    std::ostringstream out, gen_err;
    if (gen::gen_main(args, out, gen_err) != 0)
      throw InputError(c.loc, "gen case " + c.name + " failed: " + gen_err.str());
    write_atomically(stamp.string(), joined(args));
    ++made;
  }
  return made;
}

}  // namespace aicore::sweep
