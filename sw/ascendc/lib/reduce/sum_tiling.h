// Temporary sizes of Sum and Mean (asc-devkit docs/api GetSumMaxMinTmpSize.md,
// GetMeanMaxMinTmpSize.md): from the row length n alone, as documented; the maximum equals the
// minimum. npuvp's kernels (lib/reduce/sum.h) reduce in float whatever accTypeSize says.
#pragma once
#include <cstdint>
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxSize, uint32_t& minSize) {
  (void)isReuseSource;
  maxSize = minSize = n ? npuvp::lib_tiling::row_reduce_tmp_bytes_for_row(n, typeSize) : 0;
}

inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
  (void)accTypeSize;
  (void)isReuseSource;
  maxSize = minSize = n ? npuvp::lib_tiling::row_reduce_tmp_bytes_for_row(n, srcTypeSize) : 0;
}

}  // namespace AscendC
