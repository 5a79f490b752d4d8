// Host tiling of Pad and UnPad (CANN 8.1 lib/pad/pad_tiling.h; asc-devkit docs/api Pad-Tiling.md,
// UnPad-Tiling.md). Shapes are [height, width]. The temporary buffer holds the Gather offsets
// of one pass (pad_offsets_bytes); min: the fewest rows a pass may have, max: all rows at once.
// A shape these kernels cannot take leaves the sizes and the tiling 0, and the kernel then
// names the problem. The platform argument of GetUnPadMaxMinTmpSize may be any type.
#pragma once
#include <algorithm>
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {
namespace pad_detail {
inline bool shape_2d(const ge::Shape& s, uint32_t& h, uint32_t& w) {
  if (s.GetDimNum() != 2 || s.GetDim(0) <= 0 || s.GetDim(1) <= 0) return false;
  h = static_cast<uint32_t>(s.GetDim(0));
  w = static_cast<uint32_t>(s.GetDim(1));
  return true;
}
// Rows per pass for a destination row of `width` elements: as many as fit `bytes`, all when
// they fit, otherwise a multiple of `granule`; 0 when not even one granule fits.
inline uint32_t rows_per_pass(uint32_t height, uint32_t width, uint32_t bytes, uint32_t granule) {
  const uint32_t fit = bytes / (4u * width);
  if (fit >= height) return height;
  return fit / granule * granule;
}
}  // namespace pad_detail

// Pad: a width already 32 B aligned needs no temporary buffer (the pad columns are overwritten
// in place); an unaligned width needs the offsets of at least one padded row.
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
  maxValue = minValue = 0;
  uint32_t h = 0, w = 0;
  if (!pad_detail::shape_2d(srcShape, h, w) || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t be = 32u / typeSize;
  if (w % be == 0) return;
  const uint32_t padded = (w + be - 1) / be * be;
  minValue = npuvp::lib_tiling::pad_offsets_bytes(1, padded);
  maxValue = npuvp::lib_tiling::pad_offsets_bytes(h, padded);
}

inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
  tiling = optiling::PadTiling{};
  uint32_t h = 0, w = 0, oh = 0, ow = 0;
  if (!pad_detail::shape_2d(srcShape, h, w) || !pad_detail::shape_2d(oriSrcShape, oh, ow) ||
      (typeSize != 2 && typeSize != 4))
    return;
  const uint32_t be = 32u / typeSize;
  tiling.set_srcHeight(h);
  tiling.set_srcWidth(w);
  tiling.set_srcOriWidth(ow);
  if (w % be == 0) {  // padding in place: one pass
    tiling.set_heightTiling(h);
  } else {
    const uint32_t padded = (w + be - 1) / be * be;
    tiling.set_widthTiling(padded);
    tiling.set_heightTiling(pad_detail::rows_per_pass(h, padded, stackBufferSize, 1));
  }
  const uint32_t rows = tiling.get_heightTiling();
  if (rows) {
    tiling.set_heightFractal(h / rows);
    tiling.set_heightFractalTail(h % rows);
  }
}

// UnPad: the destination rows are packed, so a pass that is not the last must end 32 B
// aligned: a multiple of 32 / typeSize rows works for every rightPad.
template <class Platform>
void GetUnPadMaxMinTmpSize(const Platform& ascendcPlatform, const ge::Shape& srcShape, const uint32_t typeSize,
                           uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  maxValue = minValue = 0;
  uint32_t h = 0, w = 0;
  if (!pad_detail::shape_2d(srcShape, h, w) || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t be = 32u / typeSize;
  minValue = npuvp::lib_tiling::pad_offsets_bytes(std::min(h, be), w);
  maxValue = npuvp::lib_tiling::pad_offsets_bytes(h, w);
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
  tiling = optiling::UnPadTiling{};
  uint32_t h = 0, w = 0;
  if (!pad_detail::shape_2d(srcShape, h, w) || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t be = 32u / typeSize;
  tiling.set_srcHeight(h);
  tiling.set_srcWidth(w);
  tiling.set_tmpBuffer1RowNum(pad_detail::rows_per_pass(h, w, stackBufferSize, be));
  tiling.set_widthTiling(w);
}

}  // namespace AscendC
