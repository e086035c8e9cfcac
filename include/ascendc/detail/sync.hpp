// SetFlag / WaitFlag / PipeBarrier and the HardEvent table: which pipes an event joins, and what
// the Cube core does with it. Events that involve the Vector pipe and have no meaning on the AIC
// (MTE2_V, V_MTE2, MTE3_V, V_MTE3, V_V, S_V, V_S) are ignored there, as the Ascend C library does;
// the other V events are compile-time errors. FIX_FIX is a PipeBarrier<PIPE_FIX>.
#pragma once
#include <cstdint>
#include <type_traits>

#include "aicore/frontend/pipe_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/compiler_env.hpp"
#include "ascendc/detail/enums.hpp"
#include "ascendc/detail/soft_float.hpp"

namespace AscendC {

using aicore::frontend::CallSite;

namespace detail {

using aicore::isa::Pipe;

enum class EventKind : uint8_t { Flag, IgnoredOnAic, Barrier, VectorOnly, None };
struct EventInfo {
  const char* name;
  Pipe src, dst;
  EventKind kind;
};

constexpr EventInfo event_info(HardEvent e) {
  constexpr auto F = EventKind::Flag, I = EventKind::IgnoredOnAic, V = EventKind::VectorOnly;
  switch (e) {
    case HardEvent::MTE2_MTE1:
      return {"MTE2_MTE1", Pipe::MTE2, Pipe::MTE1, F};
    case HardEvent::MTE1_MTE2:
      return {"MTE1_MTE2", Pipe::MTE1, Pipe::MTE2, F};
    case HardEvent::MTE1_M:
      return {"MTE1_M", Pipe::MTE1, Pipe::M, F};
    case HardEvent::M_MTE1:
      return {"M_MTE1", Pipe::M, Pipe::MTE1, F};
    case HardEvent::MTE2_V:
      return {"MTE2_V", Pipe::MTE2, Pipe::S, I};
    case HardEvent::V_MTE2:
      return {"V_MTE2", Pipe::S, Pipe::MTE2, I};
    case HardEvent::MTE3_V:
      return {"MTE3_V", Pipe::MTE3, Pipe::S, I};
    case HardEvent::V_MTE3:
      return {"V_MTE3", Pipe::S, Pipe::MTE3, I};
    case HardEvent::M_V:
      return {"M_V", Pipe::M, Pipe::S, V};
    case HardEvent::V_M:
      return {"V_M", Pipe::S, Pipe::M, V};
    case HardEvent::V_V:
      return {"V_V", Pipe::S, Pipe::S, I};
    case HardEvent::MTE3_MTE1:
      return {"MTE3_MTE1", Pipe::MTE3, Pipe::MTE1, F};
    case HardEvent::MTE1_MTE3:
      return {"MTE1_MTE3", Pipe::MTE1, Pipe::MTE3, F};
    case HardEvent::MTE1_V:
      return {"MTE1_V", Pipe::MTE1, Pipe::S, V};
    case HardEvent::MTE2_M:
      return {"MTE2_M", Pipe::MTE2, Pipe::M, F};
    case HardEvent::M_MTE2:
      return {"M_MTE2", Pipe::M, Pipe::MTE2, F};
    case HardEvent::V_MTE1:
      return {"V_MTE1", Pipe::S, Pipe::MTE1, V};
    case HardEvent::M_FIX:
      return {"M_FIX", Pipe::M, Pipe::FIX, F};
    case HardEvent::FIX_M:
      return {"FIX_M", Pipe::FIX, Pipe::M, F};
    case HardEvent::MTE3_MTE2:
      return {"MTE3_MTE2", Pipe::MTE3, Pipe::MTE2, F};
    case HardEvent::MTE2_MTE3:
      return {"MTE2_MTE3", Pipe::MTE2, Pipe::MTE3, F};
    case HardEvent::S_V:
      return {"S_V", Pipe::S, Pipe::S, I};
    case HardEvent::V_S:
      return {"V_S", Pipe::S, Pipe::S, I};
    case HardEvent::S_MTE2:
      return {"S_MTE2", Pipe::S, Pipe::MTE2, F};
    case HardEvent::MTE2_S:
      return {"MTE2_S", Pipe::MTE2, Pipe::S, F};
    case HardEvent::S_MTE3:
      return {"S_MTE3", Pipe::S, Pipe::MTE3, F};
    case HardEvent::MTE3_S:
      return {"MTE3_S", Pipe::MTE3, Pipe::S, F};
    case HardEvent::MTE2_FIX:
      return {"MTE2_FIX", Pipe::MTE2, Pipe::FIX, F};
    case HardEvent::FIX_MTE2:
      return {"FIX_MTE2", Pipe::FIX, Pipe::MTE2, F};
    case HardEvent::FIX_S:
      return {"FIX_S", Pipe::FIX, Pipe::S, F};
    case HardEvent::M_S:
      return {"M_S", Pipe::M, Pipe::S, F};
    case HardEvent::FIX_MTE3:
      return {"FIX_MTE3", Pipe::FIX, Pipe::MTE3, F};
    case HardEvent::MTE1_FIX:
      return {"MTE1_FIX", Pipe::MTE1, Pipe::FIX, F};
    case HardEvent::FIX_MTE1:
      return {"FIX_MTE1", Pipe::FIX, Pipe::MTE1, F};
    case HardEvent::FIX_FIX:
      return {"FIX_FIX", Pipe::FIX, Pipe::FIX, EventKind::Barrier};
    default:
      return {"MAX", Pipe::S, Pipe::S, EventKind::None};
  }
}

constexpr bool is_vector_pipe(pipe_t p) {
  return p == PIPE_V;
}
constexpr Pipe isa_pipe(pipe_t p) {
  switch (p) {
    case PIPE_MTE1:
      return Pipe::MTE1;
    case PIPE_MTE2:
      return Pipe::MTE2;
    case PIPE_MTE3:
      return Pipe::MTE3;
    case PIPE_M:
      return Pipe::M;
    case PIPE_FIX:
      return Pipe::FIX;
    default:
      return Pipe::S;
  }
}

template <HardEvent event>
void flag(bool wait, int32_t id, CallSite site) {
  constexpr EventInfo info = event_info(event);
  static_assert(
      info.kind != EventKind::VectorOnly,
      "SetFlag/WaitFlag: this HardEvent involves the Vector pipe, which the Cube core does not have");
  const char* api = wait ? "WaitFlag" : "SetFlag";
  if constexpr (info.kind == EventKind::Flag) {
    if (wait)
      aicore::frontend::wait_flag({info.src, info.dst}, id, site, api);
    else
      aicore::frontend::set_flag({info.src, info.dst}, id, site, api);
  } else if constexpr (info.kind == EventKind::Barrier) {
    aicore::frontend::pipe_barrier(Pipe::FIX, false, site, api);
  }
}

}  // namespace detail

template <HardEvent event>
void SetFlag(int32_t eventID, CallSite site = CallSite::here()) {
  detail::flag<event>(false, eventID, site);
}
template <HardEvent event>
void WaitFlag(int32_t eventID, CallSite site = CallSite::here()) {
  detail::flag<event>(true, eventID, site);
}

template <pipe_t pipe>
void PipeBarrier(CallSite site = CallSite::here()) {
  static_assert(!detail::is_vector_pipe(pipe), "PipeBarrier<PIPE_V>: the Cube core has no Vector pipe");
  aicore::frontend::pipe_barrier(detail::isa_pipe(pipe), pipe == PIPE_ALL, site, "PipeBarrier");
}

// Raw flags between two pipes.
template <pipe_t src, pipe_t dst>
struct TQueSync {
  static_assert(!detail::is_vector_pipe(src) && !detail::is_vector_pipe(dst) && src != PIPE_ALL &&
                    dst != PIPE_ALL,
                "TQueSync: both pipes must be Cube-core pipes (not PIPE_V or PIPE_ALL)");
  void SetFlag(TEventID id, CallSite site = CallSite::here()) {
    aicore::frontend::set_flag({detail::isa_pipe(src), detail::isa_pipe(dst)}, id, site, "TQueSync::SetFlag");
  }
  void WaitFlag(TEventID id, CallSite site = CallSite::here()) {
    aicore::frontend::wait_flag({detail::isa_pipe(src), detail::isa_pipe(dst)}, id, site,
                                "TQueSync::WaitFlag");
  }
};

// Across the blocks of a launch (docs/ascendc.md, "SyncAll and atomics"). SyncAll<isAIVOnly>():
// on the Cube-only model both forms synchronise every block of the launch. The software form with
// GM and UB workspaces needs the Vector core's UB, which is not modelled.
template <bool isAIVOnly = true>
void SyncAll(CallSite site = CallSite::here()) {
  aicore::frontend::issue(aicore::isa::SyncAll{}, site, "SyncAll");
}

// Later Fixpipes of this block add to GM (float, half or int32_t elements) until SetAtomicNone.
template <typename T>
void SetAtomicAdd(CallSite site = CallSite::here()) {
  static_assert(
      std::is_same<T, float>::value || std::is_same<T, half>::value || std::is_same<T, int32_t>::value,
      "SetAtomicAdd<T>: aicore-sim models atomic adds of float, half and int32_t");
  aicore::isa::SetAtomicAdd op;
  op.dtype = std::is_same<T, float>::value  ? aicore::isa::DType::Float
             : std::is_same<T, half>::value ? aicore::isa::DType::Half
                                            : aicore::isa::DType::Int32;
  aicore::frontend::issue(op, site, "SetAtomicAdd");
}

inline void SetAtomicNone(CallSite site = CallSite::here()) {
  aicore::frontend::issue(aicore::isa::SetAtomicNone{}, site, "SetAtomicNone");
}

}  // namespace AscendC
