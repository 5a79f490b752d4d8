// CANN's platform queries for host tiling code (tiling/platform/platform_ascendc.h), answered
// from the npuvp platform this process runs on: $NPUVP_PLATFORM, else the SoC the program was
// built for (SOC_VERSION), with $NPUVP_SET's overrides (`platform.cores=4` changes the core
// counts, `core.ub.size=...` the UB size). The first query builds the device, as the first
// ACL call would. (hiascend.com Ascend C API: PlatformAscendC, PlatformAscendCManager.)
// Differs from CANN: fe::PlatFormInfos is opaque and unused (a PlatformAscendC built from one
// answers for the process's platform too).
#pragma once
#include <cstdint>

namespace fe {
class PlatFormInfos;
}

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}
  // Separated chips: vector cores (AIVs); coupled: AI Cores.
  uint32_t GetCoreNum(void) const;
  // Cube cores (AICs) on separated chips, AI Cores on coupled ones.
  uint32_t GetCoreNumAic(void) const;
  // Vector cores (AIVs) on separated chips, AI Cores on coupled ones.
  uint32_t GetCoreNumAiv(void) const;
  // Vector Cores beside the AI Cores (310P's): npuvp models none, so 0.
  uint32_t GetCoreNumVector(void) const;
  // The block dim for sliceNum slices: cube kernels count AICs, vector kernels AIVs; a mix
  // kernel on a separated chip launches one block per AIC with its AIVs.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  // The system workspace the high-level APIs (Matmul) use at the start of a kernel's workspace.
  uint32_t GetLibApiWorkSpaceSize(void) const;
  uint32_t GetResCubeGroupWorkSpaceSize(void) const;
  uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  // Bytes per core clock cycle.
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  SocVersion GetSocVersion(void) const;

 private:
  fe::PlatFormInfos* platformInfo_;
};

class PlatformAscendCManager {
 public:
  // The process's platform; customSocVersion (a CANN SoC name) chooses it when nothing else
  // has (no $NPUVP_PLATFORM, no SOC_VERSION build, no device built yet). nullptr if the name
  // is not a chip npuvp models.
  static PlatformAscendC* GetInstance();
  static PlatformAscendC* GetInstance(const char* customSocVersion);

 private:
  PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
