// A plain C++ reference of SPEC.md §1.4's numeric contract for f16 inputs: exact products,
// f32 accumulation in increasing k with round-to-nearest-even after every addition.
// Used by the matmul sample's host program and by the tests.
#pragma once
#include <cstdint>
#include <vector>

namespace npuvp::kernels {

inline std::vector<float> matmul_reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b,
                                           uint32_t m, uint32_t n, uint32_t k) {
  std::vector<float> c(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (uint32_t kk = 0; kk < k; ++kk) {
        const float p = float(a[size_t(i) * k + kk]) * float(b[size_t(kk) * n + j]);  // exact
        volatile float sum = acc + p;  // one rounding per addition, never fused
        acc = sum;
      }
      c[size_t(i) * n + j] = acc;
    }
  }
  return c;
}

}  // namespace npuvp::kernels
