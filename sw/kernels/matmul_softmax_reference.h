// Plain C++ reference of matmul_softmax_910b's numeric contract: C by SPEC.md §1.4
// (matmul_reference), then per row, in f32 and in the kernel's order, the vector unit's
// operations (docs/vector-isa.md): x = C + bias (Add), max = ReduceMax(x), x = x + (-max)
// (Adds), e = exp(x) (Exp: libm expf, as models/aicore/vector_unit.cpp), sum = ReduceSum(e)
// (count form: a tree of adjacent pairs per 64-lane repeat, missing lanes -0, the repeat sums
// added in order), y = e / sum (Div by a Duplicate of the sum).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>
#include "sw/kernels/matmul_reference.h"

namespace npuvp::kernels {

namespace matmul_softmax_detail {
// ReduceMax: the first NaN, else the largest value, +0 above -0.
inline float row_max(const float* x, uint32_t n) {
  float best = x[0];
  for (uint32_t j = 1; j < n; ++j) {
    const float v = x[j];
    if (best != best) break;
    if (v != v || v > best || (v == 0 && best == 0 && std::signbit(best) && !std::signbit(v))) best = v;
  }
  return best;
}

// ReduceSum, count form, f32: 64 lanes per repeat.
inline float row_sum(const float* x, uint32_t n) {
  constexpr uint32_t kLanes = 64;
  float sum = 0;
  for (uint32_t r0 = 0; r0 < n; r0 += kLanes) {
    float lanes[kLanes];
    for (uint32_t i = 0; i < kLanes; ++i) lanes[i] = r0 + i < n ? x[r0 + i] : -0.0f;
    for (uint32_t w = kLanes; w > 1; w /= 2) {
      for (uint32_t i = 0; i < w / 2; ++i) {
        volatile float s = lanes[2 * i] + lanes[2 * i + 1];
        lanes[i] = s;
      }
    }
    if (r0 == 0) {
      sum = lanes[0];
    } else {
      volatile float s = sum + lanes[0];
      sum = s;
    }
  }
  return sum;
}
}  // namespace matmul_softmax_detail

inline std::vector<float> matmul_softmax_reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b,
                                                   const std::vector<float>& bias, uint32_t m, uint32_t n,
                                                   uint32_t k, const ReferenceRun& run = {}) {
  std::vector<float> y = matmul_reference(a, b, m, n, k, run);  // the rows' softmax is quick next to it
  std::vector<float> x(n);
  for (uint32_t i = 0; i < m; ++i) {
    float* row = &y[size_t(i) * n];
    for (uint32_t j = 0; j < n; ++j) x[j] = row[j] + bias[j];
    const float neg_max = -matmul_softmax_detail::row_max(x.data(), n);
    for (uint32_t j = 0; j < n; ++j) {
      volatile float shifted = x[j] + neg_max;
      x[j] = std::exp(float(shifted));
    }
    const float sum = matmul_softmax_detail::row_sum(x.data(), n);
    for (uint32_t j = 0; j < n; ++j) row[j] = x[j] / sum;
  }
  return y;
}

}  // namespace npuvp::kernels
