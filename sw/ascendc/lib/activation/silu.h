// Silu (asc-devkit docs/api Silu.md): x / (1 + exp(-x)) over dataSize elements
// (sigmoid_gate.h; the temporary buffer is the pipe's free UB, as the API takes none).
#pragma once
#include "sw/ascendc/lib/activation/sigmoid_gate.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  npuvp::ascendc::lib::sigmoid_gate<npuvp::ascendc::lib::Gate::Silu>(
      dstLocal, srcLocal, npuvp::ascendc::lib::stack_buffer("Silu"), dataSize, 1.0f, "Silu");
}

}  // namespace AscendC
