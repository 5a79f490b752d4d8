#include "sw/runtime/soc_version.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace npuvp::runtime {
namespace {
// CANN's SoC names per modelled chip (the SOC_VERSION values of its build flows; the
// __CCE_AICORE__ families 100, 200 and 220). Matched without regard to case, as some
// projects pass the lower-case spelling.
struct SocName {
  const char* soc;
  const char* platform;
};
constexpr SocName kSocNames[] = {
    {"Ascend910A", "ascend910"},      {"Ascend910B", "ascend910"},      {"Ascend910ProA", "ascend910"},
    {"Ascend910ProB", "ascend910"},   {"Ascend910PremiumA", "ascend910"},
    {"Ascend910B1", "ascend910b"},    {"Ascend910B2", "ascend910b"},    {"Ascend910B2C", "ascend910b"},
    {"Ascend910B3", "ascend910b"},    {"Ascend910B4", "ascend910b"},    {"Ascend910B4-1", "ascend910b"},
    {"Ascend310P1", "ascend310p"},    {"Ascend310P2", "ascend310p"},    {"Ascend310P3", "ascend310p"},
    {"Ascend310P4", "ascend310p"},    {"Ascend310P5", "ascend310p"},    {"Ascend310P7", "ascend310p"},
};

std::string& default_platform() {
  static std::string platform;
  return platform;
}
}  // namespace

const char* platform_for_soc(const char* soc_version) {
  if (soc_version == nullptr) return nullptr;
  for (const auto& n : kSocNames) {
    if (strcasecmp(n.soc, soc_version) == 0) return n.platform;
  }
  return nullptr;
}

bool set_default_soc(const char* soc_version) {
  const char* platform = platform_for_soc(soc_version);
  if (platform == nullptr) return false;
  default_platform() = platform;
  // aclrtGetSocName reports the name the program was built for; a value the user set wins.
  setenv("NPUVP_SOC_VERSION", soc_version, 0);
  return true;
}

const char* default_soc_platform() {
  return default_platform().empty() ? nullptr : default_platform().c_str();
}
}  // namespace npuvp::runtime
