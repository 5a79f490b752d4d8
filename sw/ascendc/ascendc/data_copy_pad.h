// DataCopyPad: unaligned copies between GM and UB (Atlas A2; the reference page is
// docs/api/context/DataCopyPad(ISASI).md). Lengths count bytes; the UB side of every block
// starts 32 B aligned and GM -> UB fills the block out to 32 B (padding). Also SetPadValue.
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/data_copy.h"

namespace AscendC {

struct DataCopyExtParams {
  DataCopyExtParams() {}
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t src_stride, const uint32_t dst_stride,
                    const uint32_t rsv_in)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride), rsv(rsv_in) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes
  uint32_t srcStride = 0;  // gap after each block: bytes in GM, 32 B units in UB
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() {}
  DataCopyPadExtParams(const bool is_pad, const uint8_t left, const uint8_t right, T value)
      : isPad(is_pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = 0;
};

struct DataCopyPadParams {
  DataCopyPadParams() {}
  DataCopyPadParams(const bool is_pad, const uint8_t left, const uint8_t right, const uint64_t value)
      : isPad(is_pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

}  // namespace AscendC

namespace npuvp::ascendc {

// One DataCopyPad in byte units. pad_value: the element's bits, used when is_pad (else the
// core's SetPadValue register).
struct PadCopy {
  uint32_t block_count, block_len, src_stride, dst_stride;
  bool is_pad;
  uint32_t left, right;  // elements
  uint64_t pad_value;
};
void data_copy_pad(CopyEnd dst, CopyEnd src, const PadCopy& p, unsigned elem_size);
void set_pad_value(uint64_t bits, unsigned elem_size);

template <typename T>
uint64_t element_bits(T value) {
  static_assert(sizeof(T) <= 8, "DataCopyPad elements are at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

}  // namespace npuvp::ascendc

namespace AscendC {

template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                 const DataCopyPadExtParams<T>& padParams) {
  namespace a = npuvp::ascendc;
  a::data_copy_pad(a::end_of(dst), a::end_of(src),
                   {dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                    dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                    a::element_bits(padParams.paddingValue)},
                   sizeof(T));
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams) {
  namespace a = npuvp::ascendc;
  a::data_copy_pad(a::end_of(dst), a::end_of(src),
                   {dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                    dataCopyParams.dstStride, false, 0, 0, 0},
                   sizeof(T));
}
// DataCopyParams: blockLen in bytes here (not 32 B units as for DataCopy).
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& dataCopyParams,
                 const DataCopyPadParams& padParams) {
  namespace a = npuvp::ascendc;
  a::data_copy_pad(a::end_of(dst), a::end_of(src),
                   {dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                    dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                    padParams.paddingValue},
                   sizeof(T));
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& dataCopyParams) {
  namespace a = npuvp::ascendc;
  a::data_copy_pad(a::end_of(dst), a::end_of(src),
                   {dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                    dataCopyParams.dstStride, false, 0, 0, 0},
                   sizeof(T));
}

// The value DataCopyPad pads with when isPad is false (per core, until set again).
template <typename T>
void SetPadValue(T paddingValue) {
  npuvp::ascendc::set_pad_value(npuvp::ascendc::element_bits(paddingValue), sizeof(T));
}

}  // namespace AscendC
