// The study's gen: block: GEMM shapes, kinds, tilings and seeds whose every combination becomes a
// case made by the generator. Checked here with the generator's own planner, so a tile it would
// refuse is a study error before anything runs.
#include <algorithm>
#include <set>

#include "aicore/gen/gemm.hpp"
#include "yaml_util.hpp"

namespace aicore::sweep::detail {

namespace {

constexpr uint64_t kMaxDim = 1u << 20;  // as `aicore-sim gen`

struct Dims {
  uint32_t m = 0, k = 0, n = 0;
};

class GenParser {
 public:
  GenParser(const std::string& file, ErrorSink& errors) : file_(file), errors_(errors) {}

  void block(const YAML::Node& node, const SourceLoc& loc, Study& s) {
    if (!node.IsMap()) {
      errors_.add(loc, "gen must be a mapping {shape, kind, tile, seed} (or a list of them), not " +
                           std::string(kind(node)));
      return;
    }
    std::vector<Dims> shapes, tiles = {Dims{}};
    std::vector<bool> kinds = {true};
    std::vector<uint64_t> seeds = {1};
    bool has_shape = false;
    for (const Entry& e : entries(node, file_, " (under 'gen')", errors_)) {
      if (e.key == "shape") {
        shapes = dims_list(e, "shape", false);
        has_shape = true;
      } else if (e.key == "tile") {
        tiles = dims_list(e, "tile", true);
      } else if (e.key == "kind") {
        kinds = kind_list(e);
      } else if (e.key == "seed") {
        seeds = seed_list(e);
      } else {
        static const std::vector<std::string> keys = {"shape", "kind", "tile", "seed"};
        const std::string near = nearest_word(e.key, keys);
        errors_.add(e.key_loc, "unknown gen key '" + e.key + "'" +
                                   (near.empty() ? "" : "; did you mean '" + near + "'?") +
                                   " (keys: shape, kind, tile, seed)");
      }
    }
    if (!has_shape) errors_.add(loc, "gen needs shape: [M, K, N] (or a list of them)");
    for (const Dims& sh : shapes)
      for (bool sparse : kinds)
        for (const Dims& t : tiles)
          for (uint64_t seed : seeds) add_case(sh, sparse, t, seed, loc, s);
  }

 private:
  // [M, K, N] or a list of them; tiles may also be `default` (the generator's choice).
  std::vector<Dims> dims_list(const Entry& e, const std::string& what, bool allow_default) {
    const YAML::Node& v = e.value;
    const bool single =
        (v.IsScalar()) || (v.IsSequence() && v.size() == 3 && v[0].IsScalar() && v[0].Scalar() != "default");
    std::vector<Dims> out;
    if (single) {
      if (auto d = dims(v, what, allow_default)) out.push_back(*d);
      return out;
    }
    if (!v.IsSequence() || v.size() == 0) {
      errors_.add(e.value_loc, "gen " + what + " must be [M, K, N] or a list of them");
      return out;
    }
    for (const YAML::Node& one : v)
      if (auto d = dims(one, what, allow_default)) out.push_back(*d);
    return out;
  }

  std::optional<Dims> dims(const YAML::Node& v, const std::string& what, bool allow_default) {
    if (allow_default && v.IsScalar() && v.Scalar() == "default") return Dims{};
    if (!v.IsSequence() || v.size() != 3) {
      errors_.add(at(file_, v), "gen " + what + " must be [M, K, N]" + (allow_default ? " or default" : ""));
      return std::nullopt;
    }
    uint64_t x[3] = {0, 0, 0};
    for (size_t i = 0; i < 3; ++i) {
      if (!v[i].IsScalar() || !YAML::convert<uint64_t>::decode(v[i], x[i]) || x[i] < 1 || x[i] > kMaxDim) {
        errors_.add(at(file_, v[i]), "gen " + what + ": " + "MKN"[i] +
                                         std::string(" must be an integer in 1..") + std::to_string(kMaxDim));
        return std::nullopt;
      }
    }
    return Dims{static_cast<uint32_t>(x[0]), static_cast<uint32_t>(x[1]), static_cast<uint32_t>(x[2])};
  }

