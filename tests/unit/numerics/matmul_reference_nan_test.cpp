// Issue 29: the matmul reference's NaN results have one bit pattern in every build. Which
// NaN an IEEE add returns (its sign, its payload) follows the operand order the compiler
// chose, so a sanitizer build gave 0x7fc00000 where the optimised one gave 0xffc00000; the
// reference pins every NaN to the positive quiet NaN.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstring>
#include <vector>
#include "tests/support/matmul_reference.h"

namespace matmul_reference_nan_test {

uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

_Float16 half_from_bits(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return h;
}

TEST(MatmulReferenceNan, EveryNanIsThePositiveQuietNan) {
  const uint32_t m = 9, n = 33, k = 7;
  std::vector<_Float16> a(size_t(m) * k, _Float16(1.0f)), b(size_t(k) * n, _Float16(2.0f));
  const _Float16 inf = half_from_bits(0x7c00), positive_nan = half_from_bits(0x7e00), negative_nan = half_from_bits(0xfe00);
  // Row 0: inf * 0 (the host's default NaN, negative on x86); row 1: a positive NaN input;
  // row 2: a negative one; row 3: both signs in one sum; row 4: inf - inf.
  a[0 * k + 0] = inf;
  b[0 * n + 5] = _Float16(0.0f);
  a[1 * k + 2] = positive_nan;
  a[2 * k + 3] = negative_nan;
  a[3 * k + 1] = positive_nan;
  a[3 * k + 4] = negative_nan;
  a[4 * k + 0] = inf;
  a[4 * k + 1] = half_from_bits(0xfc00);
  const std::vector<float> c = npuvp::testing::matmul_reference(a, b, m, n, k);
  size_t nans = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c[i] != c[i]) {
      ++nans;
      EXPECT_EQ(bits_of(c[i]), 0x7fc00000u) << "C[" << i / n << "][" << i % n << "]";
    }
  }
  EXPECT_GE(nans, 1u + 4 * n);  // C[0][5] and rows 1 to 4 whole
}

}  // namespace matmul_reference_nan_test
