// The count-form ReduceSum contract of the model (docs/vector-isa.md §3.4), for f32: a tree of
// adjacent pairs per 64-element repeat (the last repeat padded with -0), then the repeat sums
// added in order.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace npuvp::testing {

inline float tree_sum(const float* v, size_t n, size_t lanes) {
  std::vector<float> x(lanes, -0.0f);
  for (size_t i = 0; i < n; ++i) x[i] = v[i];
  for (size_t w = lanes; w > 1; w /= 2) {
    for (size_t i = 0; i < w / 2; ++i) {
      volatile float s = x[2 * i] + x[2 * i + 1];
      x[i] = s;
    }
  }
  return x[0];
}

inline float reduce_sum_count_form(const float* v, size_t n) {
  float sum = -0.0f;
  for (size_t r0 = 0; r0 < n; r0 += 64) {
    volatile float s = sum + tree_sum(v + r0, std::min<size_t>(64, n - r0), 64);
    sum = s;
  }
  return sum;
}

}  // namespace npuvp::testing
