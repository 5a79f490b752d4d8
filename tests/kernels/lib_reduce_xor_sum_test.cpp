// ReduceXorSum of lib/ (sum of src0 ^ src1 into dst[0], int16): bit for bit against plain C++ of
// CANN's steps on each chip (A2: through float, round half away; 310P: through half, then
// float, back through half, rint), at odd counts; the tmp size; the type check is static.
#include <gtest/gtest.h>
#include <cmath>
#include "lib/reduce/reduce_xor_sum.h"
#include "lib/reduce/reduce_xor_sum_tiling.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_reduce_xor_sum_test {

using npuvp::testing::UbOperand;

std::vector<int16_t> values(size_t n, uint32_t seed, int lo, int hi) {
  const auto f = npuvp::testing::random_vector<float>(n, seed, float(lo), float(hi));
  std::vector<int16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int16_t>(std::lround(f[i]));
  return v;
}

void check(const std::string& platform, uint32_t count, int lo, int hi) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const bool via_half = platform == "ascend310p";
  const auto x = values(count, 81, lo, hi), y = values(count, 82, lo, hi);
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetReduceXorSumMaxMinTmpSize(ge::Shape({int64_t(count)}), 2, false, maxTmp, minTmp);
  ASSERT_EQ(minTmp, 6u * ((count + 31) / 32 * 32));
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(y), UbOperand::zeros(32), UbOperand::zeros(minTmp)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::LocalTensor<int16_t> dst = ub[2].ReinterpretCast<int16_t>();
    AscendC::LocalTensor<uint8_t> tmp = ub[3];
    AscendC::ReduceXorSum(dst, ub[0].ReinterpretCast<int16_t>(), ub[1].ReinterpretCast<int16_t>(), tmp, count);
  });
  // The sums stay below 2^24, so float adds them exactly in any order.
  float sum = 0.0f;
  for (uint32_t i = 0; i < count; ++i) {
    const int16_t z = static_cast<int16_t>(x[i] ^ y[i]);
    sum += via_half ? float(_Float16(float(z))) : float(z);
  }
  int16_t want;
  if (via_half) {
    want = static_cast<int16_t>(std::nearbyint(float(_Float16(sum))));
  } else {
    want = static_cast<int16_t>(std::round(sum));
  }
  EXPECT_EQ(ops[2].as<int16_t>(1)[0], want) << "sum " << sum;
}

TEST(LibReduceXorSum, Odd_A2) { check("core910b", 201, -100, 100); }
TEST(LibReduceXorSum, LongNegative_A2) { check("core910b", 1000, -30, 30); }
TEST(LibReduceXorSum, Odd_310P) { check("ascend310p", 173, -100, 100); }

TEST(LibReduceXorSumErrors, TmpTooSmall) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, t;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(t, 64);
    LocalTensor<int16_t> d = a.Get<int16_t>();
    LocalTensor<uint8_t> tmp = t.Get<uint8_t>();
    ReduceXorSum(d, a.Get<int16_t>(), a.Get<int16_t>(), tmp, 100);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("ReduceXorSum", "the temporary buffer holds 64 bytes"));
}

}  // namespace lib_reduce_xor_sum_test
