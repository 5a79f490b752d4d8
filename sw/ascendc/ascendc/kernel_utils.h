// Constants of CANN's kernel headers that published kernels use unqualified under
// `using namespace AscendC` (CANN's kernel_utils_constants.h).
#pragma once
#include <cstdint>

namespace AscendC {

inline constexpr int32_t DEFAULT_C0_SIZE = 32;      // bytes of one 32 B block
inline constexpr int32_t DEFAULT_BLOCK_SIZE = 256;  // bytes of one vector repeat
inline constexpr int32_t MIN_REPEAT_TIMES = 0;

}  // namespace AscendC
