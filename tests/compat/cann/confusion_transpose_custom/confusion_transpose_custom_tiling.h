/* The tiling confusion_transpose_custom's host computes and its kernel reads from GM: the
 * shape, each block's share, the temporary buffer and the two ConfusionTranspose tilings
 * (kernel_tiling's ConfusionTransposeTiling, the bytes optiling's SaveToBuffer writes). */
#ifndef CONFUSION_TRANSPOSE_CUSTOM_TILING_H
#define CONFUSION_TRANSPOSE_CUSTOM_TILING_H
#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"

struct ConfusionTransposeCustomTilingData {
    uint32_t heads;        // N
    uint32_t seq;          // S
    uint32_t headDim;      // H / N
    uint32_t tmpBytes;     // the shared temporary buffer of the head reorder
    uint32_t planeRows;    // the [rows, cols] plane each block transposes
    uint32_t planeCols;
    ConfusionTransposeTiling headTiling;   // scenario 1, one batch per block
    ConfusionTransposeTiling planeTiling;  // scenario 7
};
#endif
