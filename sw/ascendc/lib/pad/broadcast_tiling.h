// GetBroadCastMaxMinTmpSize (CANN 8.1 lib/pad/broadcast_tiling.h): Broadcast uses no
// temporary buffer here (broadcast.h), so both sizes are 0. The platform argument is CANN's
// platform_ascendc::PlatformAscendC; any type is accepted.
#pragma once
#include <cstdint>
#include "graph/tensor.h"

namespace AscendC {

template <class Platform>
void GetBroadCastMaxMinTmpSize(const Platform& ascendcPlatform, const ge::Shape& srcShape, const ge::Shape& dstShape,
                               uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)srcShape;
  (void)dstShape;
  (void)typeSize;
  (void)isReuseSource;
  maxValue = minValue = 0;
}

}  // namespace AscendC
