// Broadcast (asc-devkit docs/api Broadcast.md; CANN 8.1 lib/pad/broadcast.h), dim 1 or 2:
//   dim 1:          [1]    -> [n]     Duplicate of src[0]
//   dim 2, axis 0:  [1, n] -> [m, n]  the row copied m times (Copy)
//   dim 2, axis 1:  [m, 1] -> [m, n]  row r filled with src[r] (Duplicate)
// The values are read by the scalar unit after a V_S flag and written by vector instructions,
// bits unchanged. Rows of dst must start 32 B aligned (n * sizeof(T) a multiple of 32 for
// dim 2). No temporary buffer is used.
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
  namespace lib = npuvp::ascendc::lib;
  static_assert(dim == 1 || dim == 2, "Broadcast: dim is 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis is 0 or 1");
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Broadcast: 16- or 32-bit elements");
  const char* api = "Broadcast";
  char why[200];
  if constexpr (dim == 1) {
    if (srcShape[0] != 1) npuvp::ascendc::api_fail(api, "dim 1: srcShape must be [1]");
    lib::require_size(dstLocal, dstShape[0], "dstLocal", api);
    lib::wait_vector();
    Duplicate(dstLocal, srcLocal.GetValue(0), static_cast<int32_t>(dstShape[0]));
  } else {
    const uint32_t m = dstShape[0], n = dstShape[1];
    const bool shapeOk = axis == 0 ? (srcShape[0] == 1 && srcShape[1] == n) : (srcShape[0] == m && srcShape[1] == 1);
    if (!shapeOk) {
      std::snprintf(why, sizeof why, "srcShape [%u, %u] does not broadcast to [%u, %u] along axis %d", srcShape[0],
                    srcShape[1], m, n, axis);
      npuvp::ascendc::api_fail(api, why);
    }
    if (n * sizeof(T) % 32 != 0) {
      std::snprintf(why, sizeof why, "dstShape[1] = %u elements is not 32 B aligned", n);
      npuvp::ascendc::api_fail(api, why);
    }
    lib::require_size(dstLocal, uint64_t(m) * n, "dstLocal", api);
    lib::require_size(srcLocal, axis == 0 ? n : m, "srcLocal", api);
    if constexpr (axis == 0) {
      for (uint32_t r = 0; r < m; ++r) Copy(dstLocal[r * n], srcLocal, n);
    } else {
      lib::wait_vector();
      for (uint32_t r = 0; r < m; ++r) Duplicate(dstLocal[r * n], srcLocal.GetValue(r), static_cast<int32_t>(n));
    }
  }
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
  (void)sharedTmpBuffer;
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC
