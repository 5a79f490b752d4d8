// Test data and comparison for the matmul kernels; the reference itself is the library's
// (sw/kernels/matmul_reference.h), shared with the sample's host program.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "sw/kernels/matmul_reference.h"
#include "tests/support/kernel_data.h"

namespace npuvp::testing {

using npuvp::kernels::matmul_reference;

inline std::vector<_Float16> random_halves(size_t count, uint32_t seed, float lo = -2, float hi = 2) {
  return random_vector<_Float16>(count, seed, lo, hi);
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
