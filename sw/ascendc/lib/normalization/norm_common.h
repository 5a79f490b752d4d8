// Shared by LayerNorm and RmsNorm (lib/normalization/): the [B, S, H] geometry and its checks.
#pragma once
#include "sw/ascendc/lib/lib_common.h"

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

namespace npuvp::lib_tiling {
// Temporary bytes of LayerNorm (mean, variance and deviation per row; five float rows: the
// widened x, deviation, square/broadcast, gamma, beta) and RmsNorm (the mean square per row;
// four float rows: widened x, square/broadcast, gamma, result).
inline uint32_t layernorm_tmp_bytes(uint32_t rows, uint32_t h) { return 4u * (3u * ((rows + 7) / 8 * 8) + 5u * h); }
inline uint32_t rmsnorm_tmp_bytes(uint32_t rows, uint32_t h) { return 4u * ((rows + 7) / 8 * 8 + 4u * h); }
}  // namespace npuvp::lib_tiling
