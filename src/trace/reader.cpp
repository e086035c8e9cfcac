#include "aicore/trace/reader.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "aicore/isa/check.hpp"
#include "instruction_parser.hpp"
#include "lexer.hpp"

namespace aicore::trace {

namespace fs = std::filesystem;
using detail::LineContext;
using detail::quote;
using detail::Token;

namespace {

// GM is 64 GiB per die (docs/sources.md [chip]): no tensor can be larger.
constexpr uint64_t kMaxTensorBytes = uint64_t{64} << 30;
// More dimensions than any tensor a Cube kernel reads or writes.
constexpr size_t kMaxShapeDims = 8;

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> names = {".gm", ".out", ".expect"};
  return names;
}

std::string resolve(const std::string& base_dir, std::string_view file) {
  const fs::path p{std::string(file)};
  if (p.is_absolute() || base_dir.empty()) return p.string();
  return (fs::path(base_dir) / p).string();
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The column of the field a check message names first (the mnemonic's when it names none): the
// messages start from the operand or field they are about ("nSize must be ...", "event MTE2_FIX ...").
uint32_t column_named(const std::vector<Token>& tokens, const std::string& message) {
  uint32_t column = tokens[0].column;
  size_t first = std::string::npos;
  for (size_t t = 1; t < tokens.size(); ++t) {
    const std::string_view key = tokens[t].text.substr(0, tokens[t].text.find('='));
    for (size_t at = message.find(key); at != std::string::npos && !key.empty();
         at = message.find(key, at + 1)) {
      const size_t end = at + key.size();
      if ((at > 0 && is_word_char(message[at - 1])) || (end < message.size() && is_word_char(message[end])))
        continue;
      if (at < first) {
        first = at;
        column = tokens[t].column;
      }
      break;
    }
  }
  return column;
}

// What isa::check_fields refuses is knowable from the text alone (a field outside its legal range,
// an operand in the wrong memory or misaligned, an illegal event pair, a mode not modelled): an
// input error at the field, not a fault when the instruction runs. Bounds, which depend on the
// buffer sizes of the configuration, are checked when it runs.
void check_statically(const isa::Op& op, const std::vector<Token>& tokens, const LineContext& ctx) {
  try {
    isa::check_fields(op);
  } catch (const Fault& f) {
    ctx.fail(column_named(tokens, f.what()),
             std::string(isa::mnemonic(op)) + ": " + to_string(f.kind()) + ": " + f.what());
  }
}

}  // namespace

struct Reader::Impl {
  std::unique_ptr<std::istream> owned;
  std::string name;
  FileId file_id = 0;  // `name` interned: what every instruction record carries
  std::string base_dir;
  detail::LineSource lines;
  detail::TensorTable tensors;
  uint64_t instructions = 0;
  std::string code;           // reused line buffer
  std::vector<Token> tokens;  // reused token buffer
  bool check_fields = true;

  Impl(std::unique_ptr<std::istream> own, std::istream& in, std::string display, std::string base)
      : owned(std::move(own)),
        name(display),
        file_id(intern_source_file(display)),
        base_dir(std::move(base)),
        lines(in, std::move(display)) {}

  // The NAME operand of a directive (tokens[1]).
  std::string_view directive_name(const LineContext& ctx) const {
    const Token& d = tokens[0];
    if (tokens.size() < 2 || tokens[1].text.find('=') != std::string_view::npos) {
      const uint32_t col =
          tokens.size() < 2 ? d.column + static_cast<uint32_t>(d.text.size()) + 1 : tokens[1].column;
      ctx.fail(col, "expected a tensor name after " + std::string(d.text));
    }
    return tokens[1].text;
  }

  const GmDecl& declared_tensor(const LineContext& ctx) const {
    const std::string_view n = directive_name(ctx);
    if (const GmDecl* t = tensors.find(n)) return *t;
    ctx.fail(tokens[1].column,
             "unknown tensor " + quote(n) + " (declare it with .gm first)" + tensors.suggest(n));
  }

  // The element type of .out/.expect; the tensor must hold a whole number of elements.
  isa::DType dtype_field(const detail::KeyValue* kv, isa::DType dflt, const GmDecl& t,
                         const LineContext& ctx) const {
    static const std::vector<std::string> names = {"int8", "half", "bf16", "int32", "float"};
    isa::DType d = dflt;
    if (kv) {
      const auto parsed = isa::dtype_from_string(std::string(kv->value));
      if (!parsed)
        ctx.fail(kv->value_column, "unknown dtype " + quote(kv->value) +
                                       "; expected int8, half, bf16, int32 or float" +
                                       detail::suggestion(kv->value, names));
      d = *parsed;
      if (d == isa::DType::Int4)
        ctx.fail(kv->value_column,
                 "int4 is not a result type (Fixpipe writes int32, float, half, bf16 or "
                 "int8): compare int4 bytes as dtype=int8");
    }
    if (t.size % isa::byte_size(d) != 0)
      ctx.fail(kv ? kv->value_column : tokens[0].column,
               "tensor " + quote(t.name) + " has " + std::to_string(t.size) +
                   " bytes, not a whole number of " + isa::to_string(d) + " elements" +
                   (kv ? "" : " (the default dtype; set dtype=)"));
    return d;
  }

  // shape=D0,D1,... of .out/.expect: positive dimensions whose product is the tensor's element
  // count in `dtype` (empty when the field is absent).
  std::vector<uint64_t> shape_field(const detail::KeyValue* kv, isa::DType dtype, const GmDecl& t,
                                    const LineContext& ctx) const {
    std::vector<uint64_t> shape;
    if (!kv) return shape;
    const std::string_view v = kv->value;
    const auto malformed = [&](size_t at) {
      ctx.fail(
          kv->value_column + static_cast<uint32_t>(at),
          "shape " + quote(v) + " is not a list of dimensions: write shape=ROWS,COLS (e.g. shape=16,16)");
    };
    uint64_t elements = 1;
    for (size_t start = 0;;) {
      const size_t comma = v.find(',', start);
      const std::string_view part = v.substr(start, comma == std::string_view::npos ? v.npos : comma - start);
      if (part.empty()) malformed(start);
      const uint32_t col = kv->value_column + static_cast<uint32_t>(start);
      const uint64_t d = detail::parse_uint(part, col, kMaxTensorBytes, "shape dimension", ctx);
      if (d == 0) ctx.fail(col, "shape dimension must be greater than 0");
      if (shape.size() == kMaxShapeDims)
        ctx.fail(col, "shape has more than " + std::to_string(kMaxShapeDims) + " dimensions");
      shape.push_back(d);
      elements = elements > kMaxTensorBytes / d ? kMaxTensorBytes + 1 : elements * d;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    const uint64_t es = isa::byte_size(dtype);  // never int4 (dtype_field)
    if (elements * es != t.size)
      ctx.fail(kv->value_column,
               "shape " + quote(v) + " is " +
                   (elements > kMaxTensorBytes ? "too many" : std::to_string(elements)) + " " +
                   isa::to_string(dtype) + " elements" +
                   (elements > kMaxTensorBytes ? "" : " (" + std::to_string(elements * es) + " bytes)") +
                   ", but tensor " + quote(t.name) + " has " + std::to_string(t.size) + " bytes (" +
                   std::to_string(t.size / es) + " elements)");
    return shape;
  }

  void parse_gm(Statement& s, const LineContext& ctx) {
    static const std::vector<std::string> keys = {"size", "file"};
    const std::string_view n = directive_name(ctx);
    if (!detail::is_identifier(n))
      ctx.fail(tokens[1].column, "invalid tensor name " + quote(n) +
                                     ": use letters, digits and '_', not starting with a digit");
    if (const GmDecl* prev = tensors.find(n))
      ctx.fail(tokens[1].column,
               "tensor " + quote(n) + " is already declared at line " + std::to_string(prev->loc.line));
    std::vector<detail::KeyValue> pairs;
    std::vector<const detail::KeyValue*> slots;
    detail::collect_fields(tokens.data() + 2, tokens.data() + tokens.size(), keys, ".gm", ctx, pairs, slots);
    if (!slots[0]) ctx.fail(tokens[0].column, ".gm is missing required key 'size'");
    GmDecl g;
    g.name = std::string(n);
    g.id = static_cast<uint32_t>(tensors.list().size());
    g.size = detail::parse_uint(slots[0]->value, slots[0]->value_column, kMaxTensorBytes, "size", ctx);
    if (g.size == 0) ctx.fail(slots[0]->value_column, "size must be greater than 0");
    if (slots[1]) g.file = resolve(base_dir, slots[1]->value);
    g.loc = ctx.at(tokens[0].column);
    if (tensors.list().size() == UINT32_MAX) ctx.fail(tokens[0].column, "too many .gm tensors");
    tensors.add(g);
    s.kind = Statement::Kind::Gm;
    s.gm = std::move(g);
  }

  void parse_out(Statement& s, const LineContext& ctx) {
    static const std::vector<std::string> keys = {"file", "dtype", "shape"};
    const GmDecl& t = declared_tensor(ctx);
    std::vector<detail::KeyValue> pairs;
    std::vector<const detail::KeyValue*> slots;
    detail::collect_fields(tokens.data() + 2, tokens.data() + tokens.size(), keys, ".out", ctx, pairs, slots);
    if (!slots[0]) ctx.fail(tokens[0].column, ".out is missing required key 'file'");
    OutDecl o;
    o.tensor = t.id;
    o.file = std::string(slots[0]->value);
    o.dtype = dtype_field(slots[1], isa::DType::Int8, t, ctx);
    o.shape = shape_field(slots[2], o.dtype, t, ctx);
    o.loc = ctx.at(tokens[0].column);
    s.kind = Statement::Kind::Out;
    s.out = std::move(o);
  }

  void parse_expect(Statement& s, const LineContext& ctx) {
    static const std::vector<std::string> keys = {"file", "dtype", "shape"};
    const GmDecl& t = declared_tensor(ctx);
    std::vector<detail::KeyValue> pairs;
    std::vector<const detail::KeyValue*> slots;
    detail::collect_fields(tokens.data() + 2, tokens.data() + tokens.size(), keys, ".expect", ctx, pairs,
                           slots);
    if (!slots[0]) ctx.fail(tokens[0].column, ".expect is missing required key 'file'");
    ExpectDecl e;
    e.tensor = t.id;
    e.file = resolve(base_dir, slots[0]->value);
    e.dtype = dtype_field(slots[1], isa::DType::Int32, t, ctx);
    e.shape = shape_field(slots[2], e.dtype, t, ctx);
    e.loc = ctx.at(tokens[0].column);
    s.kind = Statement::Kind::Expect;
    s.expect = std::move(e);
  }

  bool next(Statement& s) {
    while (lines.next(code)) {
      detail::split_tokens(code, tokens);
      if (tokens.empty()) continue;
      const LineContext ctx{name, lines.line()};
      const Token& first = tokens[0];
      if (first.text[0] == '.') {
        if (first.text == ".gm") {
          parse_gm(s, ctx);
        } else if (first.text == ".out") {
          parse_out(s, ctx);
        } else if (first.text == ".expect") {
          parse_expect(s, ctx);
        } else {
          ctx.fail(first.column, "unknown directive " + quote(first.text) +
                                     "; expected .gm, .out or .expect" +
                                     detail::suggestion(first.text, directive_names()));
        }
        return true;
      }
      s.kind = Statement::Kind::Instr;
      s.instr.op = detail::parse_instruction(tokens, tensors, ctx);
      if (check_fields) check_statically(s.instr.op, tokens, ctx);
      s.instr.index = instructions++;
      s.instr.line = lines.line();
      s.instr.file = file_id;
      return true;
    }
    return false;
  }
};

Reader::Reader(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(SourceLoc{path, 0, 0}, "cannot read trace: is a directory");
  auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*file)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot open trace: ") + std::strerror(errno));
  std::istream& in = *file;
  impl_ = std::make_unique<Impl>(std::move(file), in, path, fs::path(path).parent_path().string());
}

Reader::Reader(std::istream& in, std::string display_name, std::string base_dir)
    : impl_(std::make_unique<Impl>(nullptr, in, std::move(display_name), std::move(base_dir))) {}

Reader::~Reader() = default;
Reader::Reader(Reader&&) noexcept = default;
Reader& Reader::operator=(Reader&&) noexcept = default;

bool Reader::next(Statement& out) {
  return impl_->next(out);
}
void Reader::check_fields(bool on) {
  impl_->check_fields = on;
}
const std::vector<GmDecl>& Reader::tensors() const {
  return impl_->tensors.list();
}
const std::string& Reader::name() const {
  return impl_->name;
}

}  // namespace aicore::trace