  std::vector<bool> kind_list(const Entry& e) {
    std::vector<bool> out;
    for (const Scalar& k : scalar_list(e, file_, "gen kind", errors_)) {
      if (k.text == "sparse" || k.text == "dense") {
        out.push_back(k.text == "sparse");
        continue;
      }
      static const std::vector<std::string> kinds = {"sparse", "dense"};
      const std::string near = nearest_word(k.text, kinds);
      errors_.add(k.loc, "gen kind must be sparse (4:2) or dense, not '" + k.text + "'" +
                             (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    return out;
  }

  std::vector<uint64_t> seed_list(const Entry& e) {
    std::vector<uint64_t> out;
    for (const Scalar& s : scalar_list(e, file_, "gen seed", errors_)) {
      uint64_t x = 0;
      if (YAML::convert<uint64_t>::decode(YAML::Node(s.text), x))
        out.push_back(x);
      else
        errors_.add(s.loc, "gen seed must be a non-negative integer, not '" + s.text + "'");
    }
    return out;
  }

  static std::string dims_text(const Dims& d) {
    return std::to_string(d.m) + "x" + std::to_string(d.k) + "x" + std::to_string(d.n);
  }

  void add_case(const Dims& sh, bool sparse, const Dims& t, uint64_t seed, const SourceLoc& loc, Study& s) {
    GenCase c;
    c.m = sh.m;
    c.k = sh.k;
    c.n = sh.n;
    c.sparse = sparse;
    c.tile_m = t.m;
    c.tile_k = t.k;
    c.tile_n = t.n;
    c.seed = seed;
    c.loc = loc;
    const bool tiled = t.m || t.k || t.n;
    c.name = std::string(sparse ? "sparse_" : "dense_") + dims_text(sh) + (tiled ? "_t" + dims_text(t) : "") +
             (seed != 1 ? "_s" + std::to_string(seed) : "");
    c.columns = {{"gen.shape", dims_text(sh)},
                 {"gen.kind", sparse ? "sparse" : "dense"},
                 {"gen.tile", tiled ? dims_text(t) : "default"},
                 {"gen.seed", std::to_string(seed)}};
    if (sparse && sh.k % 4) {
      errors_.add(loc, "gen: a sparse (4:2) case needs K a multiple of 4, not " + std::to_string(sh.k));
      return;
    }
    try {  // the generator's own checks: tile limits, buffer fits
      gen::make_plan(gen::GemmShape{sh.m, sh.k, sh.n, sparse}, gen::TileRequest{t.m, t.n, t.k});
    } catch (const InputError& e) {
      errors_.add(loc, "gen case " + c.name + ": " + e.message());
      return;
    }
    for (const GenCase& other : s.gen)
      if (other.name == c.name) {
        errors_.add(loc, "gen case " + c.name + " is listed twice");
        return;
      }
    s.gen.push_back(std::move(c));
  }

  const std::string& file_;
  ErrorSink& errors_;
};

}  // namespace

void parse_gen(const Entry& e, const std::string& file, Study& s, ErrorSink& errors) {
  GenParser p(file, errors);
  if (e.value.IsSequence()) {
    if (e.value.size() == 0) errors.add(e.value_loc, "gen is an empty list");
    for (const YAML::Node& block : e.value) p.block(block, at(file, block), s);
  } else {
    p.block(e.value, e.value_loc, s);
  }
  // Columns that vary are swept keys of the study (results table, sensitivity, plots).
  s.gen_swept.clear();
  for (const char* col : {"gen.shape", "gen.kind", "gen.tile", "gen.seed"}) {
    std::set<std::string> seen;
    for (const GenCase& c : s.gen)
      for (const auto& [name, value] : c.columns)
        if (name == col) seen.insert(value);
    if (seen.size() > 1) s.gen_swept.push_back(col);
  }
}

}  // namespace aicore::sweep::detail
