// Measured silicon data for `calibrate` and `validate` (docs/validation.md): CSV files of
// microbenchmark rows (a stream of COUNT identical instructions on one pipe and the throughput
// measured over it) and of kernel rows (a whole matmul kernel's task time and per-pipe times).
//
//   # comment lines: where the numbers come from (kept and shown with the results)
//   kind,dst,param,count,value,unit[,set][,fields]
//   loaddata,A2,1,256,217.14,GiB/s
//   kernel,cores,m,k,n,base_m,base_n,base_k,task_us[,dtype][,aic_mac_us,...][,b_layout][,l1_buffers]...
//   (several cores: split_m,split_n; the Matmul knobs template,depth_a1,step_ka,depth_b1,step_kb,l2_rounds)
//   scenario,cores,rows,cols,task_us[,tile_rows,tile_cols][,aligned][,rounds][,slices][,aic_mte2_us][,l2_hit]
//
// A header line (first cell `kind`, `kernel` or `scenario`) starts a table; a file may hold several. Cells
// are separated by commas (no quoting; `fields` separates its key=value pairs by spaces). Every
// error names file:line:column and, for a misspelt word, the nearest valid one.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/gen/matmul.hpp"
#include "aicore/gen/stream.hpp"

namespace aicore::calib {

// Rows are fitted to (train) or only predicted, to check the fit (check: held out).
enum class RowSet : uint8_t { Train, Check };

struct MicroRow {
  SourceLoc loc;  // the row's line
  std::string kind, dst;
  uint64_t param = 0, count = 0;
  double value = 0;  // the measured metric, in the kind's unit
  std::string unit;
  std::string fields;  // extra instruction fields, "key=value key=value" (may be empty)
  RowSet set = RowSet::Train;
};

// The kernel's per-pipe times, in the order of kKernelPipes.
constexpr size_t kKernelPipeCount = 5;
extern const std::array<const char*, kKernelPipeCount> kKernelPipeColumns;  // aic_mac_us, ...
extern const std::array<const char*, kKernelPipeCount> kKernelPipeNames;    // M, MTE2, MTE1, FIX, S

struct KernelRow {
  SourceLoc loc;
  std::string name;
  uint32_t cores = 1, split_m = 1, split_n = 1;  // several cores: C in split_m x split_n parts
  gen::MatmulShape shape;
  gen::MatmulOptions opt;  // base block and buffers; blocks = 0
  double task_us = 0;
  std::array<std::optional<double>, kKernelPipeCount> pipe_us{};  // not measured: empty
  std::optional<double> aicore_us;  // the mean core time (several cores), when measured
  // A memory row (table "scenario"): the GM -> L1 streaming kernel (gen --stream) instead of the
  // matmul, compared by task, MTE2 and the L2's read hit rate (in %).
  std::optional<gen::StreamShape> stream;
  std::optional<double> l2_hit_pct;
  RowSet set = RowSet::Train;
};

struct Dataset {
  std::vector<std::string> files;
  std::vector<std::string> notes;  // the comment lines, "file: text"
  std::vector<MicroRow> micro;
  std::vector<KernelRow> kernels;
};

// Parses one file's text into `into` (appending). Throws InputError at file:line:column.
void parse_dataset(const std::string& text, const std::string& file, Dataset& into);
// Reads and parses the files, in order.
Dataset load_dataset(const std::vector<std::string>& paths);

const char* to_string(RowSet s);  // "train", "check"
// "measured-910b1.csv:10" (the file's last path component and the line).
std::string row_name(const SourceLoc& loc);

}  // namespace aicore::calib
