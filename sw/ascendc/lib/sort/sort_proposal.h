// Sort's companions and the region-proposal sorting of the coupled chips.
//
// High-level (asc-devkit docs/zh/api/SIMD-API/高阶API/排序操作: Concat.md, Extract.md,
// MrgSort-93.md, Sort.md "排布方式二"): on the A2 products and the Atlas inference AI Core (310P).
//  - Concat(concat, src, tmp, repeatTime): A2: concat becomes src (Sort32 reads the scores as
//    they are); 310P: the 16 * repeatTime scores into the score field of region proposals in
//    tmp, and concat becomes tmp.
//  - Extract(dstValue, dstIndex, sorted, repeatTime): the scores and uint32 indices of sorted
//    elements. A2: 32 records per repeat, built from GatherMask; 310P: 16 proposals per repeat.
//  - MrgSort(dst, list, elementCountList, sortedNum, validBit, repeatTime) (template
//    isExhaustedSuspension): the lib form of the merge; A2: one MrgSort instruction.
// Basic (ISASI) region-proposal APIs of the 310P AI Core (half, float) and the 910 (half):
// ProposalConcat, ProposalExtract, RpSort16 and MrgSort4.
//
// A region proposal is 8 elements [x1, y1, x2, y2, score, label, reserved, reserved]. The APIs
// here issue the vector unit's region-proposal instructions (isa_vector.h ProposalConcat,
// ProposalExtract, RpSort16, MrgSort4; docs/vector-isa.md §3.6), the ones TIK's vconcat,
// vextract, vrpsort16 and vmrgsort4 lower to, so both front ends share one model, timing and
// checks (only a half proposal's index, see proposal_index_in, is the scalar unit's). Order:
// score descending, NaN above every number, equal scores keep their input order
// (RpSort16.md, MrgSort4.md: of equal scores the earlier one first; across queues, the lower
// queue first). Sort's uint32 index rides in the proposal as CANN 8.1 places it: a half
// proposal's y1 holds the low 16 bits and its label the high 16 bits; a float proposal's label
// holds the 32 bits.
#pragma once
#include <cstdint>
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"

namespace npuvp::ascendc {
// Fails unless the running core has the high-level Sort family (A2, or a 310P AI Core).
void require_sort_product(const char* api);
// Fails unless the running core has region-proposal instructions (310P AI Core: half or
// float; 910: half).
void require_proposal_product(const char* api, bool is_float);
// Waits for the vector pipe, then reads what the last MrgSort4 took from each queue.
void proposal_merge_result(uint16_t taken[4]);
}  // namespace npuvp::ascendc

namespace npuvp::ascendc::lib {

constexpr uint32_t kProposalElems = 8;
constexpr uint32_t kProposalY1 = 1;
constexpr uint32_t kProposalScore = 4;
constexpr uint32_t kProposalLabel = 5;

// The scalar unit's work starts after the vector unit's writes and ends before its later reads.
inline void scalar_done() {
  AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
}

// One region-proposal instruction of `repeat` repeats (16 proposals each) on the vector pipe.
template <typename T>
void proposal_issue(aicore::VecOp op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    uint32_t repeat, uint32_t field, const char* api) {
  auto v = vec_op(op, DTypeOf<T>::value, vaddr(dst, api), vaddr(src, api));
  v.repeat = repeat;
  v.proposal_field = static_cast<uint8_t>(field);
  vector_issue(v);
}

// One MrgSort4 instruction: the valid queues of `queues` (lens[q] proposals each) into dst.
// Invalid queues need not be in UB (as MrgSort's); the model checks validBit and the lengths.
template <typename T>
void proposal_merge_issue(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* queues,
                          const uint16_t lens[4], uint16_t valid, bool stop_when_exhausted, uint32_t repeat,
                          const char* api) {
  if (valid > 0xff) api_fail(api, "validBit must be 3, 7 or 15");
  uint64_t addr[4];
  for (int q = 0; q < 4; ++q) addr[q] = (valid >> q & 1) ? vaddr(queues[q], api) : queues[q].GetPhyAddr();
  auto v = vec_op(aicore::VecOp::MrgSort4, DTypeOf<T>::value, vaddr(dst, api), addr[0], addr[1]);
  v.src2 = addr[2];
  v.src3 = addr[3];
  v.mask_lo = 0;
  for (int q = 0; q < 4; ++q) v.mask_lo |= uint64_t(lens[q]) << (16 * q);
  v.mask_hi = uint64_t(valid) | (stop_when_exhausted ? 0x100u : 0u);
  v.repeat = repeat;
  vector_issue(v);
}

// `count` proposals of src sorted by score in runs of 16 (RpSort16) into dst.
template <typename T>
void sort_proposals(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                    const char* api) {
  proposal_issue(aicore::VecOp::RpSort16, dst, src, count / 16, 0, api);
}

// dst (one element per proposal) to / from field `field` of `count` proposals.
template <typename T>
void proposal_field_in(const AscendC::LocalTensor<T>& proposals, const AscendC::LocalTensor<T>& src, uint32_t count,
                       uint32_t field, const char* api) {
  proposal_issue(aicore::VecOp::ProposalConcat, proposals, src, count / 16, field, api);
}
template <typename T>
void proposal_field_out(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& proposals, uint32_t count,
                        uint32_t field, const char* api) {
  proposal_issue(aicore::VecOp::ProposalExtract, dst, proposals, count / 16, field, api);
}

// Sort's index into the proposals (half: y1 low 16 bits, label high 16 bits; float: label).
// Float: the label field is the index's 32 bits, moved by ProposalConcat / ProposalExtract.
// Half: the index straddles two fields, which no proposal instruction writes, so the scalar
// unit moves it (GetValue / SetValue, each a scalar UB access).
template <typename T>
void proposal_index_in(const AscendC::LocalTensor<T>& proposals, const AscendC::LocalTensor<uint32_t>& index,
                       uint32_t count, const char* api) {
  if constexpr (sizeof(T) == 4) {
    proposal_field_in(proposals, index.template ReinterpretCast<T>(), count, kProposalLabel, api);
  } else {
    wait_vector();
    const AscendC::LocalTensor<uint16_t> p = proposals.template ReinterpretCast<uint16_t>();
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t v = index.GetValue(i);
      p.SetValue(i * kProposalElems + kProposalY1, static_cast<uint16_t>(v & 0xffffu));
      p.SetValue(i * kProposalElems + kProposalLabel, static_cast<uint16_t>(v >> 16));
    }
    scalar_done();
  }
}
template <typename T>
void proposal_index_out(const AscendC::LocalTensor<uint32_t>& index, const AscendC::LocalTensor<T>& proposals,
                        uint32_t count, const char* api) {
  if constexpr (sizeof(T) == 4) {
    proposal_field_out(index.template ReinterpretCast<T>(), proposals, count, kProposalLabel, api);
  } else {
    wait_vector();
    const AscendC::LocalTensor<uint16_t> p = proposals.template ReinterpretCast<uint16_t>();
    for (uint32_t i = 0; i < count; ++i) {
      index.SetValue(i, uint32_t(p.GetValue(i * kProposalElems + kProposalY1)) |
                            uint32_t(p.GetValue(i * kProposalElems + kProposalLabel)) << 16);
    }
    scalar_done();
  }
}

