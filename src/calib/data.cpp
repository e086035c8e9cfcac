// The measured-data CSV (data.hpp): tables of microbenchmark and kernel rows, checked cell by cell.
#include "aicore/calib/data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "aicore/calib/bench.hpp"
#include "aicore/common/read_capped.hpp"

namespace aicore::calib {

const std::array<const char*, kKernelPipeCount> kKernelPipeColumns = {
    "aic_mac_us", "aic_mte2_us", "aic_mte1_us", "aic_fixpipe_us", "aic_scalar_us"};
const std::array<const char*, kKernelPipeCount> kKernelPipeNames = {"M", "MTE2", "MTE1", "FIX", "S"};

namespace {

constexpr size_t kMaxFileBytes = 4 << 20;
constexpr size_t kMaxRows = 10000;
constexpr uint64_t kMaxCount = 65536;  // instructions per microbenchmark: seconds of simulation at most

const std::vector<std::string> kMicroRequired = {"kind", "dst", "param", "count", "value", "unit"};
const std::vector<std::string> kMicroOptional = {"set", "fields"};
const std::vector<std::string> kKernelRequired = {"kernel", "cores",  "m",      "k",      "n",
                                                  "base_m", "base_n", "base_k", "task_us"};
const std::vector<std::string> kKernelOptional = {
    "dtype",     "aic_mac_us", "aic_mte2_us", "aic_mte1_us", "aic_fixpipe_us", "aic_scalar_us",
    "aicore_us", "b_layout",   "l1_buffers",  "l0_buffers",  "unit_flag",      "c_dtype",
    "set",       "split_m",    "split_n",     "template",    "depth_a1",       "step_ka",
    "depth_b1",  "step_kb",    "l2_rounds",   "a_load"};

// Memory rows: the 24-core GM -> L1 streaming kernel (gen --stream).
const std::vector<std::string> kMemoryRequired = {"scenario", "cores", "rows", "cols", "task_us"};
const std::vector<std::string> kMemoryOptional = {"tile_rows", "tile_cols",   "aligned", "rounds",
                                                  "slices",    "aic_mte2_us", "l2_hit",  "set"};

struct Cell {
  std::string text;
  uint32_t column = 0;  // 1-based
};

std::vector<Cell> split(const std::string& line) {
  std::vector<Cell> cells;
  size_t start = 0;
  for (;;) {
    const size_t end = std::min(line.find(',', start), line.size());
    size_t a = start, b = end;
    while (a < b && (line[a] == ' ' || line[a] == '\t')) ++a;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t' || line[b - 1] == '\r')) --b;
    cells.push_back({line.substr(a, b - a), static_cast<uint32_t>(a + 1)});
    if (end == line.size()) break;
    start = end + 1;
  }
  return cells;
}

std::vector<std::string> all_of(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> v = a;
  v.insert(v.end(), b.begin(), b.end());
  return v;
}

std::string near_hint(const std::string& word, const std::vector<std::string>& words) {
  const std::string n = nearest_word(word, words);
  return n.empty() ? "" : "; did you mean '" + n + "'?";
}

std::string list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// One table: its header's column positions; a row's cells by column name.
class Table {
 public:
  Table(const std::vector<Cell>& header, const SourceLoc& loc, const std::vector<std::string>& required,
        const std::vector<std::string>& optional) {
    const std::vector<std::string> known = all_of(required, optional);
    for (size_t i = 0; i < header.size(); ++i) {
      const Cell& c = header[i];
      const SourceLoc at{loc.file, loc.line, c.column};
      if (std::find(known.begin(), known.end(), c.text) == known.end())
        throw InputError(at, "unknown column '" + c.text + "'" + near_hint(c.text, known) +
                                 " (columns: " + list(known) + ")");
      if (index_.count(c.text)) throw InputError(at, "column '" + c.text + "' appears twice");
      index_[c.text] = i;
    }
    for (const std::string& r : required)
      if (!index_.count(r))
        throw InputError(SourceLoc{loc.file, loc.line, 1},
                         "the header lacks the column '" + r + "' (required: " + list(required) + ")");
    width_ = header.size();
  }
  size_t width() const { return width_; }
  bool has(const std::string& col) const { return index_.count(col) != 0; }
  size_t at(const std::string& col) const { return index_.at(col); }

 private:
  std::map<std::string, size_t> index_;
  size_t width_ = 0;
};

class RowReader {
 public:
  RowReader(const Table& t, const std::vector<Cell>& cells, const SourceLoc& loc)
      : t_(t), cells_(cells), loc_(loc) {}

