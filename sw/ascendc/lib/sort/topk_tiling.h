// Host tiling of TopK (CANN 8.1 lib/sort/topk_tiling.h; asc-devkit docs/api TopK-Tiling.md).
// The platform argument is CANN's platform_ascendc::PlatformAscendC; any type is accepted,
// since the sizes do not depend on the chip here (TopK runs on A2; topk.h).
#pragma once
#include <cstdint>
#include "sw/ascendc/lib/lib_tiling_data.h"
#include "sw/ascendc/lib/sort/topk_utils.h"

namespace AscendC {

// Temporary bytes for rows of `inner` elements: the same at most and at least (one row at a
// time). false for an inner that is not a positive multiple of 32, or TOPK_NSMALL with
// inner != 32.
template <class Platform>
bool GetTopKMaxMinTmpSize(const Platform& ascendcPlatform, const int32_t inner, const int32_t outter,
                          const bool isReuseSource, const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  (void)isInitIndex;
  (void)isLargest;
  if (inner <= 0 || inner % 32 != 0 || outter <= 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
  if (mode == TopKMode::TOPK_NSMALL && inner != 32) return false;
  maxValue = minValue = npuvp::lib_tiling::topk_tmp_bytes(static_cast<uint32_t>(inner));
  return true;
}

template <class Platform>
bool TopKTilingFunc(const Platform& ascendcPlatform, const int32_t inner, const int32_t outter, const int32_t k,
                    const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling) {
  uint32_t maxValue = 0, minValue = 0;
  if (!GetTopKMaxMinTmpSize(ascendcPlatform, inner, outter, false, isInitIndex, mode, isLargest, dataTypeSize,
                            maxValue, minValue) ||
      k <= 0 || k > inner) {
    return false;
  }
  topKTiling.set_tmpLocalSize(static_cast<int32_t>(minValue));
  topKTiling.set_allDataSize(inner * outter);
  topKTiling.set_innerDataSize(inner);
  topKTiling.set_sortRepeat(static_cast<uint32_t>(inner / 32));
  int32_t rounds = 0;
  for (int32_t run = 32; run < inner; run *= 4) ++rounds;
  topKTiling.set_mrgSortRepeat(rounds);
  topKTiling.set_kAlignFourBytes((k + 7) / 8 * 8);
  topKTiling.set_kAlignTwoBytes((k + 15) / 16 * 16);
  return true;
}

}  // namespace AscendC
