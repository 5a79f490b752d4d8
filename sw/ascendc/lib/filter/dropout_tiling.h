// Temporary sizes of DropOut (asc-devkit docs/api GetDropOutMaxMinTmpSize.md): npuvp's kernel
// (lib/filter/dropout.h) works in chunks of 256 elements with 14 B each, so the minimum is one
// chunk and the maximum the whole shape in chunks.
#pragma once
#include <cstdint>
#include "graph/tensor.h"

namespace AscendC {

inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  (void)srcShape;
  (void)typeSize;
  (void)isReuseSource;
  return 14u * 256u;
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  const uint64_t n = static_cast<uint64_t>(srcShape.GetShapeSize());
  const uint64_t bytes = (n + 255) / 256 * 256 * 14;
  const uint32_t least = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
  return bytes > least ? static_cast<uint32_t>(bytes) : least;
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
