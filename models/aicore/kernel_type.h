// Which cores a kernel's blocks run on (Ascend C KERNEL_TYPE_*). On a coupled platform every
// type runs on the AI Cores (AIV-only also on the Vector Cores of 310P); on a separated one,
// Default means AIV-only.
#pragma once
#include <cstdint>

namespace npuvp::aicore {

enum class KernelType : uint8_t { Default, AivOnly, AicOnly, Mix1To2 };

inline const char* kernel_type_name(KernelType type) {
  switch (type) {
    case KernelType::Default: return "default";
    case KernelType::AivOnly: return "KERNEL_TYPE_AIV_ONLY";
    case KernelType::AicOnly: return "KERNEL_TYPE_AIC_ONLY";
    case KernelType::Mix1To2: return "KERNEL_TYPE_MIX_AIC_1_2";
  }
  return "?";
}

}  // namespace npuvp::aicore
