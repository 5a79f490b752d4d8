// platform_ascendc::PlatformAscendC answered from the npuvp platform of this process: the
// device is built on the first query (as the first ACL call builds it), and every answer is
// a configuration value the models declared while being built, so overrides ($NPUVP_SET,
// `npuvp run --set`) are what the queries see.
#include "tiling/platform/platform_ascendc.h"

#include <cstdlib>
#include <mutex>
#include <string>

#include "sw/runtime/device.h"
#include "sw/runtime/soc_version.h"
#include "tlm/config.h"
#include "tlm/log.h"

namespace platform_ascendc {
namespace {

const nlohmann::json& parameter(const std::string& key) {
  static std::mutex mutex;
  static std::vector<npuvp::Config::Parameter> parameters;
  const std::lock_guard<std::mutex> lock(mutex);
  if (parameters.empty()) parameters = npuvp::Config::global().parameters();
  for (const auto& p : parameters) {
    if (p.key == key) return p.value;
  }
  npuvp::raise("platform_ascendc", "the platform has no parameter {} (is this an Ascend platform?)", key);
}

uint64_t number(const std::string& key) { return parameter(key).get<uint64_t>(); }
double real(const std::string& key) { return parameter(key).get<double>(); }
bool separated() { return parameter("platform.architecture").get<std::string>() == "separated"; }

}  // namespace

uint32_t PlatformAscendC::GetCoreNumAic(void) const { return static_cast<uint32_t>(number("platform.cores")); }

uint32_t PlatformAscendC::GetCoreNumAiv(void) const {
  const uint64_t cores = number("platform.cores");
  return static_cast<uint32_t>(separated() ? cores * number("platform.aiv_per_core") : cores);
}

uint32_t PlatformAscendC::GetCoreNum(void) const { return GetCoreNumAiv(); }

uint32_t PlatformAscendC::GetCoreNumVector(void) const {
  return separated() ? 0 : static_cast<uint32_t>(number("platform.vector_cores"));
}

uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  // A mixed kernel on a separated chip: one block is an AIC and its AIVs, so the slices (in
  // AIV units) need a block per aiv/aic of them.
  if (!separated() || aicCoreNum == 0 || aivCoreNum == 0) return sliceNum;
  const uint32_t ratio = aivCoreNum / aicCoreNum;
  return ratio == 0 ? sliceNum : (sliceNum + ratio - 1) / ratio;
}

// CANN reserves 16 MiB for the high-level APIs' system workspace on every product; npuvp's
// Matmul keeps its cross-core messages there (lib/matmul_intf.h).
uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const { return 16u * 1024 * 1024; }
uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize(void) const { return 0; }
uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize(void) const { return 0; }

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  switch (memType) {
    case CoreMemType::L0_A: size = number("core.l0a.size"); return;
    case CoreMemType::L0_B: size = number("core.l0b.size"); return;
    case CoreMemType::L0_C: size = number("core.l0c.size"); return;
    case CoreMemType::L1: size = number("core.l1.size"); return;
    case CoreMemType::L2: size = number("l2.size"); return;
    case CoreMemType::UB: size = number("core.ub.size"); return;
    case CoreMemType::HBM: size = number("gm.size"); return;
    case CoreMemType::RESERVED: break;
  }
  size = 0;
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
  // Bytes per AI Core clock cycle, for the whole chip (CANN documents L2 and HBM).
  const double core_hz = real("core.clock_mhz") * 1e6;
  switch (memType) {
    case CoreMemType::HBM:
      bwSize = static_cast<uint64_t>(real("dram.controllers") * real("dram.channels") * real("dram.channel_gbps") * 1e9 /
                                     core_hz);
      return;
    case CoreMemType::L2:
      bwSize = static_cast<uint64_t>(real("l2.slices") * real("l2.bytes_per_cycle") * real("interconnect.clock_mhz") *
                                     1e6 / core_hz);
      return;
    default: bwSize = 0; return;
  }
}

SocVersion PlatformAscendC::GetSocVersion(void) const {
  const std::string product = parameter("core.product").get<std::string>();
  if (product == "ascend910") return SocVersion::ASCEND910;
  if (product == "ascend310p") return SocVersion::ASCEND310P;
  if (product == "ascend910b") return SocVersion::ASCEND910B;
  return SocVersion::RESERVED_VERSION;
}

PlatformAscendC* PlatformAscendCManager::GetInstance() { return GetInstance(nullptr); }

PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  static std::mutex mutex;
  static PlatformAscendC platform(nullptr);
  const std::lock_guard<std::mutex> lock(mutex);
  if (!npuvp::Device::built()) {
    // The named chip, unless $NPUVP_PLATFORM or the build's SOC_VERSION already chose one.
    if (customSocVersion != nullptr && std::getenv("NPUVP_PLATFORM") == nullptr &&
        npuvp::runtime::default_soc_platform() == nullptr && !npuvp::runtime::set_default_soc(customSocVersion)) {
      return nullptr;
    }
    npuvp::Device::instance();
  }
  return &platform;
}

}  // namespace platform_ascendc
