// SoftmaxFlash (asc-devkit docs/api SoftmaxFlash.md; deprecated in CANN for SoftmaxFlashV2):
// without isUpdate it is SoftMax. With it, for a row split along the last axis:
//   max = max(rowmax(x), inMax), y = exp(x - max), e = exp(inMax - max),
//   sum = e * inSum + rowsum(y), expMax = e * inSum / sum, dst = y / sum.
#pragma once
#include "sw/ascendc/lib/activation/softmax_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                  const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                  const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isUpdate = false,
                  const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Flash>(
      dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, isUpdate, true, "SoftmaxFlash");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                  const SoftMaxTiling& tiling, bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npuvp::ascendc::lib::softmax_rows<npuvp::ascendc::lib::SoftmaxKind::Flash>(
      dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
      softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, isUpdate, true, "SoftmaxFlash");
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                  const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                  const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                                               inMaxTensor, npuvp::ascendc::lib::stack_buffer("SoftmaxFlash"), tiling,
                                               isUpdate, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                  const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                                               inMaxTensor, npuvp::ascendc::lib::stack_buffer("SoftmaxFlash"), tiling,
                                               isUpdate, softmaxShapeInfo);
}

}  // namespace AscendC
