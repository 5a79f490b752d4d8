#include "sw/kernels/matmul_reference.h"

#include <algorithm>

namespace npuvp::kernels {

// f16 inputs: exact products, f32 accumulation in increasing k with round-to-nearest-even
// after every addition. Computed a few rows at a time, k outer and j inner: every element of
// C still adds its products in increasing k, one rounding per addition, but the inner loop
// runs along a row of B (contiguous, so the host vectorises it: see CMakeLists.txt) and each row of B read serves
// several rows of C. A product of two f16 values is exact in f32, so a fused multiply-add,
// if the compiler makes one, rounds as a multiply and an add do.
std::vector<float> matmul_reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b, uint32_t m,
                                    uint32_t n, uint32_t k) {
  constexpr uint32_t kRows = 8;
  const std::vector<float> bf(b.begin(), b.end());  // f16 -> f32 once (exact)
  std::vector<float> c(size_t(m) * n, 0.0f);
  for (uint32_t i0 = 0; i0 < m; i0 += kRows) {
    const uint32_t rows = std::min(kRows, m - i0);
    for (uint32_t kk = 0; kk < k; ++kk) {
      const float* const b_row = &bf[size_t(kk) * n];
      for (uint32_t i = i0; i < i0 + rows; ++i) {
        const float aik = float(a[size_t(i) * k + kk]);
        float* const c_row = &c[size_t(i) * n];
        for (uint32_t j = 0; j < n; ++j) c_row[j] += aik * b_row[j];
      }
    }
  }
  return c;
}

}  // namespace npuvp::kernels
