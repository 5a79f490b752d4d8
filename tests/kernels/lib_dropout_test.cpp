// DropOut of lib/ in byte mode (one 0/1 byte per element) and bit mode (one bit per element):
// kept elements are src / keepProb (a float division, half rounded once), the others 0
// (byte mode: (src / keepProb) * 0, so -0 for a negative src).
#include <gtest/gtest.h>
#include "lib/filter/dropout.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_dropout_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T>
void check_dropout(bool bitMode, const std::string& platform, uint32_t rows, uint32_t cols, uint32_t tmpBytes) {
  auto& dev = npuvp::testing::make_device({}, platform);
  const uint32_t n = rows * cols;
  const auto x = npuvp::testing::random_vector<T>(n, 101, -9, 9);
  const auto r = npuvp::testing::random_vector<float>(n, 102, 0, 1);
  std::vector<uint8_t> keep(n), mask(bitMode ? n / 8 : n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    keep[i] = r[i] < 0.7f;
    if (bitMode) {
      mask[i / 8] |= uint8_t(keep[i] << (i % 8));
    } else {
      mask[i] = keep[i];
    }
  }
  const float keepProb = 0.7f;
  std::vector<UbOperand> ops = {UbOperand::of(x), UbOperand::of(mask), UbOperand::zeros(n * sizeof(T)),
                                UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::DropOutShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = cols;
    info.maskLastAxis = bitMode ? cols / 8 : cols;
    AscendC::DropOut<T>(ub[2].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), ub[1], ub[3], keepProb, info);
  });
  const auto got = ops[2].as<T>(n);
  for (uint32_t i = 0; i < n; ++i) {
    volatile float q = float(x[i]) / keepProb;
    // Byte mode multiplies by the 0/1 mask (a dropped negative value gives -0); bit mode selects 0.
    volatile float m = float(q) * float(keep[i]);
    const T want = bitMode ? (keep[i] ? static_cast<T>(float(q)) : static_cast<T>(0.0f)) : static_cast<T>(float(m));
    ASSERT_TRUE(same_bits(got[i], want)) << "dst[" << i << "]: " << float(got[i]) << " vs " << float(want);
  }
}

TEST(LibDropOut, ByteModeFloat_A2) { check_dropout<float>(false, "core910b", 3, 200, 3584); }
TEST(LibDropOut, ByteModeHalf_310P) { check_dropout<half>(false, "ascend310p", 2, 96, 8192); }
TEST(LibDropOut, BitModeFloat_A2) { check_dropout<float>(true, "core910b", 4, 256, 3584); }
TEST(LibDropOut, BitModeHalf_A2) { check_dropout<half>(true, "core910b", 3, 128, 8192); }

TEST(LibDropOutErrors, MaskShape) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, t;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(t, 4096);
    DropOutShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 64;
    info.maskLastAxis = 16;
    DropOut<float>(a.Get<float>(), a.Get<float>(), a.Get<uint8_t>(), t.Get<uint8_t>(), 0.5f, info);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("DropOut", "maskLastAxis must be srcLastAxis (bytes) or"));
}

}  // namespace lib_dropout_test
