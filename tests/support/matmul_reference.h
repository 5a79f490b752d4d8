// A plain C++ reference of SPEC.md §1.4's numeric contract for f16 inputs: exact products,
// f32 accumulation in increasing k with round-to-nearest-even after every addition.
#pragma once
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace npuvp::testing {

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

inline std::vector<_Float16> random_halves(size_t count, uint32_t seed, float lo = -2, float hi = 2) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<_Float16> v(count);
  for (auto& x : v) x = static_cast<_Float16>(d(gen));
  return v;
}

// Index of the first element whose bits differ, or -1.
template <class T, class U>
long first_mismatch(const T* got, const std::vector<U>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    const T w = static_cast<T>(want[i]);
    if (std::memcmp(&got[i], &w, sizeof(T)) != 0) return long(i);
  }
  return -1;
}

}  // namespace npuvp::testing
