// TopKMode and TopKInfo, shared by the kernel API (topk.h) and the host tiling (topk_tiling.h).
#pragma once
#include <cstdint>

namespace AscendC {

enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};

// The [outter, inner] source: rows of inner elements (a multiple of 32), the first n valid.
struct TopKInfo {
  int32_t outter = 1;
  int32_t inner = 1;
  int32_t n = 1;
};

}  // namespace AscendC
