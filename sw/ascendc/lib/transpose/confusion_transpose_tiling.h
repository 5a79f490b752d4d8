// Host tiling of ConfusionTranspose (CANN 8.1 lib/transpose/confusion_transpose_tiling.h;
// hiascend.com Ascend C API "ConfusionTranspose Tiling" / "Transpose Tiling",
// atlasascendc_api_07_0866). srcShape is [B, N, S, H/N] for scenarios 1-6 and [H, W] for
// scenario 7 (transposeTypeIn 1..7, as the page numbers them). The temporary buffer holds the
// Gather offsets of one pass (transpose_offsets_bytes); min: a 256-element pass, max: the whole
// tensor in one pass. A shape or scenario these kernels cannot take leaves the sizes and the
// tiling 0, and the kernel then names the problem. The later names GetTransposeMaxMinTmpSize /
// GetTransposeTilingInfo are the same functions.
#pragma once
#include <algorithm>
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/transpose/confusion_transpose_tilingdata.h"

namespace AscendC {
namespace confusion_transpose_detail {
// The shape as B, N, S, H/N (scenario 7: 1, 1, H, W); false for a shape the scenario cannot take.
inline bool shape_of(const ge::Shape& s, uint32_t type, uint32_t dims[4]) {
  if (type < 1 || type > 7) return false;
  const size_t want = type == 7 ? 2 : 4;
  if (s.GetDimNum() != want) return false;
  for (size_t i = 0; i < want; ++i)
    if (s.GetDim(i) <= 0) return false;
  if (type == 7) {
    dims[0] = dims[1] = 1;
    dims[2] = static_cast<uint32_t>(s.GetDim(0));
    dims[3] = static_cast<uint32_t>(s.GetDim(1));
  } else {
    for (size_t i = 0; i < 4; ++i) dims[i] = static_cast<uint32_t>(s.GetDim(i));
  }
  return true;
}
inline uint32_t elements(const uint32_t dims[4]) { return dims[0] * dims[1] * dims[2] * dims[3]; }

template <class TilingStruct>
void fill(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize, uint32_t type,
          TilingStruct& tiling) {
  tiling = TilingStruct{};
  uint32_t dims[4] = {0, 0, 0, 0};
  if (!shape_of(srcShape, type, dims) || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t total = elements(dims);
  const uint32_t g = npuvp::lib_tiling::kTransposePassGranule;
  uint32_t pass = stackBufferSize / 4u / g * g;
  if (pass >= total) pass = total;
  tiling.param0 = dims[0];
  tiling.param1 = dims[1];
  tiling.param2 = dims[2];
  tiling.param3 = dims[3];
  tiling.param4 = type;
  tiling.param5 = pass;
  tiling.param6 = total;
}
}  // namespace confusion_transpose_detail

inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
  maxValue = minValue = 0;
  uint32_t dims[4] = {0, 0, 0, 0};
  if (!confusion_transpose_detail::shape_of(srcShape, transposeTypeIn, dims) || (typeSize != 2 && typeSize != 4))
    return;
  const uint32_t total = confusion_transpose_detail::elements(dims);
  minValue = npuvp::lib_tiling::transpose_offsets_bytes(std::min(total, npuvp::lib_tiling::kTransposeMinPass));
  maxValue = npuvp::lib_tiling::transpose_offsets_bytes(total);
}

inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

// Scenario 7 (the [H, W] two-dimensional transpose) only.
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, 7, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize,
                                                AscendC::tiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, 7, tiling);
}

inline void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
  GetConfusionTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling) {
  confusion_transpose_detail::fill(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

}  // namespace AscendC
