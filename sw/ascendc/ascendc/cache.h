// The scalar unit's data-cache maintenance: DataCacheCleanAndInvalid, DataCachePreload,
// ICachePreLoad. Ascend C kernels call these after writing GM with SetValue, or before
// reading GM that another core wrote, because on silicon scalar GM accesses go through a
// per-core data cache (asc-devkit docs/api: DataCacheCleanAndInvalid). npuvp's scalar GM
// accesses reach memory directly, so coherence already holds: the calls are kept as the
// scalar instructions they are, with their issue cost, and change no data.
#pragma once
#include "sw/ascendc/ascendc/tensor.h"

namespace npuvp::ascendc {
// One cache-maintenance instruction on the scalar pipe; `api` names it in errors.
void cache_maintenance(const char* api);
}  // namespace npuvp::ascendc

namespace AscendC {

enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
  npuvp::ascendc::cache_maintenance("DataCacheCleanAndInvalid");
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  (void)dst;
  npuvp::ascendc::cache_maintenance("DataCacheCleanAndInvalid");
}
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
  npuvp::ascendc::cache_maintenance("DataCacheCleanAndInvalid");
}
template <typename T>
void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset) {
  (void)src;
  (void)cacheOffset;
  npuvp::ascendc::cache_maintenance("DataCachePreload");
}
inline void ICachePreLoad(const int64_t preFetchLen) {
  (void)preFetchLen;
  npuvp::ascendc::cache_maintenance("ICachePreLoad");
}
// No instruction-cache model: a preload is always complete.
inline int64_t GetICachePreloadStatus() { return 0; }

}  // namespace AscendC
