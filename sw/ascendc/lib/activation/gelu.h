// Gelu and FasterGelu (asc-devkit docs/api Gelu.md, FasterGelu.md; CANN 8.1
// lib/activation/gelu.h): x / (1 + exp(-1.59576912 * (x + 0.044715 x^3))) and
// x / (1 + exp(-1.702 x)) over dataSize elements (sigmoid_gate.h). highPrecision and
// highPerformance are accepted; every form computes in float.
#pragma once
#include "sw/ascendc/lib/activation/sigmoid_gate.h"

namespace AscendC {

template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t dataSize) {
  npuvp::ascendc::lib::sigmoid_gate<npuvp::ascendc::lib::Gate::Gelu>(dstLocal, srcLocal, sharedTmpBuffer, dataSize,
                                                                      0.0f, "Gelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
  Gelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, npuvp::ascendc::lib::stack_buffer("Gelu"), dataSize);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  npuvp::ascendc::lib::sigmoid_gate<npuvp::ascendc::lib::Gate::FasterGelu>(dstLocal, srcLocal, sharedTmpBuffer,
                                                                            dataSize, 0.0f, "FasterGelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
  FasterGelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, npuvp::ascendc::lib::stack_buffer("FasterGelu"),
                                                dataSize);
}

}  // namespace AscendC
