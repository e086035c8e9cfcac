#include "options.hpp"

#include <ostream>

#include "aicore/common/error.hpp"

namespace aicore::cli {

bool parse_options(const std::string& command, const std::vector<std::string>& args,
                   const po::options_description& opts, const po::positional_options_description* positional,
                   po::variables_map& vm, std::ostream& err) {
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
  err << opts;
  return false;
}

}  // namespace aicore::cli
