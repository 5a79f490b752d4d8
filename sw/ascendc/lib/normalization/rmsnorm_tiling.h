// Host tiling of RmsNorm (CANN 8.1 lib/normalization/rmsnorm_tiling.h; asc-devkit docs/api
// RmsNorm-Tiling.md). srcShape [B, S, H] with H padded to 32 B, originSrcShape [B, S, H0]
// with the valid H0 <= H. The kernel keeps one value per row and four float rows
// (norm_common.h): minimum and maximum temporary sizes are the same.
#pragma once
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3 || typeSize == 0) return false;
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  if (h == 0 || h * typeSize % 32 != 0) return false;
  const uint32_t rows = static_cast<uint32_t>(srcShape.GetDim(0) * srcShape.GetDim(1));
  maxValue = minValue = npuvp::lib_tiling::rmsnorm_tmp_bytes(rows, h);
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  uint32_t maxValue = 0, minValue = 0;
  if (!GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock)) return false;
  if (originSrcShape.GetDimNum() != 3 || stackBufferByteSize < minValue) return false;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  const uint32_t h0 = static_cast<uint32_t>(originSrcShape.GetDim(2));
  if (h0 == 0 || h0 > h) return false;
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(h0);
  tiling.set_reciprocalOfHLength(1.0f / float(h0));
  tiling.set_mainBshLength(b * s * h);
  tiling.set_mainBsLength(b * s);
  tiling.set_mainBsLengthAlign((b * s + 7) / 8 * 8);
  tiling.set_loopRound(1);
  tiling.set_inputTailPos(b * s * h);
  tiling.set_tailBshLength(0);
  tiling.set_tailBsLength(0);
  return true;
}

}  // namespace AscendC
