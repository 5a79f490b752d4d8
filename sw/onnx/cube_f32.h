// The f32 matmul of the ONNX lowerings on the A2 cube (cube_f32.cpp): Y[M x N] = A[M x K] x
// Bt[N x K]^T, all f32 ND in GM; launched on the AICs (every block takes a run of Y's tiles).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::onnx {

void cube_matmul_f32(GM_ADDR a, GM_ADDR bt, GM_ADDR y, uint32_t m, uint32_t n, uint32_t k);

}  // namespace npuvp::onnx
