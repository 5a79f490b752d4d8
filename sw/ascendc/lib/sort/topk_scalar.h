// TopK on the Atlas inference AI Core (310P; CANN 8.1 lib/sort/topk.h has a
// __CCE_AICORE__ == 200 form). CANN sorts there with region-proposal instructions
// (RpSort16 / MrgSort4), which the model does not have; npuvp selects the k on the scalar unit
// instead: each score read with GetValue, the k results written with SetValue (every access
// charged as a scalar UB access), in the A2 form's order, so the results are the same bits:
// descending by value (ascending with isLargest false), NaN above every number, of equal values
// the lower index first.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>
#include "sw/ascendc/lib/lib_common.h"

namespace npuvp::ascendc::lib {

template <typename T>
void topk_rows_by_scalar(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
                         const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
                         bool initIndex, uint32_t outter, uint32_t inner, uint32_t n, uint32_t k, uint32_t kv,
                         uint32_t ki, bool largest) {
  wait_vector();  // the rows (and indices) were written by the vector unit or a copy before
  std::vector<float> key(n);
  std::vector<uint32_t> order(n);
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t j = 0; j < n; ++j) {
      const float v = static_cast<float>(src.GetValue(r * inner + j));
      key[j] = largest ? v : -v;
      order[j] = j;
    }
    // NaN first, then by key descending; stable keeps the lower index first among equals.
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const bool na = std::isnan(key[a]), nb = std::isnan(key[b]);
      if (na || nb) return na && !nb;
      return key[a] > key[b];
    });
    for (uint32_t j = 0; j < k; ++j) {
      dstValue.SetValue(r * kv + j, src.GetValue(r * inner + order[j]));
      dstIndex.SetValue(r * ki + j,
                        initIndex ? srcIndex.GetValue(r * inner + order[j]) : static_cast<int32_t>(order[j]));
    }
  }
  AscendC::SetFlag<AscendC::HardEvent::S_V>(0);  // later vector work reads the results
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
}

}  // namespace npuvp::ascendc::lib
