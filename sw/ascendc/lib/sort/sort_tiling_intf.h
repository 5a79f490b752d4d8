// Host side of Sort and Concat (asc-devkit 高阶API/排序操作 GetSortTmpSize.md,
// GetConcatTmpSize.md; CANN 8.1 lib/sort/sort_tiling_intf.h): the temporary buffer bytes for
// elemCount elements of dataTypeSize bytes. A2: Concat needs none, Sort one sorted copy (8 B
// records); the region-proposal chips: 8 elements per proposal for both.
#pragma once
#include <cstdint>
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
  if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B) return 0;
  return elemCount * 8u * dataTypeSize;
}

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
  if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B) {
    return elemCount * 8u;  // one (score, index) record of 8 B per element, half or float
  }
  return elemCount * 8u * dataTypeSize;
}

}  // namespace AscendC
