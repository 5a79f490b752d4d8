/* The tiling topk_custom's host computes and its kernel reads from GM: each block's rows, the
 * row geometry, k, the temporary buffer size and TopK's own tiling (kernel_tiling's
 * TopkTiling, the bytes optiling::TopkTiling::SaveToBuffer writes). */
#ifndef TOPK_CUSTOM_TILING_H
#define TOPK_CUSTOM_TILING_H
#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"

struct TopkCustomTilingData {
    uint32_t rowsPerCore;
    int32_t inner;     // the row, a multiple of 32
    int32_t n;         // its valid elements
    int32_t k;
    uint32_t kValues;  // k padded to 32 B of float
    uint32_t kIndices; // k padded to 8 int32
    uint32_t tmpBytes;
    TopkTiling topkTiling;
};
#endif
