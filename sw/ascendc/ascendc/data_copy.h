// DataCopy (SPEC.md §1.5): by element count, or by DataCopyParams blocks of 32 B units.
#pragma once
#include "sw/ascendc/ascendc/tensor.h"

namespace npuvp::ascendc {
struct CopyEnd {
  aicore::MemSpace space;
  uint64_t addr;  // device address for GM, byte offset for local buffers
};
// count form: count * elem_size bytes, rounded down to 32 B (split when over one instruction).
void data_copy_count(CopyEnd dst, CopyEnd src, uint64_t count, unsigned elem_size);
void data_copy_params(CopyEnd dst, CopyEnd src, const AscendC::DataCopyParams& p, unsigned elem_size);
uint64_t gm_device_address(const void* host_pointer);
// Bytes per DataCopyParams unit for a copy into `dst` (32, or 64 into BT, 128 into FB).
uint32_t copy_unit(aicore::MemSpace dst);

template <class T>
CopyEnd end_of(const AscendC::GlobalTensor<T>& t) {
  return {aicore::MemSpace::GM, gm_device_address(t.GetPhyAddr())};
}
template <class T>
CopyEnd end_of(const AscendC::LocalTensor<T>& t) {
  return {t.space(), t.GetPhyAddr()};
}
}  // namespace npuvp::ascendc

namespace AscendC {

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
  npuvp::ascendc::data_copy_count(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), count, sizeof(T));
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  npuvp::ascendc::data_copy_count(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), count, sizeof(T));
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  npuvp::ascendc::data_copy_count(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), count, sizeof(T));
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  npuvp::ascendc::data_copy_params(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), p, sizeof(T));
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  npuvp::ascendc::data_copy_params(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), p, sizeof(T));
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  npuvp::ascendc::data_copy_params(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), p, sizeof(T));
}

}  // namespace AscendC
