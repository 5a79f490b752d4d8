// Row softmax over an f32 matrix [rows][cols]: y = exp(x - max(x)) * (1 / sum(exp(x - max(x)))).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels {

// Rows are split over the blocks (block i takes rows i, i + blockDim, ...). cols must be a
// multiple of 8 (whole 32 B blocks) and at most 8192.
void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols);

}  // namespace npuvp::kernels
