// The arithmetic an L2 home node applies to atomic writes (models/memory/atomic_rmw.h),
// element by element against plain references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "models/memory/atomic_rmw.h"
#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace atomic_rmw_test {
using npuvp::AtomicExtension;
using Op = AtomicExtension::Op;
using Type = AtomicExtension::Type;

template <class T>
std::vector<T> combine(Op op, Type type, std::vector<T> mem, const std::vector<T>& src) {
  npuvp::memory::atomic_combine(AtomicExtension(op, type), reinterpret_cast<uint8_t*>(mem.data()),
                                reinterpret_cast<const uint8_t*>(src.data()), mem.size() * sizeof(T));
  return mem;
}

TEST(AtomicRmw, F32AddRoundsToNearestEven) {
  const std::vector<float> mem{1.0f, 16777216.0f, -2.5f}, src{2.0f, 1.0f, 2.5f};
  const auto r = combine(Op::Add, Type::F32, mem, src);
  for (size_t i = 0; i < mem.size(); ++i) EXPECT_EQ(r[i], mem[i] + src[i]) << i;
}

// f16: the exact sum rounded once. 2048 + 1 is a tie between 2048 and 2050: even, 2048;
// 2048 + 3 rounds up to 2052.
TEST(AtomicRmw, F16AddRoundsTheExactSumOnce) {
  const std::vector<_Float16> mem{_Float16(2048), _Float16(2048), _Float16(0.5)};
  const std::vector<_Float16> src{_Float16(1), _Float16(3), _Float16(0.25)};
  const auto r = combine(Op::Add, Type::F16, mem, src);
  EXPECT_EQ(float(r[0]), 2048.0f);
  EXPECT_EQ(float(r[1]), 2052.0f);
  EXPECT_EQ(float(r[2]), 0.75f);
}

TEST(AtomicRmw, Bf16AddIsTheF32SumRounded) {
  const std::vector<npuvp::bfloat16_t> mem{npuvp::bfloat16_t(1.0f), npuvp::bfloat16_t(256.0f)};
  const std::vector<npuvp::bfloat16_t> src{npuvp::bfloat16_t(0.5f), npuvp::bfloat16_t(1.0f)};
  const auto r = combine(Op::Add, Type::BF16, mem, src);
  EXPECT_EQ(float(r[0]), 1.5f);
  EXPECT_EQ(float(r[1]), 256.0f);  // 257 is a tie between 256 and 258: even
}

TEST(AtomicRmw, IntegerAddWraps) {
  const auto r32 = combine(Op::Add, Type::S32, std::vector<int32_t>{std::numeric_limits<int32_t>::max(), -5},
                           std::vector<int32_t>{1, 3});
  EXPECT_EQ(r32[0], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(r32[1], -2);
  const auto r8 = combine(Op::Add, Type::S8, std::vector<int8_t>{127, -128}, std::vector<int8_t>{1, -1});
  EXPECT_EQ(r8[0], -128);
  EXPECT_EQ(r8[1], 127);
}

TEST(AtomicRmw, MaxAndMinPickTheValueAndPropagateNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto mx = combine(Op::Max, Type::F32, std::vector<float>{1, -3, nan}, std::vector<float>{2, -4, 0});
  EXPECT_EQ(mx[0], 2.0f);
  EXPECT_EQ(mx[1], -3.0f);
  EXPECT_TRUE(std::isnan(mx[2]));
  const auto mn = combine(Op::Min, Type::S16, std::vector<int16_t>{5, -7}, std::vector<int16_t>{-1, 3});
  EXPECT_EQ(mn[0], -1);
  EXPECT_EQ(mn[1], -7);
}
}  // namespace atomic_rmw_test