inline uint32_t proposal_repeat(int32_t repeatTime, const char* api) {
  if (repeatTime < 0 || repeatTime > 255) api_fail(api, "repeatTime must be in [0, 255]");
  return static_cast<uint32_t>(repeatTime);
}

inline void require_field(int32_t modeNumber, const char* api) {
  if (modeNumber < 0 || modeNumber > 5) api_fail(api, "modeNumber must be in [0, 5] (x1, y1, x2, y2, score, label)");
}

}  // namespace npuvp::ascendc::lib

namespace AscendC {

// ---- Basic region-proposal APIs (310P AI Core; 910 half).

template <typename T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                    const int32_t modeNumber) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("ProposalConcat");
  npuvp::ascendc::require_proposal_product("ProposalConcat", sizeof(T) == 4);
  lib::require_field(modeNumber, "ProposalConcat");
  const uint32_t count = 16u * lib::proposal_repeat(repeatTime, "ProposalConcat");
  lib::require_size(src, count, "src", "ProposalConcat");
  lib::require_size(dst, uint64_t(count) * lib::kProposalElems, "dst", "ProposalConcat");
  lib::proposal_field_in(dst, src, count, static_cast<uint32_t>(modeNumber), "ProposalConcat");
}

template <typename T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t modeNumber) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("ProposalExtract");
  npuvp::ascendc::require_proposal_product("ProposalExtract", sizeof(T) == 4);
  lib::require_field(modeNumber, "ProposalExtract");
  const uint32_t count = 16u * lib::proposal_repeat(repeatTime, "ProposalExtract");
  lib::require_size(src, uint64_t(count) * lib::kProposalElems, "src", "ProposalExtract");
  lib::require_size(dst, count, "dst", "ProposalExtract");
  lib::proposal_field_out(dst, src, count, static_cast<uint32_t>(modeNumber), "ProposalExtract");
}

// Each repeat sorts 16 proposals by score.
template <typename T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("RpSort16");
  npuvp::ascendc::require_proposal_product("RpSort16", sizeof(T) == 4);
  const uint32_t count = 16u * lib::proposal_repeat(repeatTime, "RpSort16");
  lib::require_size(src, uint64_t(count) * lib::kProposalElems, "src", "RpSort16");
  lib::require_size(dst, uint64_t(count) * lib::kProposalElems, "dst", "RpSort16");
  lib::sort_proposals(dst, src, count, "RpSort16");
}

