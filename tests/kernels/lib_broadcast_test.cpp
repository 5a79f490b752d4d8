// Broadcast of lib/ ([1] -> [n], [1, n] -> [m, n], [m, 1] -> [m, n]): the bits of the source
// values, repeated; and its shape errors.
#include <gtest/gtest.h>
#include "lib/pad/broadcast.h"
#include "lib/pad/broadcast_tiling.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_broadcast_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T, int32_t dim, int32_t axis>
void check_broadcast(const std::string& platform, uint32_t m, uint32_t n) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const uint32_t srcCount = dim == 1 ? 1 : (axis == 0 ? n : m);
  const uint32_t dstCount = dim == 1 ? n : m * n;
  const auto src = npuvp::testing::random_vector<T>(srcCount, 91, -100, 100);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(dstCount * sizeof(T))};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    if constexpr (dim == 1) {
      const uint32_t dstShape[1] = {n}, srcShape[1] = {1};
      AscendC::Broadcast<T, 1, 0>(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), dstShape, srcShape);
    } else {
      const uint32_t dstShape[2] = {m, n};
      const uint32_t srcShape[2] = {axis == 0 ? 1 : m, axis == 0 ? n : 1};
      AscendC::Broadcast<T, 2, axis>(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), dstShape, srcShape);
    }
  });
  const auto got = ops[1].as<T>(dstCount);
  for (uint32_t i = 0; i < dstCount; ++i) {
    const uint32_t from = dim == 1 ? 0 : (axis == 0 ? i % n : i / n);
    ASSERT_TRUE(same_bits(got[i], src[from])) << "dst[" << i << "]";
  }
}

TEST(LibBroadcast, Dim1Float_A2) { check_broadcast<float, 1, 0>("core910b", 1, 77); }
TEST(LibBroadcast, RowsHalf_310P) { check_broadcast<half, 2, 0>("ascend310p", 5, 48); }
TEST(LibBroadcast, ColumnFloat_910) { check_broadcast<float, 2, 1>("core910", 7, 24); }

TEST(LibBroadcastErrors, ShapeMismatch) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 4096);
    const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {1, 8};
    Broadcast<float, 2, 0>(a.Get<float>(), a.Get<float>(), dstShape, srcShape);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("Broadcast", "srcShape [1, 8] does not broadcast to [4, 16]"));
}

TEST(LibBroadcastTiling, NoTemporaryBuffer) {
  struct Platform {} platform;
  uint32_t maxV = 1, minV = 1;
  AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape({1, 16}), ge::Shape({4, 16}), 4, false, maxV, minV);
  EXPECT_EQ(maxV, 0u);
  EXPECT_EQ(minV, 0u);
}

}  // namespace lib_broadcast_test
