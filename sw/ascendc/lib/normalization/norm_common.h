// Shared by LayerNorm and RmsNorm (lib/normalization/): the [B, S, H] geometry and its checks.
#pragma once
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace npuvp::ascendc::lib {

struct NormShape {
  uint32_t rows = 0;   // B * S
  uint32_t h = 0;      // hLength: the row, padded to 32 B
  uint32_t valid = 0;  // originalHLength: the elements the statistics cover
};

template <typename T>
NormShape norm_shape(uint32_t b, uint32_t s, uint32_t h, uint32_t original_h, const char* api) {
  NormShape n{b * s, h, original_h ? original_h : h};
  char why[200];
  if (n.rows == 0 || n.h == 0) api_fail(api, "the tiling's shape is empty: pass the tiling its host function computed");
  if (n.h * sizeof(T) % 32 != 0) {
    std::snprintf(why, sizeof why, "hLength = %u elements is not 32 B aligned (the last axis must be padded to 32 B)",
                  n.h);
    api_fail(api, why);
  }
  if (n.valid > n.h) {
    std::snprintf(why, sizeof why, "originalHLength = %u exceeds hLength = %u", n.valid, n.h);
    api_fail(api, why);
  }
  return n;
}

}  // namespace npuvp::ascendc::lib
