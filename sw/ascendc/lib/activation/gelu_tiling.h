// Temporary sizes of Gelu / FasterGelu (CANN 8.1 lib/activation/gelu_tiling.h): one float per
// element (two for half) for the whole shape at most, one 64-element chunk at least
// (sigmoid_gate.h).
#pragma once
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  (void)srcShape;
  return npuvp::lib_tiling::gate_min_tmp_bytes(typeSize);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  const uint64_t n = static_cast<uint64_t>(srcShape.GetShapeSize());
  const uint64_t chunks = (n + 63) / 64;
  const uint64_t bytes = chunks * npuvp::lib_tiling::gate_min_tmp_bytes(typeSize);
  return static_cast<uint32_t>(bytes ? bytes : npuvp::lib_tiling::gate_min_tmp_bytes(typeSize));
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
  minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

}  // namespace AscendC
