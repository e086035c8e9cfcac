// Shared Boost.Program_options plumbing: parse a subcommand's arguments, turning every
// malformed command line into a clear "aicore-sim CMD: error: ..." with the nearest option.
#pragma once
#include <boost/program_options.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace aicore::cli {

namespace po = boost::program_options;

// Parses args into vm. On error writes the message (and usage) to err and returns false.
bool parse_options(const std::string& command, const std::vector<std::string>& args,
                   const po::options_description& opts, const po::positional_options_description* positional,
                   po::variables_map& vm, std::ostream& err);

}  // namespace aicore::cli
