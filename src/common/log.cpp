#include "aicore/common/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <memory>

namespace aicore {

spdlog::logger& log() {
  // Not registered with spdlog's registry: registering throws on duplicate names, and nothing
  // here needs lookup by name.
  static spdlog::logger logger("aicore", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  static const bool init = [] {
    logger.set_pattern("[%l] %v");
    logger.set_level(spdlog::level::warn);
    return true;
  }();
  (void)init;
  return logger;
}

void set_verbosity(int level) {
  log().set_level(level <= 0 ? spdlog::level::warn : level == 1 ? spdlog::level::info : spdlog::level::debug);
}

}  // namespace aicore
