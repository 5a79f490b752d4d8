// Constants of CANN's kernel headers that published kernels use unqualified under
// `using namespace AscendC` (CANN's kernel_utils_constants.h).
#pragma once
#include <cstdint>

namespace AscendC {

inline constexpr int32_t DEFAULT_C0_SIZE = 32;      // bytes of one 32 B block
inline constexpr int32_t DEFAULT_BLOCK_SIZE = 256;  // bytes of one vector repeat
inline constexpr int32_t MIN_REPEAT_TIMES = 0;

// The local buffers of the chip the kernel is compiled for (__CCE_AICORE__, which both build
// routes define; without it, the A2's): UB, the part of it kernels may use (CANN keeps the
// top 8 KiB), L1 and L0C. The 310P and 910 (__CCE_AICORE__ <= 200) have 256 KiB of UB.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ <= 200
inline constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
inline constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
inline constexpr uint32_t TOTAL_L1_SIZE = 1024 * 1024;
inline constexpr uint32_t TOTAL_L0C_SIZE = 256 * 1024;
#else
inline constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
inline constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
inline constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
inline constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
#endif

}  // namespace AscendC
