// The host's view of the SoC for tiling (CANN's platform_ascendc::PlatformAscendC), answered from
// the configuration the program's launches run with ($AICORE_SIM_ARGS: the preset and --set, as
// `aicore-sim kernel` passes them): the Cube core count (chip.cores) and the buffer sizes
// (buffers.*). docs/ascendc.md, "Matmul API".
#pragma once
#include <cstdint>

namespace platform_ascendc {

enum class CoreMemType : int32_t { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatformAscendC {
 public:
  PlatformAscendC();
  // The CANN constructor from the op context's platform information: the information is ignored,
  // the configuration the launches run with answers.
  explicit PlatformAscendC(const void* platformInfo) : PlatformAscendC() { (void)platformInfo; }

  // The AI Cores (Cube cores) a kernel may use: chip.cores. aicore-sim simulates the AIC side, so
  // GetCoreNum answers the same.
  uint32_t GetCoreNum() const { return cores_; }
  uint32_t GetCoreNumAic() const { return cores_; }
  // Bytes of one core's buffer; 0 for those not modelled (UB, L2 and HBM are not per-core buffers here).
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  // The library's system workspace (GetSysWorkSpacePtr): aicore-sim's Matmul uses none, so a token
  // 1 KiB, enough for the samples' aclrtMalloc of it (a size of 0 is not an allocation).
  uint32_t GetLibApiWorkSpaceSize() const { return 1024; }

 private:
  uint32_t cores_ = 0;
  uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance();
  static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc
