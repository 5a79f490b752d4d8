// Sort (asc-devkit docs/api Sort.md; the A2 form without region proposals): 32 * repeatTimes
// scores (concatLocal) with their uint32 indices (indexLocal) into 8 B records (score, index)
// at dstLocal, by score descending. isFullSort = false: each group of 32 sorted (one Sort32);
// true: all of them, the groups merged four at a time with MrgSort (tmpLocal, as large as
// dstLocal, holds every other round). Built from Sort32, MrgSort and Copy (ascendc/sort.h),
// so ties keep the earlier element first.
// On the Atlas inference AI Core (310P; Sort.md "排布方式二") Sort works on region proposals
// (Concat put the scores there): 16 * repeatTimes proposals, the uint32 index written into
// each (lib/sort/sort_proposal.h says where), then sorted by score in groups of 16 (RpSort16)
// or fully (RpSort16, then MrgSort4 rounds as above). Not on the 910 (CANN documents no Sort
// there).
#pragma once
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/sort/sort_proposal.h"

namespace npuvp::ascendc::lib {

// `a` holds `count` records as sorted runs of `run` records (the last may be shorter); merges
// them into one run, alternating between a and b. Returns true if the result is in a.
// Records are the A2's 8 B (score, index), merged by MrgSort, or with `proposals` the 310P's
// region proposals of 8 T, merged by MrgSort4.
template <typename T, bool proposals = false>
bool merge_sorted_runs(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, uint32_t count, uint32_t run) {
  using namespace AscendC;
  constexpr uint32_t rec = proposals ? 8 : 8 / sizeof(T);  // T elements per record
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
             uint32_t(rec * sizeof(T) / 4) * lens[0]);
        continue;
      }
      const LocalTensor<T> q0 = src[start * rec];
      MrgSortSrcList<T> list(q0, src[(start + run) * rec], queues > 2 ? src[(start + 2 * run) * rec] : q0,
                             queues > 3 ? src[(start + 3 * run) * rec] : q0);
      const uint16_t valid = queues == 2 ? 3 : (queues == 3 ? 7 : 15);
      if constexpr (proposals) {
        MrgSort4(dst[start * rec], list, MrgSort4Info(lens, false, valid, 1));
      } else {
        MrgSort(dst[start * rec], list, MrgSort4Info(lens, false, valid, 1));
      }
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
  npuvp::ascendc::require_sort_product("Sort");
  if (!npuvp::ascendc::running_on_a2()) {
    const uint32_t count = 16u * lib::proposal_repeat(repeatTimes, "Sort");
    lib::require_size(concatLocal, uint64_t(count) * lib::kProposalElems, "concatLocal", "Sort");
    lib::require_size(dstLocal, uint64_t(count) * lib::kProposalElems, "dstLocal", "Sort");
    if constexpr (isFullSort) lib::require_size(tmpLocal, uint64_t(count) * lib::kProposalElems, "tmpLocal", "Sort");
    if (indexLocal.GetSize() != 0) {
      lib::require_size(indexLocal, count, "indexLocal", "Sort");
      lib::proposal_index_in(concatLocal, indexLocal, count, "Sort");
    }
    // RpSort16 per 16; the full sort merges those runs with MrgSort4 as the A2 form does.
    lib::sort_proposals(dstLocal, concatLocal, count, "Sort");
    if constexpr (isFullSort) {
      if (!lib::merge_sorted_runs<T, true>(dstLocal, tmpLocal, count, 16)) {
        Copy(dstLocal.template ReinterpretCast<uint32_t>(), tmpLocal.template ReinterpretCast<uint32_t>(),
             uint32_t(2 * sizeof(T)) * count);
      }
    }
    return;
  }
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
