// TopK (asc-devkit docs/api TopK.md; CANN 8.1 lib/sort/topk.h), on A2: for each of the outter
// rows of srcLocal ([outter, inner], the first n valid), the k largest (isLargest) or
// smallest values, in order, into dstValueLocal ([outter, k padded to 32 B]) and their
// indices into dstIndexLocal ([outter, k padded to 8]). Per row, from vector instructions:
// the scores (Copy; Muls by -1 for the smallest, an exact negation), the invalid tail n..inner
// set to -inf, the indices (srcIndexLocal's row with isInitIndex, else 0..inner-1 built by
// Duplicate and doubling Adds), Sort32 and MrgSort rounds to one descending run (stable: of
// equal values the lower index first), then GatherMask picks the first k scores and indices
// out of the records. NaN sorts above every number. isHasfinish is not modelled (an error).
// On the 310P the same selection runs on the scalar unit (lib/sort/topk_scalar.h).
#pragma once
#include <limits>
#include "sw/ascendc/lib/lib_tiling_data.h"
#include "sw/ascendc/lib/sort/sort.h"
#include "sw/ascendc/lib/sort/topk_scalar.h"
#include "sw/ascendc/lib/sort/topk_utils.h"

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
          const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
  namespace lib = npuvp::ascendc::lib;
  const char* api = "TopK";
  (void)finishLocal;
  (void)tilling;
  lib::require_half_or_float<T>(api);
  const bool scalarForm = npuvp::ascendc::current_product() == npuvp::aicore::Product::Ascend310P;
  if (!scalarForm) npuvp::ascendc::require_a2(api);
  if (isHasfinish) npuvp::ascendc::api_fail(api, "isHasfinish = true (finishLocal) is not modelled");
  char why[200];
  const int32_t inner = topKInfo.inner, n = topKInfo.n, outter = topKInfo.outter;
  if (inner <= 0 || inner % 32 != 0 || outter <= 0 || n <= 0 || n > inner) {
    std::snprintf(why, sizeof why, "TopKInfo{outter %d, inner %d, n %d}: inner must be a positive multiple of 32, "
                  "0 < n <= inner", outter, inner, n);
    npuvp::ascendc::api_fail(api, why);
  }
  if (topkMode == TopKMode::TOPK_NSMALL && inner != 32) npuvp::ascendc::api_fail(api, "TOPK_NSMALL needs inner = 32");
  if (k <= 0 || k > n) {
    std::snprintf(why, sizeof why, "k = %d must be in [1, n = %d]", k, n);
    npuvp::ascendc::api_fail(api, why);
  }
  const uint32_t in = static_cast<uint32_t>(inner);
  const uint32_t kv = lib::round_up(static_cast<uint32_t>(k), lib::block_elems<T>());
  const uint32_t ki = lib::round_up(static_cast<uint32_t>(k), 8);
  lib::require_size(srcLocal, uint64_t(outter) * in, "srcLocal", api);
  if (isInitIndex) lib::require_size(srcIndexLocal, uint64_t(outter) * in, "srcIndexLocal", api);
  lib::require_size(dstValueLocal, uint64_t(outter) * kv, "dstValueLocal", api);
  lib::require_size(dstIndexLocal, uint64_t(outter) * ki, "dstIndexLocal", api);
  if (scalarForm) {  // 310P: lib/sort/topk_scalar.h
    lib::topk_rows_by_scalar(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, isInitIndex,
                             static_cast<uint32_t>(outter), in, static_cast<uint32_t>(n), static_cast<uint32_t>(k), kv,
                             ki, isLargest);
    return;
  }
  lib::require_tmp(tmpLocal.GetSize(), npuvp::lib_tiling::topk_tmp_bytes(in), api);

  // tmp: scores (inner T, padded to 4 B each), indices (inner u32), two record buffers.
  const LocalTensor<T> scores = tmpLocal.ReinterpretCast<T>();
  const LocalTensor<uint32_t> index = tmpLocal[in * 4].ReinterpretCast<uint32_t>();
  const LocalTensor<T> recA = tmpLocal[in * 8].ReinterpretCast<T>();
  const LocalTensor<T> recB = tmpLocal[in * 16].ReinterpretCast<T>();
  if (!isInitIndex) {
    lib::wait_vector();
    for (uint32_t i = 0; i < 8; ++i) index.SetValue(i, i);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    for (uint32_t have = 8; have < in; have *= 2) {
      const uint32_t more = in - have < have ? in - have : have;
      Adds(index[have].template ReinterpretCast<int32_t>(), index.template ReinterpretCast<int32_t>(),
           static_cast<int32_t>(have), static_cast<int32_t>(more));
    }
  }
  const T lowest = -std::numeric_limits<T>::infinity();
  for (int32_t r = 0; r < outter; ++r) {
    const LocalTensor<T> row = srcLocal[uint32_t(r) * in];
    if (isLargest) {
      Copy(scores, row, in);
    } else {
      Muls(scores, row, static_cast<T>(-1.0f), static_cast<int32_t>(in));
    }
    if (static_cast<uint32_t>(n) < in) {
      lib::wait_vector();
      for (uint32_t j = static_cast<uint32_t>(n); j < in; ++j) scores.SetValue(j, lowest);
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
    }
    const LocalTensor<uint32_t> idx =
        isInitIndex ? srcIndexLocal[uint32_t(r) * in].template ReinterpretCast<uint32_t>() : index;
    Sort32(recA, scores, idx, static_cast<int32_t>(in / 32));
    const LocalTensor<T>& sorted = lib::merge_sorted_runs(recA, recB, in, 32) ? recA : recB;
    // The first k records: the score is element 0 of every 2 (float) or 4 (half) T, the index
    // the odd uint32.
    uint64_t kept = 0;
    const LocalTensor<T> values = dstValueLocal[uint32_t(r) * kv];
    GatherMask(values, sorted, static_cast<uint8_t>(sizeof(T) == 4 ? 1 : 3), true,
               static_cast<uint32_t>(k) * (8 / sizeof(T)), GatherMaskParams(1, 1, 8, 8), kept);
    GatherMask(dstIndexLocal[uint32_t(r) * ki].template ReinterpretCast<uint32_t>(),
               sorted.template ReinterpretCast<uint32_t>(), static_cast<uint8_t>(2), true,
               static_cast<uint32_t>(k) * 2, GatherMaskParams(1, 1, 8, 8), kept);
    if (!isLargest) Muls(values, values, static_cast<T>(-1.0f), k);
  }
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
          const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                          finishLocal, npuvp::ascendc::lib::stack_buffer("TopK"), k,
                                                          tilling, topKInfo, isLargest);
}

}  // namespace AscendC
