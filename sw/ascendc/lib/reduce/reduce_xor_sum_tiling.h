// Host side of ReduceXorSum (CANN 8.1 lib/reduce/reduce_xor_sum_tiling.h): the temporary buffer
// is 6 B per element of the shape, rounded up to 32 elements (lib/reduce/reduce_xor_sum.h), the
// same for min and max; 0 for an empty shape or a type other than int16_t.
#pragma once
#include <cstdint>
#include "graph/tensor.h"

namespace AscendC {
inline void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                         uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  maxValue = minValue = 0;
  const int64_t count = srcShape.GetShapeSize();
  if (count <= 0 || typeSize != 2) return;
  minValue = maxValue = 6u * ((static_cast<uint32_t>(count) + 31u) / 32u * 32u);
}
}  // namespace AscendC
