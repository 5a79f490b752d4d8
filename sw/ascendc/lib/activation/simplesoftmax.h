// SimpleSoftMax (asc-devkit docs/api SimpleSoftMax.md): y = exp(x - inMax) / inSum per row,
// with the max and sum of an earlier SoftMax given ([m, 32 B] blocks, as SoftMax writes them).
#pragma once
#include "sw/ascendc/lib/activation/softmax_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SimpleSoftMax: the NZ format is not modelled");
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Simple>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, dstTensor, inSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, config, false, false, "SimpleSoftMax");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SimpleSoftMax: the NZ format is not modelled");
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Simple>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, dstTensor, inSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, config, false, false, "SimpleSoftMax");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("SimpleSoftMax"), tiling,
      softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("SimpleSoftMax"), tiling,
      softmaxShapeInfo);
}

}  // namespace AscendC
