// Ascend C names of the enumerators, for messages.
#pragma once
#include "aicore/frontend/pipe_core.hpp"
#include "ascendc/detail/enums.hpp"

namespace aicore::frontend {

const char* position_name(AscendC::TPosition p);
const char* hard_event_name(AscendC::HardEvent e);
const char* buffer_state_name(BufferState s);

}  // namespace aicore::frontend