  bool has(const std::string& col) const { return t_.has(col) && !cells_[t_.at(col)].text.empty(); }
  const std::string& text(const std::string& col) const { return cells_[t_.at(col)].text; }
  SourceLoc where(const std::string& col) const { return {loc_.file, loc_.line, cells_[t_.at(col)].column}; }

  std::string word(const std::string& col) const {
    if (!has(col)) throw InputError(where(col), "column '" + col + "' is empty");
    return text(col);
  }
  uint64_t uint(const std::string& col, uint64_t lo, uint64_t hi) const {
    const std::string& s = word(col);
    if (s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(where(col), "'" + col + "' must be a whole number, not '" + s + "'");
    const uint64_t v = std::stoull(s);
    if (v < lo || v > hi)
      throw InputError(where(col), "'" + col + "' must be in " + std::to_string(lo) + ".." +
                                       std::to_string(hi) + " (got " + s + ")");
    return v;
  }
  double positive(const std::string& col) const {
    const std::string& s = word(col);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    const bool plain = s.find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (!plain || end != s.c_str() + s.size() || !std::isfinite(v))
      throw InputError(where(col), "'" + col + "' must be a number, not '" + s + "'");
    if (v <= 0) throw InputError(where(col), "'" + col + "' must be > 0 (got " + s + ")");
    return v;
  }
  std::string one_of(const std::string& col, const std::vector<std::string>& words) const {
    const std::string& s = word(col);
    if (std::find(words.begin(), words.end(), s) == words.end())
      throw InputError(where(col), "'" + col + "' must be one of " + list(words) + ", not '" + s + "'" +
                                       near_hint(s, words));
    return s;
  }
  RowSet set() const {
    if (!has("set")) return RowSet::Train;
    return one_of("set", {"train", "check"}) == "check" ? RowSet::Check : RowSet::Train;
  }

 private:
  const Table& t_;
  const std::vector<Cell>& cells_;
  SourceLoc loc_;
};

std::vector<std::string> kind_names() {
  std::vector<std::string> v;
  for (const KindInfo& k : kinds()) v.push_back(k.name);
  return v;
}

MicroRow micro_row(const RowReader& r, const SourceLoc& loc) {
  MicroRow m;
  m.loc = loc;
  m.kind = r.one_of("kind", kind_names());
  const KindInfo& k = *find_kind(m.kind);
  m.dst = r.one_of("dst", k.dsts);
  m.param = r.uint("param", k.param_min, k.param_max);
  m.count = r.uint("count", 1, kMaxCount);
  m.value = r.positive("value");
  m.unit = r.word("unit");
  if (m.unit != k.unit)
    throw InputError(r.where("unit"),
                     "a " + m.kind + " row is measured in " + k.unit + ", not '" + m.unit + "'");
  if (r.has("fields")) m.fields = r.text("fields");
  m.set = r.set();
  try {
    (void)micro_of(m);  // the instruction must be valid now, not when it is simulated
  } catch (const InputError& e) {
    throw InputError(r.has("fields") ? r.where("fields") : loc, e.message());
  }
  return m;
}

KernelRow kernel_row(const RowReader& r, const SourceLoc& loc) {
  KernelRow k;
  k.loc = loc;
  k.name = r.word("kernel");
  k.cores = static_cast<uint32_t>(r.uint("cores", 1, 128));
  // Several cores: C split split_m x split_n, one part per core (gen --cores --split).
  if (k.cores > 1 && (!r.has("split_m") || !r.has("split_n")))
    throw InputError(r.where("cores"), "a kernel row of " + std::to_string(k.cores) +
                                           " cores needs split_m and split_n columns (C's parts along M "
                                           "and N, one per core)");
  if (r.has("split_m")) k.split_m = static_cast<uint32_t>(r.uint("split_m", 1, 128));
  if (r.has("split_n")) k.split_n = static_cast<uint32_t>(r.uint("split_n", 1, 128));
  if (uint64_t{k.split_m} * k.split_n != k.cores)
    throw InputError(r.where(r.has("split_m") ? "split_m" : "cores"),
                     "split_m x split_n = " + std::to_string(uint64_t{k.split_m} * k.split_n) +
                         " parts, but the row has " + std::to_string(k.cores) + " cores (one part per core)");
  k.shape.M = static_cast<uint32_t>(r.uint("m", 16, 65520));
  k.shape.K = static_cast<uint32_t>(r.uint("k", 16, 65520));
  k.shape.N = static_cast<uint32_t>(r.uint("n", 16, 65520));
  // fp16 unless the row says (the best-practice kernels are fp16).
  k.shape.dtype =
      !r.has("dtype") || r.one_of("dtype", {"half", "bf16"}) == "half" ? isa::DType::Half : isa::DType::BF16;
  k.opt.base_m = static_cast<uint32_t>(r.uint("base_m", 16, 4080));
  k.opt.base_n = static_cast<uint32_t>(r.uint("base_n", 16, 4080));
  k.opt.base_k = static_cast<uint32_t>(r.uint("base_k", 16, 4080));
  if (r.has("b_layout"))
    k.shape.b_layout = r.one_of("b_layout", {"nt", "nd"}) == "nd" ? gen::BLayout::ND : gen::BLayout::NT;
  if (r.has("l1_buffers")) k.opt.l1_buffers = static_cast<uint32_t>(r.uint("l1_buffers", 1, 2));
  if (r.has("l0_buffers")) k.opt.l0_buffers = static_cast<uint32_t>(r.uint("l0_buffers", 1, 2));
  // As gen writes the kernel: unitFlag on (the Matmul NORM template; MDL: off), C in the input type.
  if (r.has("template")) {
    const std::string t = r.one_of("template", {"NORM", "MDL", "norm", "mdl"});
    k.opt.tmpl = t == "MDL" || t == "mdl" ? gen::MatmulTemplate::Mdl : gen::MatmulTemplate::Norm;
  }
  k.opt.unit_flag = k.opt.tmpl == gen::MatmulTemplate::Norm;
  if (r.has("unit_flag")) k.opt.unit_flag = r.one_of("unit_flag", {"on", "off"}) == "on";
  // Big packets: depth_a1 = step_ka = 1 in a NORM row is the plain double-buffered kernel (the
  // Matmul API's ping-pong halves are not part of depth there).
  if (r.has("step_ka")) k.opt.step_ka = static_cast<uint32_t>(r.uint("step_ka", 1, 255));
  if (r.has("step_kb")) k.opt.step_kb = static_cast<uint32_t>(r.uint("step_kb", 1, 255));
  if (r.has("depth_a1") && r.uint("depth_a1", 1, 1020) != k.opt.step_ka)
    k.opt.depth_a1 = static_cast<uint32_t>(r.uint("depth_a1", 1, 1020));
  if (r.has("depth_b1") && r.uint("depth_b1", 1, 1020) != k.opt.step_kb)
    k.opt.depth_b1 = static_cast<uint32_t>(r.uint("depth_b1", 1, 1020));
  if (r.has("l2_rounds")) k.opt.l2_rounds = static_cast<uint32_t>(r.uint("l2_rounds", 1, 64));
  k.shape.c_dtype = k.shape.dtype;
  if (r.has("c_dtype")) {
    const std::string c = r.one_of("c_dtype", {"half", "bf16", "float"});
    k.shape.c_dtype = c == "half" ? isa::DType::Half : c == "bf16" ? isa::DType::BF16 : isa::DType::Float;
  }
  if (r.has("a_load")) k.opt.load3d_a = r.one_of("a_load", {"2d", "load3d"}) == "load3d";
  k.task_us = r.positive("task_us");
  for (size_t p = 0; p < kKernelPipeCount; ++p)
    if (r.has(kKernelPipeColumns[p])) k.pipe_us[p] = r.positive(kKernelPipeColumns[p]);
  if (r.has("aicore_us")) k.aicore_us = r.positive("aicore_us");
  k.set = r.set();
  try {
    const gen::MatmulPlan whole = gen::make_matmul_plan(k.shape, k.opt);
    for (uint32_t c = 0; c < k.cores; ++c) (void)gen::core_rounds(whole, k.split_m, k.split_n, c);
  } catch (const InputError& e) {
    // The generator's messages name its options; here the row's columns say the same.
    std::string msg = e.message();
    throw InputError(loc, "the kernel is not one the generator can write: " + msg);
  }
  return k;
}

KernelRow memory_row(const RowReader& r, const SourceLoc& loc) {
  KernelRow k;
  k.loc = loc;
  k.name = r.word("scenario");
  gen::StreamShape st;
  st.cores = static_cast<uint32_t>(r.uint("cores", 1, 128));
  st.rows = static_cast<uint32_t>(r.uint("rows", 16, 1u << 20));
  st.cols = static_cast<uint32_t>(r.uint("cols", 1, 65535));
  // 64 x 256 when the row does not state its tile (assumed: the better-performing tile).
  st.tile_rows = r.has("tile_rows") ? static_cast<uint32_t>(r.uint("tile_rows", 16, 4080)) : 64;
  st.tile_cols = r.has("tile_cols") ? static_cast<uint32_t>(r.uint("tile_cols", 16, 4080)) : 256;
  if (r.has("rounds")) st.rounds = static_cast<uint32_t>(r.uint("rounds", 1, 64));
  if (r.has("slices")) st.slices = static_cast<uint32_t>(r.uint("slices", 1, 4096));
  if (r.has("aligned")) {
    const bool aligned = r.uint("aligned", 0, 1) == 1, is = uint64_t{st.cols} * 2 % 32 == 0;
    if (aligned != is)
      throw InputError(r.where("aligned"), "aligned=" + std::string(aligned ? "1" : "0") + " but rows of " +
                                               std::to_string(st.cols) + " fp16 elements (" +
                                               std::to_string(uint64_t{st.cols} * 2) + " bytes) " +
                                               (is ? "are" : "are not") + " 32-byte aligned");
  }
  try {
    gen::check_stream(st);
  } catch (const InputError& e) {
    throw InputError(loc, "the streaming kernel is not one the generator can write: " + e.message());
  }
  k.cores = st.cores;
  k.stream = st;
  k.task_us = r.positive("task_us");
  if (r.has("aic_mte2_us")) k.pipe_us[1] = r.positive("aic_mte2_us");
  if (r.has("l2_hit")) {
    const double h = r.positive("l2_hit");
    if (h > 1)
      throw InputError(r.where("l2_hit"), "'l2_hit' is a fraction in (0, 1] (got " + r.text("l2_hit") + ")");
    k.l2_hit_pct = 100 * h;
  }
  k.set = r.set();
  return k;
}

}  // namespace

void parse_dataset(const std::string& text, const std::string& file, Dataset& into) {
  if (text.size() > kMaxFileBytes)
    throw InputError(SourceLoc{file},
                     "the data file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB");
  into.files.push_back(file);
  enum class Kind { None, Micro, Kernel, Memory } kind = Kind::None;
  std::optional<Table> table;
  size_t rows = 0;
  uint32_t line_no = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t nl = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    ++line_no;
    const SourceLoc loc{file, line_no, 1};
    if (line.find('\0') != std::string::npos)
      throw InputError(loc, "the line holds a NUL byte: not a text file");
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      into.notes.push_back(std::filesystem::path(file).filename().string() + ": " + line.substr(first));
      continue;
    }
    const std::vector<Cell> cells = split(line);
    if (cells[0].text == "kind" || cells[0].text == "kernel" || cells[0].text == "scenario") {
      kind = cells[0].text == "kind" ? Kind::Micro : cells[0].text == "kernel" ? Kind::Kernel : Kind::Memory;
      table.emplace(cells, loc,
                    kind == Kind::Micro    ? kMicroRequired
                    : kind == Kind::Kernel ? kKernelRequired
                                           : kMemoryRequired,
                    kind == Kind::Micro    ? kMicroOptional
                    : kind == Kind::Kernel ? kKernelOptional
                                           : kMemoryOptional);
      continue;
    }
    if (kind == Kind::None)
      throw InputError(SourceLoc{file, line_no, cells[0].column},
                       "a row before any header: the first line that is not a comment must be a header "
                       "starting with 'kind' (microbenchmarks), 'kernel' (kernels) or 'scenario' (memory "
                       "streaming)" +
                           near_hint(cells[0].text, {"kind", "kernel", "scenario"}));
    if (cells.size() != table->width())
      throw InputError(
          SourceLoc{file, line_no, cells.size() > table->width() ? cells[table->width()].column : 1},
          "the row has " + std::to_string(cells.size()) + " cells, the header " +
              std::to_string(table->width()));
    if (++rows > kMaxRows) throw InputError(loc, "more than " + std::to_string(kMaxRows) + " rows");
    const RowReader r(*table, cells, loc);
    if (kind == Kind::Micro)
      into.micro.push_back(micro_row(r, loc));
    else if (kind == Kind::Kernel)
      into.kernels.push_back(kernel_row(r, loc));
    else
      into.kernels.push_back(memory_row(r, loc));
  }
  if (kind == Kind::None) throw InputError(SourceLoc{file, 1, 1}, "no header and no rows: not a data file");
}

Dataset load_dataset(const std::vector<std::string>& paths) {
  Dataset d;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec))
      throw InputError(SourceLoc{p}, "cannot read the data file: it is a directory");
    std::ifstream in(p, std::ios::binary);
    if (!in) throw InputError(SourceLoc{p}, "cannot open the data file");
    const std::string text = read_capped(in, kMaxFileBytes);
    parse_dataset(text, p, d);
  }
  return d;
}

const char* to_string(RowSet s) {
  return s == RowSet::Check ? "check" : "train";
}

std::string row_name(const SourceLoc& loc) {
  return std::filesystem::path(loc.file).filename().string() + ":" + std::to_string(loc.line);
}

}  // namespace aicore::calib
