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
// A region proposal is 8 elements [x1, y1, x2, y2, score, label, reserved, reserved]. The
// model has no region-proposal instructions: npuvp does their work on the scalar unit (each
// element read with GetValue and written with SetValue, every access charged as a scalar UB
// access), so the bits are what the documented operations give but the simulated time is the
// scalar unit's, far slower than the vector unit's RpSort16 / MrgSort4. Order: score
// descending, NaN above every number (the model's Sort32 choice), equal scores keep their
// input order (MrgSort-93.md: of equal scores the earlier one first; across queues, the lower
// queue first). Sort's uint32 index rides in the proposal as CANN 8.1 places it: a half
// proposal's y1 holds the low 16 bits and its label the high 16 bits; a float proposal's label
// holds the 32 bits.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>
#include "sw/ascendc/ascendc/sort.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"

namespace npuvp::ascendc {
// Fails unless the running core has the high-level Sort family (A2, or a 310P AI Core).
void require_sort_product(const char* api);
// Fails unless the running core has region-proposal instructions (310P AI Core: half or
// float; 910: half).
void require_proposal_product(const char* api, bool is_float);
}  // namespace npuvp::ascendc

namespace npuvp::ascendc::lib {

constexpr uint32_t kProposalElems = 8;
constexpr uint32_t kProposalY1 = 1;
constexpr uint32_t kProposalScore = 4;
constexpr uint32_t kProposalLabel = 5;

// The unsigned integer as wide as T (the proposal's elements moved as bits).
template <typename T>
using bits_of = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

template <typename T>
float value_of_bits(bits_of<T> b) {
  T v;
  std::memcpy(static_cast<void*>(&v), &b, sizeof v);
  return static_cast<float>(v);
}

// Score order: true if a comes before b (a NaN before every number, then descending).
inline bool score_before(float a, float b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na && !nb;
  return a > b;
}

// `count` proposals read from `t` at element `start` (8 elements each, as bits).
template <typename T>
std::vector<bits_of<T>> read_proposals(const AscendC::LocalTensor<T>& t, uint32_t start, uint32_t count) {
  const AscendC::LocalTensor<bits_of<T>> b = t.template ReinterpretCast<bits_of<T>>();
  std::vector<bits_of<T>> out(size_t(count) * kProposalElems);
  for (uint32_t i = 0; i < count * kProposalElems; ++i) out[i] = b.GetValue(start + i);
  return out;
}

template <typename T>
void write_proposals(const AscendC::LocalTensor<T>& t, uint32_t start, const std::vector<bits_of<T>>& p,
                     const std::vector<uint32_t>& order) {
  const AscendC::LocalTensor<bits_of<T>> b = t.template ReinterpretCast<bits_of<T>>();
  for (uint32_t i = 0; i < order.size(); ++i) {
    for (uint32_t e = 0; e < kProposalElems; ++e) b.SetValue(start + i * kProposalElems + e, p[order[i] * kProposalElems + e]);
  }
}

// The scalar unit's work starts after the vector unit's writes and ends before its later reads.
inline void scalar_done() {
  AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
}

// `count` proposals of src sorted by score in runs of `run` (the last may be shorter) to dst.
template <typename T>
void sort_proposals(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                    uint32_t run) {
  wait_vector();
  const std::vector<bits_of<T>> p = read_proposals(src, 0, count);
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  for (uint32_t start = 0; start < count; start += run) {
    const uint32_t end = std::min(count, start + run);
    std::stable_sort(order.begin() + start, order.begin() + end, [&](uint32_t a, uint32_t b) {
      return score_before(value_of_bits<T>(p[a * kProposalElems + kProposalScore]),
                          value_of_bits<T>(p[b * kProposalElems + kProposalScore]));
    });
  }
  write_proposals(dst, 0, p, order);
  scalar_done();
}

// Merges up to four sorted queues of proposals (lens[q], valid[q]) into dst, `repeat` times
// with the queues and dst advancing by the four lengths' sum. With `stop_when_exhausted`, the
// merge ends when a queue runs out; taken[q] is how many each queue gave.
template <typename T>
void merge_proposals(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* queues, const uint16_t lens[4],
                     uint16_t valid, bool stop_when_exhausted, uint32_t repeat, uint32_t taken[4]) {
  wait_vector();
  uint32_t total = 0;
  for (int q = 0; q < 4; ++q) total += (valid >> q & 1) ? lens[q] : 0;
  for (uint32_t r = 0; r < repeat; ++r) {
    std::vector<bits_of<T>> p[4];
    for (int q = 0; q < 4; ++q) {
      taken[q] = 0;
      if (valid >> q & 1) p[q] = read_proposals(queues[q], r * total * kProposalElems, lens[q]);
    }
    std::vector<bits_of<T>> out;
    for (;;) {
      int best = -1;
      bool exhausted = false;
      for (int q = 0; q < 4; ++q) {
        if (!(valid >> q & 1)) continue;
        if (taken[q] == lens[q]) {
          exhausted = true;
          continue;
        }
        if (best < 0 || score_before(value_of_bits<T>(p[q][taken[q] * kProposalElems + kProposalScore]),
                                     value_of_bits<T>(p[best][taken[best] * kProposalElems + kProposalScore]))) {
          best = q;
        }
      }
      if (best < 0 || (stop_when_exhausted && exhausted)) break;
      out.insert(out.end(), p[best].begin() + taken[best] * kProposalElems,
                 p[best].begin() + (taken[best] + 1) * kProposalElems);
      ++taken[best];
    }
    std::vector<uint32_t> order(out.size() / kProposalElems);
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    write_proposals(dst, r * total * kProposalElems, out, order);
  }
  scalar_done();
}

// dst (one element per proposal) to / from field `field` of `count` proposals.
template <typename T>
void proposal_field_in(const AscendC::LocalTensor<T>& proposals, const AscendC::LocalTensor<T>& src, uint32_t count,
                       uint32_t field) {
  wait_vector();
  const AscendC::LocalTensor<bits_of<T>> p = proposals.template ReinterpretCast<bits_of<T>>();
  const AscendC::LocalTensor<bits_of<T>> s = src.template ReinterpretCast<bits_of<T>>();
  for (uint32_t i = 0; i < count; ++i) p.SetValue(i * kProposalElems + field, s.GetValue(i));
  scalar_done();
}
template <typename T>
void proposal_field_out(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& proposals, uint32_t count,
                        uint32_t field) {
  wait_vector();
  const AscendC::LocalTensor<bits_of<T>> p = proposals.template ReinterpretCast<bits_of<T>>();
  const AscendC::LocalTensor<bits_of<T>> d = dst.template ReinterpretCast<bits_of<T>>();
  for (uint32_t i = 0; i < count; ++i) d.SetValue(i, p.GetValue(i * kProposalElems + field));
  scalar_done();
}

// Sort's index into the proposals (half: y1 low 16 bits, label high 16 bits; float: label).
template <typename T>
void proposal_index_in(const AscendC::LocalTensor<T>& proposals, const AscendC::LocalTensor<uint32_t>& index,
                       uint32_t count) {
  wait_vector();
  const AscendC::LocalTensor<bits_of<T>> p = proposals.template ReinterpretCast<bits_of<T>>();
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t v = index.GetValue(i);
    if constexpr (sizeof(T) == 2) {
      p.SetValue(i * kProposalElems + kProposalY1, static_cast<uint16_t>(v & 0xffffu));
      p.SetValue(i * kProposalElems + kProposalLabel, static_cast<uint16_t>(v >> 16));
    } else {
      p.SetValue(i * kProposalElems + kProposalLabel, v);
    }
  }
  scalar_done();
}
template <typename T>
void proposal_index_out(const AscendC::LocalTensor<uint32_t>& index, const AscendC::LocalTensor<T>& proposals,
                        uint32_t count) {
  wait_vector();
  const AscendC::LocalTensor<bits_of<T>> p = proposals.template ReinterpretCast<bits_of<T>>();
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (sizeof(T) == 2) {
      index.SetValue(i, uint32_t(p.GetValue(i * kProposalElems + kProposalY1)) |
                            uint32_t(p.GetValue(i * kProposalElems + kProposalLabel)) << 16);
    } else {
      index.SetValue(i, p.GetValue(i * kProposalElems + kProposalLabel));
    }
  }
  scalar_done();
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
  lib::proposal_field_in(dst, src, count, static_cast<uint32_t>(modeNumber));
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
  lib::proposal_field_out(dst, src, count, static_cast<uint32_t>(modeNumber));
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
  lib::sort_proposals(dst, src, count, 16);
}

