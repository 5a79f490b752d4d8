// Layer normalisation over the rows of an f32 matrix [rows][cols]:
//   y = (x - mean) * (1 / sqrt(var + eps)) * gamma + beta,
//   mean = sum(x) * (1 / cols), var = sum((x - mean)^2) * (1 / cols).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels {

// Rows are split over the blocks. cols must be a multiple of 8 and at most 4096.
// gamma and beta hold cols values each.
void layernorm_rows(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols, float eps);

}  // namespace npuvp::kernels
