// Pad and UnPad of lib/ (right padding of [height, width] rows to 32 B, and its inverse): the
// bits of the data moved, padValue in the pad columns, passes smaller than the shape, the host
// tiling sizes, and the shape errors.
#include <gtest/gtest.h>
#include "lib/pad/pad.h"
#include "lib/pad/pad_tiling.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/lib_harness.h"

namespace lib_pad_test {

using npuvp::testing::UbOperand;
using npuvp::testing::same_bits;

template <class T>
T pad_value_as(int32_t v) {
  if constexpr (std::is_integral<T>::value) return static_cast<T>(v);
  else return static_cast<T>(static_cast<float>(v));
}

// srcShape [h, w], oriWidth valid columns; `tmpBytes` 0 means the tiling's maximum.
template <class T>
void check_pad(const std::string& platform, uint32_t h, uint32_t w, uint32_t oriWidth, uint16_t rightPad,
               int32_t padValue, uint32_t tmpBytes) {
  auto& dev = npuvp::testing::make_device({}, platform);
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(T), maxTmp, minTmp);
  if (tmpBytes == 0) tmpBytes = maxTmp;
  optiling::PadTiling hostTiling;
  AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, oriWidth}), tmpBytes, sizeof(T), hostTiling);
  PadTiling tiling;
  hostTiling.SaveToBuffer(&tiling, sizeof tiling);
  const uint32_t dw = (w * sizeof(T)) % 32 == 0 ? w : w + rightPad;
  const auto src = npuvp::testing::random_vector<T>(h * w, 17, -50, 50);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(h * dw * sizeof(T)),
                                UbOperand::zeros(tmpBytes ? tmpBytes : 32)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::PadParams params(0, rightPad, padValue);
    AscendC::Pad(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), params, ub[2], tiling);
  });
  const auto got = ops[1].as<T>(h * dw);
  const T pad = pad_value_as<T>(padValue);
  const uint32_t valid = dw == w ? oriWidth : w;
  for (uint32_t r = 0; r < h; ++r)
    for (uint32_t c = 0; c < dw; ++c) {
      const T want = c < valid ? src[r * w + c] : pad;
      ASSERT_TRUE(same_bits(got[r * dw + c], want)) << "dst[" << r << "][" << c << "]";
    }
}

template <class T>
void check_unpad(const std::string& platform, uint32_t h, uint32_t w, uint16_t rightPad, bool minimalTmp) {
  auto& dev = npuvp::testing::make_device({}, platform);
  struct Platform {} platformInfo;
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetUnPadMaxMinTmpSize(platformInfo, ge::Shape({h, w}), sizeof(T), maxTmp, minTmp);
  const uint32_t tmpBytes = minimalTmp ? minTmp : maxTmp;
  optiling::UnPadTiling hostTiling;
  AscendC::UnPadTilingFunc(ge::Shape({h, w}), tmpBytes, sizeof(T), hostTiling);
  UnPadTiling tiling;
  hostTiling.SaveToBuffer(&tiling, sizeof tiling);
  if (minimalTmp) {
    EXPECT_LT(tiling.tmpBuffer1RowNum, h) << "the test wants several passes";
  }
  const uint32_t ow = w - rightPad;
  const auto src = npuvp::testing::random_vector<T>(h * w, 23, -50, 50);
  std::vector<UbOperand> ops = {UbOperand::of(src), UbOperand::zeros(h * ow * sizeof(T)), UbOperand::zeros(tmpBytes)};
  npuvp::testing::run_in_ub(dev, ops, [&](const std::vector<AscendC::LocalTensor<uint8_t>>& ub) {
    AscendC::UnPadParams params(0, rightPad);
    AscendC::LocalTensor<uint8_t> tmp = ub[2];
    AscendC::UnPad(ub[1].ReinterpretCast<T>(), ub[0].ReinterpretCast<T>(), params, tmp, tiling);
  });
  const auto got = ops[1].as<T>(h * ow);
  for (uint32_t r = 0; r < h; ++r)
    for (uint32_t c = 0; c < ow; ++c)
      ASSERT_TRUE(same_bits(got[r * ow + c], src[r * w + c])) << "dst[" << r << "][" << c << "]";
}

TEST(LibPad, UnalignedHalf_A2) { check_pad<half>("core910b", 5, 13, 13, 3, 7, 0); }
TEST(LibPad, UnalignedFloatPasses_310P) { check_pad<float>("ascend310p", 11, 21, 21, 3, -2, 4 * 24 * 3); }
TEST(LibPad, UnalignedInt16_910) { check_pad<int16_t>("core910", 3, 30, 30, 2, -9, 0); }
TEST(LibPad, AlignedFillsInvalidColumns_A2) { check_pad<float>("core910b", 9, 24, 19, 5, 42, 0); }
TEST(LibUnPad, HalfPasses_A2) { check_unpad<half>("core910b", 37, 16, 3, true); }
TEST(LibUnPad, Float_910) { check_unpad<float>("core910", 9, 24, 5, false); }
TEST(LibUnPad, Int32Passes_310P) { check_unpad<int32_t>("ascend310p", 19, 16, 7, true); }

TEST(LibPadErrors, PaddedWidthNotAligned) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    optiling::PadTiling host;
    PadTilingFunc(ge::Shape({4, 13}), ge::Shape({4, 13}), 2048, 2, host);
    PadTiling t;
    host.SaveToBuffer(&t, sizeof t);
    PadParams p(0, 2, 0);
    Pad(a.Get<half>(), a.Get<half>(), p, a.Get<uint8_t>(), t);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("Pad", "width 13 + rightPad 2 = 15 elements is not 32 B aligned"));
}

TEST(LibPadErrors, UnPadWidthNotAligned) {
  auto& dev = npuvp::testing::make_device({}, "core910b");
  const std::string err = npuvp::testing::kernel_error(dev, 1, [] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, 8192);
    optiling::UnPadTiling host;
    UnPadTilingFunc(ge::Shape({4, 12}), 4096, 4, host);
    UnPadTiling t;
    host.SaveToBuffer(&t, sizeof t);
    UnPadParams p(0, 1);
    UnPad(a.Get<float>(), a.Get<float>(), p, t);
  });
  EXPECT_THAT(err, npuvp::testing::IsKernelError("UnPad", "width 12 elements is not 32 B aligned"));
}

TEST(LibPadTiling, Sizes) {
  uint32_t maxV = 0, minV = 0;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({10, 13}), 2, maxV, minV);
  EXPECT_EQ(minV, 64u);   // one row of 16 offsets
  EXPECT_EQ(maxV, 640u);  // ten rows
  AscendC::GetPadMaxMinTmpSize(ge::Shape({10, 16}), 2, maxV, minV);
  EXPECT_EQ(maxV, 0u);  // aligned: padded in place
  struct Platform {} platform;
  AscendC::GetUnPadMaxMinTmpSize(platform, ge::Shape({40, 16}), 2, maxV, minV);
  EXPECT_EQ(minV, 16u * 16 * 4);
  EXPECT_EQ(maxV, 40u * 16 * 4);
  optiling::UnPadTiling t;
  AscendC::UnPadTilingFunc(ge::Shape({40, 16}), minV + 100, 2, t);
  EXPECT_EQ(t.get_tmpBuffer1RowNum(), 16u);
}

}  // namespace lib_pad_test
