// The aicore-sim subcommands. Each returns the process exit status (docs/cli.md):
// 0 success, 1 .expect mismatch, 2 bad input, 3 fault while simulating.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/session/config.hpp"
#include "aicore/session/result.hpp"
#include "options.hpp"

namespace aicore::cli {

using session::Diagnostics;
using session::kExitBadInput;
using session::kExitFault;
using session::kExitMismatch;
using session::kExitOk;
using session::load_config;

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int config_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sweep_worker_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int kernel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int validate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// What each command's --help shows; the top-level help is made of these.
CommandHelp run_help();
CommandHelp config_help();
CommandHelp config_list_help();
CommandHelp kernel_help();

}  // namespace aicore::cli
