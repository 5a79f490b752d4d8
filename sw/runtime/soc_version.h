// CANN's SoC names (SOC_VERSION: Ascend910B1, Ascend310P3, ...) and the npuvp platforms
// that model them. The CANN build flows (cmake/cann/) compile kernels and hosts with
// NPUVP_SOC_VERSION="<name>", which makes that chip the process's default platform;
// $NPUVP_PLATFORM still overrides it.
#pragma once

namespace npuvp::runtime {
// The npuvp platform for a CANN SoC name, or nullptr if npuvp models no such chip.
const char* platform_for_soc(const char* soc_version);
// Makes the chip named `soc_version` the default platform of this process (used when
// $NPUVP_PLATFORM is not set). Returns false if the name is unknown.
bool set_default_soc(const char* soc_version);
}  // namespace npuvp::runtime
