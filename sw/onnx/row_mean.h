// The mean over the middle axis of x viewed as [outer][count][inner] -> y [outer][inner], as a
// vector kernel on every block (ops_reduce.cpp); ReduceMean and GlobalAveragePool lower to it.
#pragma once
#include <cstdint>
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

void run_row_mean(OpContext& ctx, const void* x, void* y, uint64_t outer, uint64_t count, uint64_t inner);

}  // namespace npuvp::onnx
