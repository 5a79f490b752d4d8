// Host tiling of the SoftMax family (CANN 8.1 lib/activation/softmax_tiling.h; asc-devkit
// docs/api SoftMax-Tiling.md): the temporary buffer sizes and the SoftMaxTiling a kernel passes
// to SoftMax / SimpleSoftMax / SoftmaxFlash / SoftmaxFlashV2.
//
// srcShape is [..., k]: the last dim is the (32 B padded) row, the others multiply to m rows.
// The kernel works in passes of splitM rows; one row of k elements of a `dataTypeSize`-byte
// type needs softmax_row_bytes(k) of temporary buffer (softmax_impl.h says what for). Min: one
// row; max: all m rows in one pass (more buys nothing).
#pragma once
#include <cstdint>
#include "graph/tensor.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {
namespace softmax_detail {

using npuvp::lib_tiling::softmax_row_bytes;
inline uint32_t rows_of(const ge::Shape& s) {
  uint64_t m = 1;
  for (size_t i = 0; i + 1 < s.GetDimNum(); ++i) m *= static_cast<uint64_t>(s.GetDim(i));
  return s.GetDimNum() ? static_cast<uint32_t>(m) : 0;
}
inline uint32_t cols_of(const ge::Shape& s) {
  return s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1)) : 0;
}

inline void fill(const ge::Shape& srcShape, uint32_t dataTypeSize, uint32_t statTypeSize, uint32_t workspace,
                 optiling::SoftMaxTiling& t) {
  const uint32_t m = rows_of(srcShape), k = cols_of(srcShape);
  const uint32_t row = softmax_row_bytes(k, dataTypeSize);
  uint32_t split = row ? workspace / row : 0;
  if (split > m) split = m;
  const uint32_t statK = statTypeSize ? 32u / statTypeSize : 0;
  t.set_srcM(m);
  t.set_srcK(k);
  t.set_srcSize(m * k);
  t.set_outMaxM(m);
  t.set_outMaxK(statK);
  t.set_outMaxSize(m * statK);
  t.set_splitM(split);  // 0: the workspace holds no row (the kernel call then fails, naming the sizes)
  t.set_splitK(k);
  t.set_splitSize(split * k);
  t.set_reduceM(split);
  t.set_reduceK(statK);
  t.set_reduceSize(split * statK);
  t.set_rangeM(split ? m / split : 0);
  t.set_tailM(split ? m % split : m);
  t.set_tailSplitSize(t.get_tailM() * k);
  t.set_tailReduceSize(t.get_tailM() * statK);
}

inline uint32_t max_tmp(const ge::Shape& s, uint32_t typeSize) {
  return rows_of(s) * softmax_row_bytes(cols_of(s), typeSize);
}
inline uint32_t min_tmp(const ge::Shape& s, uint32_t typeSize) {
  return rows_of(s) ? softmax_row_bytes(cols_of(s), typeSize) : 0;
}

}  // namespace softmax_detail

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return softmax_detail::max_tmp(srcShape, dataTypeSize);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return softmax_detail::min_tmp(srcShape, dataTypeSize);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
  softmax_detail::fill(srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  (void)isUpdate;
  (void)isReuseSource;
  return softmax_detail::max_tmp(srcShape, dataTypeSize);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  (void)isUpdate;
  (void)isReuseSource;
  return softmax_detail::min_tmp(srcShape, dataTypeSize);
}
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false) {
  (void)isUpdate;
  softmax_detail::fill(srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, softmaxFlashTiling);
}

inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return softmax_detail::min_tmp(srcShape, dataTypeSize1);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return softmax_detail::max_tmp(srcShape, dataTypeSize1);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  softmax_detail::fill(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashTiling);
}

// Whether the tiling's rows are a "basic block" (m % 8 == 0, k % 64 == 0): reported as CANN
// does; the kernel takes the same path either way.
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  (void)dataTypeSize;
  return tiling.get_srcM() % 8 == 0 && tiling.get_srcK() % 64 == 0 && tiling.get_srcM() != 0;
}

}  // namespace AscendC
