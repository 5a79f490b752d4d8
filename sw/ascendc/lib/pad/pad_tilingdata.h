// PadTiling and UnPadTiling (field lists: CANN 8.1 lib/pad/pad_tilingdata.h), in the two forms
// of lib_tiling_data.h. Pad reads srcHeight, srcWidth, srcOriWidth and heightTiling (rows per
// pass); UnPad reads srcHeight, srcWidth and tmpBuffer1RowNum (rows per pass). The other
// fields are kept for layout and left 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

// The field macros (NPUVP_TILING_KERNEL_FIELD, ...); that header includes this one at its end,
// so either can be included first.
#include "sw/ascendc/lib/lib_tiling_data.h"

#define NPUVP_PAD_TILING_FIELDS(F)                                                                \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, srcOriWidth)                           \
  F(uint32_t, widthWithoutLastBlock) F(uint32_t, blocksPerRow) F(uint32_t, heightTiling)          \
  F(uint32_t, heightFractal) F(uint32_t, heightFractalTail) F(uint32_t, mainLoopOffset)           \
  F(uint32_t, tailBlockOffset) F(uint32_t, tmpBuffer1BlockNum) F(uint32_t, tmpBuffer1RowNum)      \
  F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling) F(uint32_t, widthFractal)                \
  F(uint32_t, widthFractalTail) F(uint32_t, widthFractalTailAlingned) F(uint32_t, brcbTiling)     \
  F(uint32_t, brcbFractal) F(uint32_t, brcbFractalTail) F(uint32_t, maxRepeatTimes)               \
  F(uint32_t, brcbTilingRepeatTimes) F(uint32_t, brcbTilingRepeatTimesTail)                       \
  F(uint32_t, brcbFractalTailRepeatTimes) F(uint32_t, brcbFractalTailRepeatTimesTail)             \
  F(uint32_t, reserved)

#define NPUVP_UNPAD_TILING_FIELDS(F)                                                              \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, tmpBuffer1BlockNum)                    \
  F(uint32_t, tmpBuffer1RowNum) F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling)            \
  F(uint32_t, widthFractal) F(uint32_t, widthFractalTail)

namespace AscendC::tiling {
struct PadTiling {
  NPUVP_PAD_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
struct UnPadTiling {
  NPUVP_UNPAD_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
}  // namespace AscendC::tiling
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;

namespace optiling {
NPUVP_TILING_HOST_STRUCT(PadTiling, NPUVP_PAD_TILING_FIELDS)
NPUVP_TILING_HOST_STRUCT(UnPadTiling, NPUVP_UNPAD_TILING_FIELDS)
}  // namespace optiling

static_assert(sizeof(optiling::PadTiling) == sizeof(AscendC::tiling::PadTiling), "one layout");
static_assert(sizeof(optiling::UnPadTiling) == sizeof(AscendC::tiling::UnPadTiling), "one layout");

namespace npuvp::lib_tiling {
// Pad and UnPad move elements with Gather: one uint32 byte offset per destination element of a
// pass, so a pass of `rows` rows of `width` destination elements needs 4 * rows * width bytes.
inline uint32_t pad_offsets_bytes(uint32_t rows, uint32_t width) { return (4u * rows * width + 31u) / 32u * 32u; }
}  // namespace npuvp::lib_tiling
