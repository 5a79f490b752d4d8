/* The tiling softmax_custom's host computes and its kernel reads from GM: the rows each
 * block owns and the SoftMax tiling of one block's [rows, cols] tile (kernel_tiling's
 * SoftMaxTiling, the bytes optiling::SoftMaxTiling::SaveToBuffer writes). */
#ifndef SOFTMAX_CUSTOM_TILING_H
#define SOFTMAX_CUSTOM_TILING_H
#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"

struct SoftmaxCustomTilingData {
    uint32_t rowsPerCore;
    uint32_t cols;        // the row, padded to 32 B
    uint32_t validCols;   // the valid part of the row
    uint32_t tmpBytes;    // the temporary buffer SoftMax gets
    SoftMaxTiling softmaxTiling;
};
#endif
