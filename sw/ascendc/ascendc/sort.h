// Sort32 and MrgSort (排序组合 pages of the Ascend C reference; A2 only): 8 B records of
// (score, u32 index) sorted by score, descending. docs/vector-isa.md §3.6.
#pragma once
#include <cstdint>
#include <type_traits>
#include "sw/ascendc/ascendc/vector.h"

namespace npuvp::ascendc {
// Fails unless the running core's product has `api` (Sort32 and MrgSort: A2).
void require_a2(const char* api);
// Fails the running kernel with `why`, naming `api`.
[[noreturn]] void api_fail(const char* api, const char* why);
bool running_on_a2();
// Waits for the vector pipe, then reads the records the last MrgSort took from each queue.
void mrg_sort_result(uint16_t taken[4]);
}  // namespace npuvp::ascendc

namespace AscendC {

inline constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

// MrgSort's parameters: the queues' lengths in records (8 B), whether to stop when a queue
// runs out, which queues take part (3, 7 or 15) and the repeat count.
struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
               const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                 const LocalTensor<T>& src4In)
      : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

// Each repeat sorts 32 scores of src0 (with their indices in src1) into 32 records at dst:
// src0 advances 32 elements, src1 128 B and dst 256 B per repeat.
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime) {
  namespace a = npuvp::ascendc;
  a::require_a2("Sort32");
  auto v = a::vec_op(npuvp::aicore::VecOp::Sort32, a::DTypeOf<T>::value, a::vaddr(dst, "Sort32"),
                     a::vaddr(src0, "Sort32"), a::vaddr(src1, "Sort32"));
  v.repeat = a::vector_nonneg(repeatTime, "repeatTime", "Sort32");
  a::vector_issue(v);
}

// Merges the valid queues of src (each sorted, descending) into dst.
template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  namespace a = npuvp::ascendc;
  a::require_a2("MrgSort");
  auto v = a::vec_op(npuvp::aicore::VecOp::MrgSort, a::DTypeOf<T>::value, a::vaddr(dst, "MrgSort"),
                     a::vaddr(src.src1, "MrgSort"), a::vaddr(src.src2, "MrgSort"));
  // Invalid queues need not be in UB; only the valid ones are checked and read.
  v.src2 = (params.validBit & 4) ? a::vaddr(src.src3, "MrgSort") : src.src3.GetPhyAddr();
  v.src3 = (params.validBit & 8) ? a::vaddr(src.src4, "MrgSort") : src.src4.GetPhyAddr();
  v.mask_lo = 0;
  for (int q = 0; q < MRG_SORT_ELEMENT_LEN; ++q) v.mask_lo |= uint64_t(params.elementLengths[q]) << (16 * q);
  v.mask_hi = uint64_t(params.validBit & 0xff) | (params.ifExhaustedSuspension ? 0x100u : 0u);
  if (params.validBit > 0xff) a::api_fail("MrgSort", "validBit must be 3, 7 or 15");
  v.repeat = params.repeatTimes;
  a::vector_issue(v);
}

// How many records the last MrgSort took from each queue (with ifExhaustedSuspension: up to
// the queue that ran out). GetMrgSortResult.md; the call waits for the vector pipe.
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  uint16_t taken[4];
  npuvp::ascendc::mrg_sort_result(taken);
  mrgSortList1 = taken[0];
  mrgSortList2 = taken[1];
  mrgSortList3 = taken[2];
  mrgSortList4 = taken[3];
}

// The size of `elemCount` sorted elements, and the offset of element `elemOffset`, in T
// units: an A2 record is 8 B (4 half or 2 float), a region proposal of 310P / 910 is 8 T.
// (GetSortLen.md says bytes; CANN's implementation and its MrgSort example count T.)
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "GetSortLen: half or float");
  return elemCount * (npuvp::ascendc::running_on_a2() ? 8u / sizeof(T) : 8u);
}
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
  return GetSortLen<T>(elemOffset);
}

}  // namespace AscendC
