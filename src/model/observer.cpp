#include "aicore/model/observer.hpp"

namespace aicore::model {

const char* to_string(WaitCause c) {
  switch (c) {
    case WaitCause::None:
      return "";
    case WaitCause::QueueFull:
      return "queue_full";
    case WaitCause::Flag:
      return "flag";
    case WaitCause::Barrier:
      return "barrier";
    case WaitCause::Port:
      return "port";
    case WaitCause::UnitFlag:
      return "unit_flag";
  }
  return "";
}

}  // namespace aicore::model
