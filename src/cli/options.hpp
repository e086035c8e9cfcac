// Shared Boost.Program_options plumbing: parse a subcommand's arguments, turning every
// malformed command line into a clear "aicore-sim CMD: error: ..." with the nearest option; and
// the help text, written from the same options_description that parses, so a command's own
// --help and the top-level summary cannot disagree with what the command accepts.
#pragma once
#include <boost/program_options.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace aicore::cli {

namespace po = boost::program_options;

// What a command tells about itself: `aicore-sim SYNOPSIS`, one line of summary, its options.
struct CommandHelp {
  std::string synopsis;  // after "aicore-sim ", e.g. "run TRACE [options]"
  std::string summary;   // one line
  std::string details;   // extra lines shown by the command's own --help only ("" = none)
  std::string options;   // format_options() of the visible options ("" = none)
};

// One line per option, "  -q, --quiet          text", the text wrapped under itself.
// A switch shows no value; an option with an optional value shows "[NAME]".
std::string format_options(const po::options_description& opts, size_t indent);

// A command's own --help: usage line, summary, details, options.
std::string command_help_text(const CommandHelp& h);

// Parses args into vm. On error writes the message (and the usage line) to err and returns false.
bool parse_options(const std::string& command, const std::vector<std::string>& args,
                   const po::options_description& opts, const po::positional_options_description* positional,
                   po::variables_map& vm, const std::string& synopsis, std::ostream& err);

}  // namespace aicore::cli
