// Swish (asc-devkit docs/api Swish.md): x / (1 + exp(-beta x)) over dataSize elements, beta =
// scalarValue (sigmoid_gate.h; the temporary buffer is the pipe's free UB).
#pragma once
#include "sw/ascendc/lib/activation/sigmoid_gate.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T scalarValue) {
  npuvp::ascendc::lib::sigmoid_gate<npuvp::ascendc::lib::Gate::Swish>(
      dstLocal, srcLocal, npuvp::ascendc::lib::stack_buffer("Swish"), dataSize, static_cast<float>(scalarValue),
      "Swish");
}

}  // namespace AscendC
