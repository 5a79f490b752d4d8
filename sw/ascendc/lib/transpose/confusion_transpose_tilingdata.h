// ConfusionTransposeTiling (field list: CANN 8.1 lib/transpose/confusion_transpose_tilingdata.h,
// param0 .. param17), in the two forms of lib_tiling_data.h. CANN does not publish what the
// fields mean; here (lib/transpose/confusion_transpose.h reads them):
//   param0..param3  the shape: B, N, S, H/N for scenarios 1-6; 1, 1, H, W for scenario 7
//   param4          the scenario (transposeTypeIn, 1..7) the tiling was made for
//   param5          elements per Gather pass the stackBufferSize allows (0: the kernel sizes
//                   the pass from the temporary buffer it is given)
//   param6          elements of the tensor (B * N * S * H/N, or H * W)
// The other fields are kept for layout and left 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sw/ascendc/lib/lib_tiling_data.h"

#define NPUVP_CONFUSION_TRANSPOSE_TILING_FIELDS(F)                                                \
  F(uint32_t, param0) F(uint32_t, param1) F(uint32_t, param2) F(uint32_t, param3)                 \
  F(uint32_t, param4) F(uint32_t, param5) F(uint32_t, param6) F(uint32_t, param7)                 \
  F(uint32_t, param8) F(uint32_t, param9) F(uint32_t, param10) F(uint32_t, param11)               \
  F(uint32_t, param12) F(uint32_t, param13) F(uint32_t, param14) F(uint32_t, param15)             \
  F(uint32_t, param16) F(uint32_t, param17)

namespace AscendC::tiling {
struct ConfusionTransposeTiling {
  NPUVP_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
}  // namespace AscendC::tiling
using AscendC::tiling::ConfusionTransposeTiling;

namespace optiling {
NPUVP_TILING_HOST_STRUCT(ConfusionTransposeTiling, NPUVP_CONFUSION_TRANSPOSE_TILING_FIELDS)
}  // namespace optiling

static_assert(sizeof(optiling::ConfusionTransposeTiling) == sizeof(AscendC::tiling::ConfusionTransposeTiling),
              "one layout");

namespace npuvp::lib_tiling {
// ConfusionTranspose moves elements with Gather: one uint32 byte offset per destination element
// of a pass. A pass is a whole number of 16-element groups (32 B of half, 64 B of float), so
// every pass starts 32 B aligned in dst.
inline constexpr uint32_t kTransposePassGranule = 16;
inline constexpr uint32_t kTransposeMinPass = 256;
inline uint32_t transpose_offsets_bytes(uint32_t elements) { return (4u * elements + 31u) / 32u * 32u; }
}  // namespace npuvp::lib_tiling
