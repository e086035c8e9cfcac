// The Cube intrinsics' overloads this front end does not support yet: declared, so that a kernel
// calling one fails to compile with a message naming it (a static_assert) instead of an overload
// error or, worse, a silent no-op.
#pragma once
#include <cstdint>

#include "ascendc/detail/intrinsics.hpp"

namespace AscendC {

template <typename T>
void DataCopy(const GlobalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&,
              CallSite = CallSite::here()) {
  static_assert(detail::unsupported<T>::value,
                "DataCopy to GM (L1 -> GM, UB -> GM) is not supported yet by aicore-sim");
}
template <typename T>
void DataCopy(const GlobalTensor<T>&, const LocalTensor<T>&, const uint32_t, CallSite = CallSite::here()) {
  static_assert(detail::unsupported<T>::value,
                "DataCopy to GM (L1 -> GM, UB -> GM) is not supported yet by aicore-sim");
}
template <typename T>
void LoadData(const LocalTensor<T>&, const GlobalTensor<T>&, const LoadData2DParams&,
              CallSite = CallSite::here()) {
  static_assert(detail::unsupported<T>::value,
                "LoadData from GM (GM -> L0A/L0B/L1) is not supported yet by aicore-sim");
}
template <typename T>
void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2Pro&,
              CallSite = CallSite::here()) {
  static_assert(detail::unsupported<T>::value,
                "LoadData with LoadData3DParamsV2Pro (its map comes from SetFmatrix) is not supported yet by "
                "aicore-sim: give the map in LoadData3DParamsV2");
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>&, const LocalTensor<U>&, const FixpipeParamsV220&,
             CallSite = CallSite::here()) {
  static_assert(detail::unsupported<T>::value, "Fixpipe L0C -> L1 is not supported yet by aicore-sim");
}

}  // namespace AscendC
