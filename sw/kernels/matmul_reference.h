// Plain C++ references of SPEC.md §1.4's numeric contract, used by the matmul samples' host
// programs and by the tests.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace npuvp::kernels {

// How a reference runs, never what it computes: on how many host threads (0: the host's
// cores when the product is large, else one; each element of C is still one thread's, summed
// as the contract says), and a callback told the fraction done (from the calling thread), so
// a check that takes minutes at a large --scale can show progress.
struct ReferenceRun {
  unsigned threads = 0;
  std::function<void(double)> progress;
};

// f16 inputs: exact products, f32 accumulation in increasing k with round-to-nearest-even
// after every addition (matmul_reference.cpp).
std::vector<float> matmul_reference(const std::vector<_Float16>& a, const std::vector<_Float16>& b, uint32_t m,
                                    uint32_t n, uint32_t k, const ReferenceRun& run = {});

// int8 inputs, B given transposed (Bt[N][K]): exact products, an int32 sum with
// two's-complement wrap (done in uint32_t, where wrapping is defined).
inline std::vector<int32_t> matmul_int8_reference(const std::vector<int8_t>& a, const std::vector<int8_t>& bt,
                                                  uint32_t m, uint32_t n, uint32_t k) {
  std::vector<int32_t> c(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      uint32_t acc = 0;
      for (uint32_t kk = 0; kk < k; ++kk) {
        acc += uint32_t(int32_t(a[size_t(i) * k + kk]) * int32_t(bt[size_t(j) * k + kk]));
      }
      c[size_t(i) * n + j] = int32_t(acc);
    }
  }
  return c;
}

}  // namespace npuvp::kernels
