// What a finished launch recorded, ready to simulate and to write as traces: the GM tensors the
// blocks used (GmAlloc buffers, named after the kernel arguments that point into them) and one
// program per block whose GM operands number those tensors densely.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aicore/frontend/call_site.hpp"
#include "aicore/isa/instructions.hpp"
#include "state.hpp"

namespace aicore::frontend {

// Names (and, for --emit-trace, the initial bytes) of the GM buffers when a launch starts.
struct LaunchTensors {
  std::vector<std::string> name_of_region;    // by region id; "" = no argument points into it
  std::vector<std::vector<uint8_t>> initial;  // by region id; empty unless asked for
};
LaunchTensors snapshot_tensors(const std::vector<const void*>& args, const std::string& arg_text,
                               bool copy_data);

struct RecordedTensor {
  std::string name;
  uint64_t bytes = 0;
  const uint8_t* data = nullptr;                  // the buffer now (after the launch)
  const std::vector<uint8_t>* initial = nullptr;  // at the launch's start, when kept
  std::optional<isa::DType> written_as;           // the cell type of the Fixpipes writing it, if any
};

struct RecordedLaunch {
  std::string kernel;
  CallSite site;
  std::vector<RecordedTensor> tensors;
  std::vector<std::vector<isa::Instruction>> programs;  // one per block
  size_t instructions() const;
  std::vector<std::string> tensor_names() const;
};

RecordedLaunch finish_recording(Launch& l, const LaunchTensors& t, CallSite site);

// The tensor name an argument's spelling gives: the spelling if it is a plain identifier, else "".
std::string argument_name(const std::string& spelling);
// The top-level comma-separated items of an argument list's text.
std::vector<std::string> split_arguments(const std::string& text);

}  // namespace aicore::frontend
