#include "options.hpp"

#include <ostream>
#include <sstream>

#include "aicore/common/error.hpp"

namespace aicore::cli {

namespace {

constexpr size_t kWidth = 100;  // wrap help text here

// "-q, --quiet", "    --out DIR", "-v, --verbose [N]".
std::string flags_of(const po::option_description& o) {
  const std::string shrt = o.canonical_display_name(po::command_line_style::allow_dash_for_short);
  std::string s = shrt.size() == 2 && shrt[0] == '-' ? shrt + ", " : "    ";
  s += "--" + o.long_name();
  const auto& sem = *o.semantic();
  if (sem.max_tokens() > 0) s += sem.min_tokens() == 0 ? " [" + sem.name() + "]" : " " + sem.name();
  return s;
}

// `text` in lines of at most `width` characters (words are never split).
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines(1);
  std::istringstream in(text);
  for (std::string word; in >> word;) {
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
  }
  return lines;
}

}  // namespace

std::string format_options(const po::options_description& opts, size_t indent) {
  size_t column = 0;
  for (const auto& o : opts.options()) column = std::max(column, flags_of(*o).size());
  column += 2;
  const size_t text_width = kWidth > indent + column + 30 ? kWidth - indent - column : 30;
  std::string out;
  for (const auto& o : opts.options()) {
    std::string line = std::string(indent, ' ') + flags_of(*o);
    const std::vector<std::string> text = wrap(o->description(), text_width);
    for (size_t i = 0; i < text.size(); ++i) {
      if (i > 0) line = "";
      line.resize(indent + column, ' ');
      out += line + text[i] + "\n";
    }
  }
  return out;
}

std::string command_help_text(const CommandHelp& h) {
  std::string s = "usage: aicore-sim " + h.synopsis + "\n" + h.summary + "\n";
  if (!h.details.empty()) s += h.details;
  if (!h.options.empty()) s += "\noptions:\n" + h.options;
  return s;
}

bool parse_options(const std::string& command, const std::vector<std::string>& args,
                   const po::options_description& opts, const po::positional_options_description* positional,
                   po::variables_map& vm, const std::string& synopsis, std::ostream& err) {
  try {
    po::command_line_parser parser(args);
    parser.options(opts).style(po::command_line_style::default_style &
                               ~po::command_line_style::allow_guessing);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
    return true;
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& o : opts.options()) names.push_back("--" + o->long_name());
    const std::string near = nearest_word(e.get_option_name(), names);
    err << "aicore-sim " << command << ": error: unknown option '" << e.get_option_name() << "'"
        << (near.empty() ? "" : "; did you mean '" + near + "'?") << "\n";
  } catch (const po::error& e) {
    err << "aicore-sim " << command << ": error: " << e.what() << "\n";
  }
  err << "usage: aicore-sim " << synopsis << "   ('aicore-sim " << command << " --help' for the options)\n";
  return false;
}

}  // namespace aicore::cli
