// Shared test helpers: a complete config fixture with known line numbers, error capture, temp files.
#pragma once
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"

namespace cfgtest {

// Every key, values deliberately unlike the presets so a test can tell where a value came from.
inline const std::string kFixture = R"(clock_mhz: 1000
buffers:
  l1_bytes: 262144
  l1_banks: 8
  l0c_banks: 8
  l0a_bytes: 32768
  l0b_bytes: 32768
  l0c_bytes: 65536
  sparse_index_bytes: 8192
  bias_table_bytes: 2048
  gm_max_bytes: 1048576
gm:
  read:
    bytes_per_cycle: 100.5
    overhead_cycles: 1
    latency_cycles: 200
    window_bytes: 4096
    row_cycles: 1.5
  write:
    bytes_per_cycle: 64
    overhead_cycles: 2
    latency_cycles: 201
    window_bytes: 8192
    align_bytes: 256
    unaligned_cost: 2.5
    atomic_share: 0.75
  shared_bytes_per_cycle: 192
mte1:
  to_l0a:
    bytes_per_cycle: 255
    overhead_cycles: 3
    latency_cycles: 27
  to_l0b:
    bytes_per_cycle: 127
    overhead_cycles: 4
    latency_cycles: 26
  sparse:
    bytes_per_cycle: 126
    overhead_cycles: 5
    latency_cycles: 31
  to_bt:
    bytes_per_cycle: 62
    overhead_cycles: 6
    latency_cycles: 23
  share_during_l1_write: 0.625
cube:
  int8_k_per_cycle: 31
  b16_k_per_cycle: 15
  sparse_k_per_cycle: 63
  float_k_per_cycle: 3
  int4_k_per_cycle: 61
  head_cycles: 6
  latency_cycles: 7
  fixed_cycles: 1.75
fixpipe:
  elements_per_cycle: 62
  overhead_cycles: 8
  latency_cycles: 9
issue:
  instructions_per_cycle: 0.5
  queue_depth_mte2: 10
  queue_depth_mte1: 11
  queue_depth_m: 12
  queue_depth_fix: 13
  queue_depth_mte3: 14
  sync_cycles: 2
  sync_all_cycles: 16
  min_interval_mte2: 2.5
  min_interval_mte1: 3.5
  min_interval_m: 4.5
  min_interval_fix: 5.5
scalar:
  data_copy: 21
  data_copy_nd2nz: 22
  load_data: 23
  load_data_with_sparse: 24
  load_data_3dv2: 33
  load_data_with_transpose: 34
  data_copy_l1_to_bt: 35
  mmad: 25
  mmad_with_sparse: 26
  fixpipe: 27
  set_flag: 28
  wait_flag: 29
  pipe_barrier: 30
  sync_all: 31
  set_atomic: 32
chip:
  cores: 3
  l2:
    bytes: 1048576
    line_bytes: 256
    sector_bytes: 64
    ways: 8
    read_bytes_per_cycle: 900
    write_bytes_per_cycle: 800
    read_bytes_per_cycle_per_core: 100
    write_bytes_per_cycle_per_core: 90
    nd2nz_read_share: 0.5
    write_read_cost: 0.25
    same_address_penalty: 0.25
    unaligned_granule_bytes: 32
    unaligned_read_cost: 1.5
  hbm:
    bytes: 1073741824
    bytes_per_cycle: 500
    bytes_per_cycle_per_core: 40
check:
  mmad_interlock_fractals: 12
)";

inline aicore::config::Config load_text(const std::string& text, const std::vector<std::string>& sets = {}) {
  return aicore::config::load_yaml_text(text, "test.yaml", sets, "test");
}

// `text` with the single occurrence of `from` replaced by `to`.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

// 1-based "line:column" of the first occurrence of `needle` in `text`, plus `skip` characters.
inline std::string pos_of(const std::string& text, const std::string& needle, size_t skip = 0) {
  const size_t at = text.find(needle) + (text.find(needle) == std::string::npos ? 0 : skip);
  REQUIRE(at != std::string::npos);
  const size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

inline aicore::InputError expect_input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const aicore::InputError& e) {
    return e;
  } catch (const std::exception& e) {
    FAIL("expected aicore::InputError, got another exception: " << e.what());
  }
  FAIL("expected aicore::InputError, nothing was thrown");
  throw std::logic_error("unreachable");
}

// A numeric field of `c` as a long double, for comparing configs field by field.
inline long double value_of(const aicore::config::Param& p, aicore::config::Config& c) {
  return std::visit([](auto* v) { return static_cast<long double>(*v); }, p.field(c));
}

// A file under the temp dir, removed when the object goes.
class TempFile {
 public:
  explicit TempFile(const std::string& text, const std::string& suffix = ".yaml") {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("aicore_test_config_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + suffix))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cfgtest
