// Sort (asc-devkit docs/api Sort.md; the A2 form without region proposals): 32 * repeatTimes
// scores (concatLocal) with their uint32 indices (indexLocal) into 8 B records (score, index)
// at dstLocal, by score descending. isFullSort = false: each group of 32 sorted (one Sort32);
// true: all of them, the groups merged four at a time with MrgSort (tmpLocal, as large as
// dstLocal, holds every other round). Built from Sort32, MrgSort and Copy (ascendc/sort.h),
// so ties keep the earlier element first. The 310P / 910 forms work on region proposals,
// which the model does not have: there Sort is an error.
#pragma once
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"

namespace npuvp::ascendc::lib {

// `a` holds `count` records as sorted runs of `run` records (the last may be shorter); merges
// them into one run, alternating between a and b. Returns true if the result is in a.
template <typename T>
bool merge_sorted_runs(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, uint32_t count, uint32_t run) {
  using namespace AscendC;
  constexpr uint32_t rec = 8 / sizeof(T);  // T elements per record
  bool inA = true;
  for (; run < count; run *= 4, inA = !inA) {
    const LocalTensor<T>& src = inA ? a : b;
    const LocalTensor<T>& dst = inA ? b : a;
    for (uint32_t start = 0; start < count; start += 4 * run) {
      uint16_t lens[MRG_SORT_ELEMENT_LEN] = {0, 0, 0, 0};
      uint32_t queues = 0;
      for (; queues < 4 && start + queues * run < count; ++queues) {
        const uint32_t left = count - start - queues * run;
        lens[queues] = static_cast<uint16_t>(left < run ? left : run);
      }
      if (queues == 1) {
        Copy(dst[start * rec].template ReinterpretCast<uint32_t>(), src[start * rec].template ReinterpretCast<uint32_t>(),
             2u * lens[0]);
        continue;
      }
      const LocalTensor<T> q0 = src[start * rec];
      MrgSortSrcList<T> list(q0, src[(start + run) * rec], queues > 2 ? src[(start + 2 * run) * rec] : q0,
                             queues > 3 ? src[(start + 3 * run) * rec] : q0);
      const uint16_t valid = queues == 2 ? 3 : (queues == 3 ? 7 : 15);
      MrgSort(dst[start * rec], list, MrgSort4Info(lens, false, valid, 1));
    }
  }
  return inA;
}

}  // namespace npuvp::ascendc::lib

namespace AscendC {

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal, const LocalTensor<uint32_t>& indexLocal,
          LocalTensor<T>& tmpLocal, const int32_t repeatTimes) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("Sort");
  npuvp::ascendc::require_a2("Sort");
  const uint32_t count = 32u * npuvp::ascendc::vector_nonneg(repeatTimes, "repeatTimes", "Sort");
  constexpr uint32_t rec = 8 / sizeof(T);
  lib::require_size(concatLocal, count, "concatLocal", "Sort");
  lib::require_size(indexLocal, count, "indexLocal", "Sort");
  lib::require_size(dstLocal, uint64_t(count) * rec, "dstLocal", "Sort");
  Sort32(dstLocal, concatLocal, indexLocal, repeatTimes);
  if constexpr (isFullSort) {
    lib::require_size(tmpLocal, uint64_t(count) * rec, "tmpLocal", "Sort");
    if (!lib::merge_sorted_runs(dstLocal, tmpLocal, count, 32)) {
      Copy(dstLocal.template ReinterpretCast<uint32_t>(), tmpLocal.template ReinterpretCast<uint32_t>(), 2u * count);
    }
  }
}

}  // namespace AscendC