// Merges up to four sorted proposal queues (MrgSort4Info as MrgSort's, lengths in proposals).
template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  namespace lib = npuvp::ascendc::lib;
  lib::require_half_or_float<T>("MrgSort4");
  npuvp::ascendc::require_proposal_product("MrgSort4", sizeof(T) == 4);
  if (params.validBit != 3 && params.validBit != 7 && params.validBit != 15) {
    npuvp::ascendc::api_fail("MrgSort4", "validBit must be 3, 7 or 15");
  }
  const LocalTensor<T> queues[4] = {src.src1, src.src2, src.src3, src.src4};
  uint64_t total = 0;
  for (int q = 0; q < 4; ++q) {
    if (params.validBit >> q & 1) {
      lib::require_size(queues[q], uint64_t(params.elementLengths[q]) * lib::kProposalElems, "a source queue", "MrgSort4");
      total += params.elementLengths[q];
    }
  }
  const uint32_t repeat = params.repeatTimes == 0 ? 1 : params.repeatTimes;
  lib::require_size(dst, total * repeat * lib::kProposalElems, "dst", "MrgSort4");
  uint32_t taken[4];
  lib::merge_proposals(dst, queues, params.elementLengths, params.validBit, params.ifExhaustedSuspension, repeat, taken);
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
  lib::proposal_field_in(tmp, src, count, lib::kProposalScore);
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
  lib::proposal_field_out(dstValue, sorted, count, lib::kProposalScore);
  if (dstIndex.GetSize() != 0) {
    lib::require_size(dstIndex, count, "dstIndex", "Extract");
    lib::proposal_index_out(dstIndex, sorted, count);
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
  if (validBit != 3 && validBit != 7 && validBit != 15) npuvp::ascendc::api_fail("MrgSort", "validBit must be 3, 7 or 15");
  const LocalTensor<T> queues[4] = {sortList.src1, sortList.src2, sortList.src3, sortList.src4};
  uint64_t total = 0;
  for (int q = 0; q < 4; ++q) {
    if (validBit >> q & 1) {
      lib::require_size(queues[q], uint64_t(elementCountList[q]) * lib::kProposalElems, "a source queue", "MrgSort");
      total += elementCountList[q];
    }
  }
  lib::require_size(dst, total * uint32_t(repeatTime) * lib::kProposalElems, "dst", "MrgSort");
  uint32_t taken[4];
  lib::merge_proposals(dst, queues, elementCountList, validBit, isExhaustedSuspension, uint32_t(repeatTime), taken);
  if (isExhaustedSuspension) {
    for (int q = 0; q < 4; ++q) sortedNum[q] = taken[q];
  }
}

}  // namespace AscendC
