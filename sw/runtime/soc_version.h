// CANN's SoC names (SOC_VERSION: Ascend910B1, Ascend310P3, ...) and the npuvp platforms
// that model them. The CANN build flows (cmake/cann/) compile kernels and hosts with
// NPUVP_SOC_VERSION="<name>", which makes that chip the process's default platform;
// $NPUVP_PLATFORM still overrides it.
#pragma once

#ifdef NPUVP_SOC_VERSION
#include <cstdio>
#endif

namespace npuvp::runtime {
// The npuvp platform for a CANN SoC name, or nullptr if npuvp models no such chip.
const char* platform_for_soc(const char* soc_version);
// Makes the chip named `soc_version` the default platform of this process (used when
// $NPUVP_PLATFORM is not set). Returns false if the name is unknown.
bool set_default_soc(const char* soc_version);
// The platform set_default_soc chose, or nullptr if none was.
const char* default_soc_platform();
}  // namespace npuvp::runtime

#ifdef NPUVP_SOC_VERSION
namespace npuvp::runtime::detail {
// Every translation unit built for a named chip (kernel library and host alike) makes that
// chip the default before main; one variable in the process, whichever module runs it first.
inline const bool soc_version_default = [] {
  if (!set_default_soc(NPUVP_SOC_VERSION)) {
    std::fprintf(stderr, "[npuvp] warning: SOC_VERSION %s is not a chip npuvp models\n", NPUVP_SOC_VERSION);
    return false;
  }
  return true;
}();
}  // namespace npuvp::runtime::detail
#endif
