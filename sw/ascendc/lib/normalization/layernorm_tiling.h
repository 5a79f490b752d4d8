// Host tiling of LayerNorm's [B, S, H] form (CANN 8.1 lib/normalization/layernorm_tiling.h;
// asc-devkit docs/api LayerNorm-Tiling.md). The kernel keeps the mean, variance and deviation
// of every row and five float rows (norm_common.h), so the minimum and maximum temporary sizes
// are the same.
#pragma once
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  const uint32_t dims = static_cast<uint32_t>(srcShape.GetDimNum());
  const uint32_t h = dims ? static_cast<uint32_t>(srcShape.GetDim(dims - 1)) : 0;
  const uint32_t rows = dims ? static_cast<uint32_t>(srcShape.GetShapeSize() / (h ? h : 1)) : 0;
  maxValue = minValue = dims ? npuvp::lib_tiling::layernorm_tmp_bytes(rows, h) : 0;
}

// srcShape is [B, S, H] (H: the 32 B padded row; its valid length is H too).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
  (void)typeSize;
  (void)isReuseSource;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(h);
  tiling.set_inputXSize(b * s * h);
  tiling.set_meanVarSize(b * s);
  tiling.set_numberOfTmpBuf(5);
  tiling.set_tmpBufSize(stackBufferSize / 4);
  tiling.set_oneTmpSize(h);
  tiling.set_loopRound(1);
  tiling.set_inputRoundSize(b * s * h);
  tiling.set_meanVarRoundSize(b * s);
  tiling.set_bshCurLength(b * s * h);
  tiling.set_bsCurLength(b * s);
  tiling.set_lastDimValueBack(h ? 1.0f / float(h) : 0.0f);
}

[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]]
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

}  // namespace AscendC
