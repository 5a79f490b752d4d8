// SoftMax (asc-devkit docs/api SoftMax.md; signatures of CANN 8.1 lib/activation/softmax.h):
// per row of the [m, k] srcTensor, max = rowmax(x), sum = rowsum(exp(x - max)),
// y = exp(x - max) / sum. max and sum are written broadcast over 32 B per row ([m, 8] float,
// [m, 16] half). The algorithm and its precision: softmax_impl.h.
#pragma once
#include "sw/ascendc/lib/activation/softmax_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ format is not modelled");
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Softmax>(
      dstTensor, sumTensor, maxTensor, srcTensor, dstTensor, sumTensor, maxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, config, false, true, "SoftMax");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ format is not modelled");
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Softmax>(
      dstTensor, sumTensor, maxTensor, srcTensor, dstTensor, sumTensor, maxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, config, false, true, "SoftMax");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, sumTensor, maxTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("SoftMax"), tiling,
      softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, sumTensor, maxTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("SoftMax"), tiling,
      softmaxShapeInfo);
}

// The forms without max and sum outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Softmax>(
      dstTensor, dstTensor, dstTensor, srcTensor, dstTensor, dstTensor, dstTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, config, false, false, "SoftMax");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("SoftMax"),
                                                  tiling, softmaxShapeInfo);
}

}  // namespace AscendC
