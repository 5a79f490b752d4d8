// GetSiluTmpSize and GetSwishTmpSize (asc-devkit docs/api GetSiluTmpSize.md,
// GetSwishTmpSize.md): Silu and Swish take no temporary buffer argument, so both sizes are 0,
// as CANN reports. npuvp's kernels (lib/activation/silu.h, swish.h) borrow the pipe's free UB
// for their float work, so leave some UB unallocated.
#pragma once
#include <cstdint>
#include "graph/tensor.h"

namespace AscendC {

inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
  (void)srcShape;
  (void)typeSize;
  (void)isReuseSource;
  maxValue = minValue = 0;
}

inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
  GetSiluTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}

}  // namespace AscendC