// Merges up to four sorted proposal queues (MrgSort4Info as MrgSort's, lengths in proposals).
template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("MrgSort4");
  npuvp::ascendc::require_proposal_product("MrgSort4", sizeof(T) == 4);
  // MrgSort4.md: repeatTimes in [1, 255]; more than 1 only with four equal queues back to back
  // and no suspension, which the model checks with validBit and the lengths.
  if (params.repeatTimes < 1) npuvp::ascendc::api_fail("MrgSort4", "repeatTimes must be in [1, 255]");
  const LocalTensor<T> queues[4] = {src.src1, src.src2, src.src3, src.src4};
  uint64_t total = 0;
  for (int q = 0; q < 4; ++q) {
    if (params.validBit >> q & 1) {
      lib::require_size(queues[q], uint64_t(params.elementLengths[q]) * lib::kProposalElems, "a source queue", "MrgSort4");
      total += params.elementLengths[q];
    }
  }
  lib::require_size(dst, total * params.repeatTimes * lib::kProposalElems, "dst", "MrgSort4");
  lib::proposal_merge_issue(dst, queues, params.elementLengths, params.validBit, params.ifExhaustedSuspension,
                            params.repeatTimes, "MrgSort4");
}

// ---- High-level Concat, Extract and MrgSort (A2 and 310P AI Core).

template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("Concat");
  npuvp::ascendc::require_sort_product("Concat");
  const uint32_t count = 16u * lib::proposal_repeat(repeatTime, "Concat");
  lib::require_size(src, count, "src", "Concat");
  if (npuvp::ascendc::running_on_a2()) {
    concat = src;  // Sort32 takes the scores as they are
    return;
  }
  lib::require_size(tmp, uint64_t(count) * lib::kProposalElems, "tmp", "Concat");
  lib::proposal_field_in(tmp, src, count, lib::kProposalScore, "Concat");
  concat = tmp;
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
             const int32_t repeatTime) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("Extract");
  npuvp::ascendc::require_sort_product("Extract");
  const uint32_t repeat = lib::proposal_repeat(repeatTime, "Extract");
  if (npuvp::ascendc::running_on_a2()) {
    // 32 records of 8 B per repeat: the score is the record's first T, the index its second word.
    const uint32_t count = 32u * repeat;
    lib::require_size(sorted, uint64_t(count) * (8 / sizeof(T)), "sorted", "Extract");
    lib::require_size(dstValue, count, "dstValue", "Extract");
    if (repeat == 0) return;
    uint64_t kept = 0;
    GatherMask(dstValue, sorted, static_cast<uint8_t>(sizeof(T) == 2 ? 3 : 1), false, 0,
               GatherMaskParams(1, static_cast<uint16_t>(repeat), 8, 0), kept);
    if (dstIndex.GetSize() != 0) {
      lib::require_size(dstIndex, count, "dstIndex", "Extract");
      GatherMask(dstIndex, sorted.template ReinterpretCast<uint32_t>(), static_cast<uint8_t>(2), false, 0,
                 GatherMaskParams(1, static_cast<uint16_t>(repeat), 8, 0), kept);
    }
    return;
  }
  const uint32_t count = 16u * repeat;
  lib::require_size(sorted, uint64_t(count) * lib::kProposalElems, "sorted", "Extract");
  lib::require_size(dstValue, count, "dstValue", "Extract");
  lib::proposal_field_out(dstValue, sorted, count, lib::kProposalScore, "Extract");
  if (dstIndex.GetSize() != 0) {
    lib::require_size(dstIndex, count, "dstIndex", "Extract");
    lib::proposal_index_out(dstIndex, sorted, count, "Extract");
  }
}

// The lib form of MrgSort (MrgSort-93.md): sortedNum is written with isExhaustedSuspension.
template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("MrgSort");
  npuvp::ascendc::require_sort_product("MrgSort");
  if (repeatTime < 1 || repeatTime > 255) npuvp::ascendc::api_fail("MrgSort", "repeatTime must be in [1, 255]");
  const MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime));
  if (npuvp::ascendc::running_on_a2()) {
    MrgSort(dst, sortList, info);
    if (isExhaustedSuspension) {
      uint16_t taken[4];
      GetMrgSortResult(taken[0], taken[1], taken[2], taken[3]);
      for (int q = 0; q < 4; ++q) sortedNum[q] = taken[q];
    }
    return;
  }
  const LocalTensor<T> queues[4] = {sortList.src1, sortList.src2, sortList.src3, sortList.src4};
  uint64_t total = 0;
  for (int q = 0; q < 4; ++q) {
    if (validBit >> q & 1) {
      lib::require_size(queues[q], uint64_t(elementCountList[q]) * lib::kProposalElems, "a source queue", "MrgSort");
      total += elementCountList[q];
    }
  }
  lib::require_size(dst, total * uint32_t(repeatTime) * lib::kProposalElems, "dst", "MrgSort");
  lib::proposal_merge_issue(dst, queues, elementCountList, validBit, isExhaustedSuspension, uint32_t(repeatTime),
                            "MrgSort");
  if (isExhaustedSuspension) {
    uint16_t taken[4];
    npuvp::ascendc::proposal_merge_result(taken);
    for (int q = 0; q < 4; ++q) sortedNum[q] = taken[q];
  }
}

}  // namespace AscendC
